import { isRecord } from './values.js';

/**
 * Short-lived upstream credentials (OAuth access tokens, signed JWTs) kept per id until their
 * refresh time. Concurrent callers for one id share the fetch in flight; a failed fetch is not
 * remembered. Entries past their refresh time are dropped whenever a new one is stored; with
 * `maxEntries`, the oldest entry also goes once the cache is full (Map keeps insertion order).
 */

export interface CachedToken {
  token: string;
  /** Clock milliseconds after which a new token is fetched. */
  refreshAt: number;
}

export class TokenCache {
  private readonly cache = new Map<string, CachedToken>();
  private readonly inFlight = new Map<string, Promise<CachedToken>>();

  /** `clock` returns milliseconds (Date.now). */
  constructor(
    private readonly clock: () => number,
    private readonly maxEntries = Number.POSITIVE_INFINITY,
  ) {}

  /** The token cached for `id` while it is before its refresh time, else the one `fetch` makes. */
  async get(id: string, fetch: () => Promise<CachedToken>): Promise<string> {
    const cached = this.cache.get(id);
    if (cached && this.clock() < cached.refreshAt) return cached.token;
    let pending = this.inFlight.get(id);
    if (!pending) {
      pending = fetch().finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, pending);
    }
    const fresh = await pending;
    this.sweep();
    this.cache.set(id, fresh);
    return fresh.token;
  }

  /** Forgets `id`'s token (e.g. after the upstream refused it), so the next call fetches one. */
  forget(id: string): void {
    this.cache.delete(id);
  }

  /** Drops tokens past their refresh time, so ids no longer used do not stay forever. */
  private sweep(): void {
    const now = this.clock();
    for (const [id, entry] of this.cache) if (entry.refreshAt <= now) this.cache.delete(id);
    if (this.cache.size < this.maxEntries) return;
    const oldest = this.cache.keys().next();
    if (!oldest.done) this.cache.delete(oldest.value);
  }
}

/** POSTs `form` as `application/x-www-form-urlencoded` to `url`; the answer's status and text. */
export type TokenPost = (url: string, form: Record<string, string>) => Promise<{ status: number; body: string }>;

/** A token is replaced this long before the endpoint says it expires. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** When the token endpoint gives no `expires_in`, one hour is assumed. */
const DEFAULT_EXPIRES_IN = 3600;

export interface TokenEndpoint {
  /** How errors name the endpoint, e.g. "Baidu's token endpoint". */
  name: string;
  /** The message for an answer that is not 2xx. */
  refusal(status: number, body: string): string;
  /** The message for a 2xx JSON answer without an `access_token`. */
  noToken(status: number, body: string): string;
}

/**
 * One OAuth token exchange: POSTs `form` to `url` and reads `{access_token, expires_in}`. The
 * token is refreshed five minutes before it expires, counted from `startedAt` (the answer may take
 * a while to come). Errors carry the endpoint's words, never the request.
 */
export async function exchangeToken(
  post: TokenPost,
  url: string,
  form: Record<string, string>,
  endpoint: TokenEndpoint,
  startedAt: number,
): Promise<CachedToken> {
  let answer: { status: number; body: string };
  try {
    answer = await post(url, form);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${endpoint.name} could not be reached: ${reason}`);
  }
  if (answer.status < 200 || answer.status >= 300) throw new Error(endpoint.refusal(answer.status, answer.body));
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    throw new Error(`${endpoint.name} answered with a body that is not JSON`);
  }
  const record = isRecord(parsed) ? parsed : {};
  const token = record.access_token;
  if (typeof token !== 'string' || !token) throw new Error(endpoint.noToken(answer.status, answer.body));
  const expiresIn =
    typeof record.expires_in === 'number' && record.expires_in > 0 ? record.expires_in : DEFAULT_EXPIRES_IN;
  return { token, refreshAt: startedAt + expiresIn * 1000 - REFRESH_MARGIN_MS };
}
