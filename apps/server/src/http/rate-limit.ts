import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../platform/errors.js';

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
