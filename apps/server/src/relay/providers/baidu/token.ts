import { createHash } from 'node:crypto';
import { type CachedToken, exchangeToken, TokenCache, type TokenPost } from '../token-cache.js';
import { isRecord } from '../values.js';

/**
 * Baidu's application credentials (`APIKey|SecretKey`, the reference's key format) are exchanged
 * for an access token at `{host}/oauth/2.0/token` (grant `client_credentials`, the credentials in
 * the query string). A token lasts `expires_in` seconds (30 days); it is cached per credential
 * and token host until five minutes before that, and concurrent calls share one exchange.
 */

export interface BaiduCredentials {
  apiKey: string;
  secretKey: string;
}

/** The application credentials of a key `APIKey|SecretKey`; undefined for any other key. */
export function baiduCredentials(key: string): BaiduCredentials | undefined {
  const parts = key.split('|').map((part) => part.trim());
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { apiKey: parts[0], secretKey: parts[1] };
}

/** The token endpoint's error (`{error, error_description}`), for the administrator. */
function refusal(status: number, body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (isRecord(parsed) && typeof parsed.error_description === 'string') {
      return `Baidu refused the APIKey|SecretKey (HTTP ${status}): ${parsed.error_description}`;
    }
  } catch {
    // Not JSON: the status alone.
  }
  return `Baidu's token endpoint answered HTTP ${status}`;
}

export class BaiduTokens {
  private readonly cache: TokenCache;

  /** `clock` returns milliseconds (Date.now). */
  constructor(
    private readonly post: TokenPost,
    private readonly clock: () => number,
  ) {
    this.cache = new TokenCache(clock);
  }

  /** An access token for the credentials, from `host` (no trailing slash). */
  async accessToken(host: string, credentials: BaiduCredentials): Promise<string> {
    const secretHash = createHash('sha256').update(credentials.secretKey).digest('hex');
    const id = `${host}\n${credentials.apiKey}\n${secretHash}`;
    return this.cache.get(id, () => this.exchange(host, credentials));
  }

  private async exchange(host: string, credentials: BaiduCredentials): Promise<CachedToken> {
    const startedAt = this.clock();
    const query = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: credentials.apiKey,
      client_secret: credentials.secretKey,
    });
    return exchangeToken(
      this.post,
      `${host}/oauth/2.0/token?${query}`,
      {},
      { name: "Baidu's token endpoint", refusal, noToken: refusal },
      startedAt,
    );
  }
}
