import { SignJWT } from 'jose';
import { TokenCache } from '../token-cache.js';

/**
 * Zhipu's token authentication (BigModel v4): the API key `id.secret` never leaves the gateway;
 * each call carries an HS256 JWT signed with the secret, naming the key id (`api_key`) and, in
 * milliseconds, when it was made (`timestamp`) and when it expires (`exp`), with the header
 * `sign_type: SIGN`. A key without a dot is not of that form and is sent as it is (the v4 API
 * also takes a plain API key as the bearer token).
 */

/** How long a token is made to last, and how long before its end a new one is made. */
const TOKEN_LIFETIME_MS = 60 * 60 * 1000;
const REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** The cache holds at most this many keys' tokens (the oldest goes first). */
const SWEEP_AT = 256;

export async function signZhipuToken(key: string, nowMs: number, lifetimeMs = TOKEN_LIFETIME_MS): Promise<string> {
  const dot = key.indexOf('.');
  const id = key.slice(0, dot);
  const secret = key.slice(dot + 1);
  return new SignJWT({ api_key: id, exp: nowMs + lifetimeMs, timestamp: nowMs })
    .setProtectedHeader({ alg: 'HS256', sign_type: 'SIGN' })
    .sign(new TextEncoder().encode(secret));
}

export class ZhipuTokens {
  private readonly cache: TokenCache;

  /** `clock` returns milliseconds (Date.now). */
  constructor(private readonly clock: () => number) {
    this.cache = new TokenCache(clock, SWEEP_AT);
  }

  /** The bearer token for `key`: a cached JWT while it has five minutes left, else a new one. */
  async bearer(key: string): Promise<string> {
    const dot = key.indexOf('.');
    if (dot <= 0 || dot === key.length - 1) return key;
    return this.cache.get(key, async () => {
      const now = this.clock();
      return { token: await signZhipuToken(key, now), refreshAt: now + TOKEN_LIFETIME_MS - REFRESH_MARGIN_MS };
    });
  }
}

/** The process's tokens, shared by every Zhipu channel. */
export const zhipuTokens = new ZhipuTokens(Date.now);
