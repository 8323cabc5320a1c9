import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  fixture,
  fixtureJson,
  serviceAccountKey,
  type TestKeyPair,
  testKeyPair,
  verifyJwt,
} from '../../../../test/providers/vertex/test-support.js';
import {
  CLOUD_PLATFORM_SCOPE,
  GOOGLE_TOKEN_URI,
  JWT_BEARER_GRANT,
  parseServiceAccount,
  type ServiceAccount,
  ServiceAccountTokens,
  signServiceAccountJwt,
  type TokenPost,
} from './token.js';

let keys: TestKeyPair;
let account: ServiceAccount;

beforeAll(() => {
  keys = testKeyPair();
  account = parseServiceAccount(serviceAccountKey(keys.privateKey));
});

const T0 = Date.UTC(2025, 5, 20, 9, 0, 0);

interface Recorded {
  url: string;
  form: Record<string, string>;
}

/** A token endpoint stand-in: records each exchange and answers from `answer`. */
function endpoint(
  answer: (call: number) => { status: number; body: string } | Promise<{ status: number; body: string }>,
) {
  const calls: Recorded[] = [];
  const post: TokenPost = async (url, form) => {
    calls.push({ url, form });
    return answer(calls.length);
  };
  return { calls, post };
}

const granted = (token: string, expiresIn: number | null = 3599) => ({
  status: 200,
  body: JSON.stringify({ access_token: token, token_type: 'Bearer', ...(expiresIn ? { expires_in: expiresIn } : {}) }),
});

describe('the service-account key file', () => {
  it('reads the documented key file fields, a default token_uri, and keys pasted with escaped line breaks', () => {
    expect(account).toEqual({
      type: 'service_account',
      project_id: 'onehub-test-project',
      private_key_id: '3f1c2a9b8e7d6c5b4a39281706f5e4d3c2b1a098',
      private_key: keys.privateKey,
      client_email: 'relay@onehub-test-project.iam.gserviceaccount.com',
      token_uri: 'https://oauth2.googleapis.com/token',
    });
    const { token_uri: _uri, ...withoutUri } = fixtureJson('service-account.json');
    expect(parseServiceAccount(JSON.stringify({ ...withoutUri, private_key: keys.privateKey })).token_uri).toBe(
      GOOGLE_TOKEN_URI,
    );
    const doubled = serviceAccountKey(keys.privateKey.replace(/\n/g, '\\n'));
    expect(parseServiceAccount(doubled).private_key).toBe(keys.privateKey);
  });

  it('names what is wrong with a bad key, and never quotes the key', () => {
    const secret = keys.privateKey.split('\n')[5] ?? '';
    expect(secret.length).toBeGreaterThan(20);
    const cases: Array<[string, RegExp]> = [
      [`{"private_key": "${secret}`, /not valid JSON/],
      ['AIzaSyJustAnApiKey', /not valid JSON/],
      ['[1, 2]', /must be a service-account key file/],
      [serviceAccountKey(keys.privateKey, { type: 'authorized_user' }), /type "authorized_user".*service_account/],
      [serviceAccountKey(keys.privateKey, { client_email: '' }), /no client_email/],
      [serviceAccountKey(keys.privateKey, { private_key: undefined }), /no private_key/],
      [serviceAccountKey(secret), /private_key is not a PEM private key/],
      [serviceAccountKey(keys.privateKey, { token_uri: 'file:///etc/passwd' }), /token_uri is not an http\(s\) URL/],
    ];
    for (const [key, message] of cases) {
      let error: unknown;
      try {
        parseServiceAccount(key);
      } catch (caught) {
        error = caught;
      }
      expect(error, key.slice(0, 40)).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it('refuses to sign with a PEM block that holds no RSA key, without echoing it', async () => {
    const broken = parseServiceAccount(
      serviceAccountKey('-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWJ1dC1ub3QtYS1rZXk=\n-----END PRIVATE KEY-----\n'),
    );
    const refusal = signServiceAccountJwt(broken, 1);
    await expect(refusal).rejects.toThrow(/private_key could not sign: it is not a valid RSA/);
    await expect(refusal).rejects.not.toThrow('c2VjcmV0');
    const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    });
    const ec = parseServiceAccount(serviceAccountKey(ecKey.toString()));
    await expect(signServiceAccountJwt(ec, 1)).rejects.toThrow(/not a valid RSA private key/);
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    });
    const weak = parseServiceAccount(serviceAccountKey(short.toString()));
    await expect(signServiceAccountJwt(weak, 1)).rejects.toThrow(/2048 bits or more/);
  });
});

describe('the JWT bearer assertion', () => {
  it('is RS256 with the key id, the documented claims and a one-hour lifetime, verifiable with the public key', async () => {
    const jwt = await signServiceAccountJwt(account, 1_750_000_000);
    const { header, claims } = verifyJwt(jwt, keys.publicKey);
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: '3f1c2a9b8e7d6c5b4a39281706f5e4d3c2b1a098' });
    expect(claims).toEqual({
      iss: 'relay@onehub-test-project.iam.gserviceaccount.com',
      sub: 'relay@onehub-test-project.iam.gserviceaccount.com',
      aud: 'https://oauth2.googleapis.com/token',
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      iat: 1_750_000_000,
      exp: 1_750_003_600,
    });
    // Another key pair's public key must not verify it: the check above really checked.
    expect(() => verifyJwt(jwt, testKeyPair().publicKey)).toThrow('Invalid JWT Signature.');
    // Nor does a tampered claim set.
    const [head, , signature] = jwt.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, scope: 'everything' })).toString('base64url');
    expect(() => verifyJwt(`${head}.${forged}.${signature}`, keys.publicKey)).toThrow('Invalid JWT Signature.');
  });

  it('is exchanged at token_uri with the jwt-bearer grant, at the injected clock', async () => {
    const { calls, post } = endpoint(() => ({ status: 200, body: fixture('token-response.json').toString('utf8') }));
    const tokens = new ServiceAccountTokens(post, () => T0 + 999);
    const other = { ...account, token_uri: 'http://127.0.0.1:9/token' };
    await expect(tokens.accessToken(other)).resolves.toBe('ya29.c.c0ASRK0GZ-test-access-token-0001');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('http://127.0.0.1:9/token');
    expect(Object.keys(calls[0]?.form ?? {}).sort()).toEqual(['assertion', 'grant_type']);
    expect(calls[0]?.form.grant_type).toBe(JWT_BEARER_GRANT);
    const { claims } = verifyJwt(calls[0]?.form.assertion ?? '', keys.publicKey);
    expect(claims).toMatchObject({ aud: 'http://127.0.0.1:9/token', scope: CLOUD_PLATFORM_SCOPE });
    expect(claims.iat).toBe(Math.floor(T0 / 1000));
  });
});

describe('the token cache', () => {
  it('serves a token until five minutes before it expires, then fetches a new one', async () => {
    let now = T0;
    const { calls, post } = endpoint((call) => granted(`token-${call}`, 3600));
    const tokens = new ServiceAccountTokens(post, () => now);
    expect(await tokens.accessToken(account)).toBe('token-1');
    now = T0 + 30 * 60 * 1000;
    expect(await tokens.accessToken(account)).toBe('token-1');
    now = T0 + 55 * 60 * 1000 - 1;
    expect(await tokens.accessToken(account)).toBe('token-1');
    expect(calls).toHaveLength(1);
    now = T0 + 55 * 60 * 1000;
    expect(await tokens.accessToken(account)).toBe('token-2');
    expect(calls).toHaveLength(2);
    // The new assertion is issued at the new time.
    expect(verifyJwt(calls[1]?.form.assertion ?? '', keys.publicKey).claims.iat).toBe(Math.floor(now / 1000));
    now += 10 * 60 * 1000;
    expect(await tokens.accessToken(account)).toBe('token-2');
    expect(calls).toHaveLength(2);
  });

  it("follows the endpoint's expires_in, and assumes one hour when it gives none", async () => {
    let now = T0;
    const lifetimes = [600, null];
    const { calls, post } = endpoint((call) => granted(`token-${call}`, lifetimes[call - 1] ?? null));
    const tokens = new ServiceAccountTokens(post, () => now);
    await tokens.accessToken(account);
    now = T0 + 5 * 60 * 1000 - 1;
    expect(await tokens.accessToken(account)).toBe('token-1');
    now = T0 + 5 * 60 * 1000;
    expect(await tokens.accessToken(account)).toBe('token-2');
    const second = now;
    now = second + 55 * 60 * 1000 - 1;
    expect(await tokens.accessToken(account)).toBe('token-2');
    expect(calls).toHaveLength(2);
  });

  it('keeps one token per service account: client_email and key id', async () => {
    const { calls, post } = endpoint((call) => granted(`token-${call}`));
    const tokens = new ServiceAccountTokens(post, () => T0);
    const rotated = { ...account, private_key_id: 'another-key-id' };
    const stranger = { ...account, client_email: 'other@onehub-test-project.iam.gserviceaccount.com' };
    expect(await tokens.accessToken(account)).toBe('token-1');
    expect(await tokens.accessToken(rotated)).toBe('token-2');
    expect(await tokens.accessToken(stranger)).toBe('token-3');
    expect(await tokens.accessToken(account)).toBe('token-1');
    expect(await tokens.accessToken(rotated)).toBe('token-2');
    expect(calls).toHaveLength(3);
    expect(verifyJwt(calls[1]?.form.assertion ?? '', keys.publicKey).header.kid).toBe('another-key-id');
    expect(verifyJwt(calls[2]?.form.assertion ?? '', keys.publicKey).claims.iss).toBe(stranger.client_email);
  });

  it('lets concurrent callers share one exchange in flight', async () => {
    let release: (value: { status: number; body: string }) => void = () => undefined;
    const { calls, post } = endpoint((call) =>
      call === 1 ? new Promise<{ status: number; body: string }>((resolve) => (release = resolve)) : granted('late'),
    );
    const tokens = new ServiceAccountTokens(post, () => T0);
    const waiting = [tokens.accessToken(account), tokens.accessToken(account), tokens.accessToken(account)];
    // Signing the assertion is asynchronous: wait until the one exchange has been posted.
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    release(granted('shared'));
    expect(await Promise.all(waiting)).toEqual(['shared', 'shared', 'shared']);
    expect(await tokens.accessToken(account)).toBe('shared');
    expect(calls).toHaveLength(1);
  });

  it('forgets a token on request', async () => {
    const { calls, post } = endpoint((call) => granted(`token-${call}`));
    const tokens = new ServiceAccountTokens(post, () => T0);
    await tokens.accessToken(account);
    tokens.forget(account);
    expect(await tokens.accessToken(account)).toBe('token-2');
    expect(calls).toHaveLength(2);
  });
});

describe('failed exchanges', () => {
  it('are not cached: every waiting caller gets the error, the next call tries again', async () => {
    let release: (value: { status: number; body: string }) => void = () => undefined;
    const { calls, post } = endpoint((call) =>
      call === 1
        ? new Promise<{ status: number; body: string }>((resolve) => (release = resolve))
        : granted('after-failure'),
    );
    const tokens = new ServiceAccountTokens(post, () => T0);
    const first = tokens.accessToken(account);
    const second = tokens.accessToken(account);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    release({ status: 400, body: fixture('token-error-invalid-grant.json').toString('utf8') });
    const message = 'the service-account token endpoint answered 400: invalid_grant: Invalid JWT Signature.';
    await expect(first).rejects.toThrow(message);
    await expect(second).rejects.toThrow(message);
    expect(calls).toHaveLength(1);
    expect(await tokens.accessToken(account)).toBe('after-failure');
    expect(calls).toHaveLength(2);
  });

  it('say what the endpoint said or did, and never carry the private key or the assertion', async () => {
    const secretLine = keys.privateKey.split('\n')[3] ?? '';
    const failures: Array<[TokenPost, string]> = [
      [
        async () => ({ status: 502, body: fixture('token-error-502-html.txt').toString('utf8') }),
        'the service-account token endpoint answered 502: <!DOCTYPE html>',
      ],
      [
        async () => ({ status: 401, body: '{"error":"unauthorized_client"}' }),
        'the service-account token endpoint answered 401: unauthorized_client',
      ],
      [
        async () => ({ status: 403, body: '{"error":{"code":403,"message":"IAM denied"}}' }),
        'the service-account token endpoint answered 403: IAM denied',
      ],
      [async () => ({ status: 500, body: '' }), 'the service-account token endpoint answered 500'],
      [
        async () => {
          throw new Error('connect ECONNREFUSED 127.0.0.1:9');
        },
        'the service-account token endpoint could not be reached: connect ECONNREFUSED 127.0.0.1:9',
      ],
      [async () => ({ status: 200, body: 'OK' }), 'answered with a body that is not JSON'],
      [async () => ({ status: 200, body: '{"token_type":"Bearer"}' }), 'answered without an access_token'],
    ];
    for (const [post, message] of failures) {
      let assertion = '';
      const recording: TokenPost = (url, form) => {
        assertion = form.assertion ?? '';
        return post(url, form);
      };
      const error = await new ServiceAccountTokens(recording, () => T0).accessToken(account).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      const text = (error as Error).message;
      expect(text).toContain(message);
      expect(text).not.toContain(secretLine);
      expect(text).not.toContain(assertion.split('.')[2]);
    }
  });
});
