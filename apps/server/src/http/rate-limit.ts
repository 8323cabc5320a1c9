import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Cache } from '../platform/cache/index.js';
import { sha256Hex } from '../platform/crypto.js';
import { AppError } from '../platform/errors.js';
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

/**
 * The reference's global limits per client address: `api` requests to `/api/*` and `web` requests
 * for the console (pages and their files) per window, each counted on its own, shared by every node
 * through Redis when configured. 0 turns one off. Sign-in routes keep their own stricter limit on
 * top. The relay's limit is per user (its group's RPM); its routes that authenticate nobody count
 * against the `api` limit of their address too, through the returned check (relay-front.ts).
 */
export function installGlobalRateLimits(
  app: FastifyInstance,
  settings: { api: number; web: number; windowSeconds: number },
): AddressLimit | undefined {
  const limiter = (max: number, prefix: string) =>
    max > 0
      ? app.createRateLimit({
          max,
          timeWindow: settings.windowSeconds * 1000,
          keyGenerator: (request) => `${prefix}${request.ip}`,
        })
      : undefined;
  const api = limiter(settings.api, 'GA');
  const web = limiter(settings.web, 'GW');
  if (!api && !web) return undefined;
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const isApi = path === '/api' || path.startsWith('/api/');
    const check = isApi ? (UNLIMITED_API_PATHS.some((pattern) => pattern.test(path)) ? undefined : api) : web;
    if (!check) return;
    const result = await check(request);
    if (result.isAllowed || !result.isExceeded) return;
    reply.header('retry-after', String(result.ttlInSeconds));
    throw new AppError(
      'rate_limited',
      `too many requests from this address; try again in ${result.ttlInSeconds} seconds`,
    );
  });
  if (!api) return undefined;
  return async (address) => {
    // The limiter reads only these of a request (the address and a route's own group).
    const result = await api({ ip: address, routeOptions: { config: {} } } as unknown as FastifyRequest);
    return result.isAllowed || !result.isExceeded ? undefined : result.ttlInSeconds;
  };
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
