import { describe, expect, it } from 'vitest';
import { BaiduTokens, baiduCredentials } from './token.js';

/** Baidu's OAuth exchange of application keys: cached until shortly before `expires_in`, one exchange in flight. */
describe('Baidu access tokens', () => {
  const credentials = { apiKey: 'ak', secretKey: 'sk' };

  function tokenEndpoint() {
    const calls: string[] = [];
    let release: (() => void) | undefined;
    let gate: Promise<void> | undefined;
    const post = async (url: string) => {
      calls.push(url);
      if (gate) await gate;
      return { status: 200, body: JSON.stringify({ access_token: `token-${calls.length}`, expires_in: 3600 }) };
    };
    return {
      calls,
      post,
      hold() {
        gate = new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      release: () => release?.(),
    };
  }

  it('asks the host’s token URL with the client credentials, and shares one exchange', async () => {
    const endpoint = tokenEndpoint();
    const tokens = new BaiduTokens(endpoint.post, () => 0);
    endpoint.hold();
    const both = Promise.all([
      tokens.accessToken('https://h', credentials),
      tokens.accessToken('https://h', credentials),
    ]);
    endpoint.release();
    expect(await both).toEqual(['token-1', 'token-1']);
    expect(endpoint.calls).toEqual([
      'https://h/oauth/2.0/token?grant_type=client_credentials&client_id=ak&client_secret=sk',
    ]);
  });

  it('reuses the token until five minutes before it expires, then fetches another', async () => {
    const endpoint = tokenEndpoint();
    let now = 1_000_000;
    const tokens = new BaiduTokens(endpoint.post, () => now);
    expect(await tokens.accessToken('https://h', credentials)).toBe('token-1');
    now += 3600_000 - 5 * 60_000 - 1;
    expect(await tokens.accessToken('https://h', credentials)).toBe('token-1');
    now += 1;
    expect(await tokens.accessToken('https://h', credentials)).toBe('token-2');
    // Other credentials, or another host, have their own token.
    expect(await tokens.accessToken('https://other', credentials)).toBe('token-3');
    expect(await tokens.accessToken('https://h', { apiKey: 'ak', secretKey: 'sk2' })).toBe('token-4');
  });

  it('names the refusal without the secret, and tries again next time', async () => {
    let refuse = true;
    const tokens = new BaiduTokens(async () => {
      if (refuse) return { status: 401, body: '{"error":"invalid_client","error_description":"unknown client id"}' };
      return { status: 200, body: '{"access_token":"ok","expires_in":100}' };
    }, Date.now);
    await expect(tokens.accessToken('https://h', credentials)).rejects.toThrow(/HTTP 401.*unknown client id/);
    refuse = false;
    expect(await tokens.accessToken('https://h', credentials)).toBe('ok');
  });

  it('reads application keys, and nothing else, as credentials', () => {
    expect(baiduCredentials('ak|sk')).toEqual(credentials);
    expect(baiduCredentials('bce-v3/ALTAK-x/y')).toBeUndefined();
    expect(baiduCredentials('a|b|c')).toBeUndefined();
    expect(baiduCredentials('|sk')).toBeUndefined();
  });
});
