import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Cache } from '../platform/cache/index.js';
import { sha256Hex } from '../platform/crypto.js';
import { AppError } from '../platform/errors.js';
import { createMemoryAddressCounter, createRedisAddressCounter } from './address-counter.js';
import { pageLanguageOf, RATE_LIMIT_PAGE_POLICY, rateLimitPage } from './rate-limit-page.js';
import type { AddressLimit } from './relay-front.js';

/** Route-level `config` that turns on the limiter for sign-in, registration and password routes. */
export interface RouteRateLimit {
  rateLimit: { max: number; timeWindow: number };
}

/**
 * Registers the limiter without a global limit; routes opt in with the returned config. With Redis
 * the counters are shared by every node, otherwise they live in this process.
 */
export async function installRateLimit(
  app: FastifyInstance,
  settings: { max: number; windowSeconds: number; redis?: Redis | undefined; namespace: string },
): Promise<RouteRateLimit> {
  await app.register(rateLimit, {
    global: false,
    ...(settings.redis ? { redis: settings.redis, nameSpace: `${settings.namespace}ratelimit:` } : {}),
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `too many attempts; try again in ${Math.ceil(context.ttl / 1000)} seconds`),
  });
  // 0 turns the limit off (for example behind a proxy that already limits sign-ins).
  const max = settings.max > 0 ? settings.max : Number.MAX_SAFE_INTEGER;
  return { rateLimit: { max, timeWindow: settings.windowSeconds * 1000 } };
}

/** Paths outside the per-address API limit, as in the reference: scrapers and the Telegram webhook. */
const UNLIMITED_API_PATHS = [/^\/api\/metrics(\/|$)/, /^\/api\/telegram\//];

/** Where the per-address counters live, and what the console limit leaves out. */
export interface GlobalRateLimitStore {
  /** Shares the counts between nodes; this process keeps them otherwise. */
  redis?: Redis | undefined;
  /** Prefix of this installation's Redis keys (`onehub:<instance id>:`). */
  namespace: string;
  /**
   * The console's content-hashed files (`<base path>assets/…`, console.ts): never counted. A cold
   * load of the console fetches a few dozen of them, and a browser keeps them for good once fetched.
   */
  uncountedPaths?: ReadonlySet<string>;
}

/** A navigation by a browser, which gets a page it can show rather than the JSON error. */
function wantsPage(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    typeof accept === 'string' &&
    accept.includes('text/html')
  );
}

/**
 * The reference's global limits per client address: `api` requests to `/api/*` and `web` requests
 * for the console (pages and their files, but not its content-hashed files) per window, each counted
 * on its own, shared by every node through Redis when configured (keys
 * `<namespace>ratelimit:api:<address>` and `…:web:<address>`). 0 turns one off. A page request over
 * the limit gets a small page in the visitor's language, anything else the JSON error. Sign-in routes
 * keep their own stricter limit on top. The relay's limit is per user (its group's RPM); its routes
 * that authenticate nobody count against the `api` limit of their address too, through the returned
 * check (relay-front.ts).
 */
export function installGlobalRateLimits(
  app: FastifyInstance,
  settings: { api: number; web: number; windowSeconds: number },
  store: GlobalRateLimitStore,
): AddressLimit | undefined {
  const counter = store.redis
    ? createRedisAddressCounter(store.redis, `${store.namespace}ratelimit:`)
    : createMemoryAddressCounter();
  const windowMs = settings.windowSeconds * 1000;
  /** Counts a request of `address`; resolves with the seconds to wait when it is over `max`. */
  const limiter = (max: number, name: string) =>
    max > 0
      ? async (address: string): Promise<number | undefined> => {
          try {
            const { count, resetInMs } = await counter.count(`${name}:${address}`, windowMs);
            return count > max ? Math.max(1, Math.ceil(resetInMs / 1000)) : undefined;
          } catch (error) {
            // Redis out of reach: the limit stands aside rather than refuse every page and API call.
            app.log.warn({ err: error }, 'per-address limit unavailable; request let through');
            return undefined;
          }
        }
      : undefined;
  const api = limiter(settings.api, 'api');
  const web = limiter(settings.web, 'web');
  if (!api && !web) return undefined;
  const uncounted = store.uncountedPaths ?? new Set<string>();
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const isApi = path === '/api' || path.startsWith('/api/');
    const uncountedHere = isApi ? UNLIMITED_API_PATHS.some((pattern) => pattern.test(path)) : uncounted.has(path);
    const check = isApi ? api : web;
    if (!check || uncountedHere) return;
    const waitSeconds = await check(request.ip);
    if (waitSeconds === undefined) return;
    reply.header('retry-after', String(waitSeconds));
    if (!isApi && wantsPage(request)) {
      return reply
        .code(429)
        .header('cache-control', 'no-store')
        .header('content-security-policy', RATE_LIMIT_PAGE_POLICY)
        .type('text/html; charset=utf-8')
        .send(rateLimitPage(pageLanguageOf(request.headers['accept-language']), request.ip, waitSeconds));
    }
    throw new AppError('rate_limited', `too many requests from this address; try again in ${waitSeconds} seconds`);
  });
  return api;
}

/** Counts password sign-ins per account name, whatever address they come from. */
export interface AccountSignInLimit {
  /**
   * Counts an attempt for `login` (a username or an e-mail address) and refuses it with a 429 once
   * the window holds more than the limit. Called before the password is checked, so a locked name
   * answers the same whether or not such a user exists, and the right password does not help.
   */
  attempt(login: string): Promise<void>;
  /** A correct password: the count for this name starts again. */
  succeeded(login: string): Promise<void>;
}

/**
 * Per-account limit on password sign-ins, kept in the shared cache (Redis when configured, so every
 * node counts together; memory otherwise). The window is fixed and starts at the first attempt;
 * `max` 0 turns it off.
 */
export function createAccountSignInLimit(
  cache: Cache,
  settings: { max: number; windowSeconds: number },
): AccountSignInLimit {
  // Hashed: the key holds neither the name nor the address, and stays short.
  const key = (login: string) => `signin-attempts:${sha256Hex(login.trim().toLowerCase())}`;
  const minutes = Math.ceil(settings.windowSeconds / 60);
  return {
    async attempt(login) {
      if (settings.max <= 0) return;
      const attempts = await cache.increment(key(login), settings.windowSeconds);
      if (attempts > settings.max) {
        throw new AppError(
          'rate_limited',
          `too many failed sign-in attempts for this account; it is locked for up to ${minutes} minutes from the first failure, try again later`,
        );
      }
    },
    async succeeded(login) {
      if (settings.max > 0) await cache.delete(key(login));
    },
  };
}
