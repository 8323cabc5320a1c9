import cluster from 'node:cluster';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../platform/errors.js';
import type { MetricsAuthFailures } from './auth-failures.js';
import { scrapeCluster } from './cluster.js';
import type { Metrics } from './relay-metrics.js';

export interface MetricsRouteDeps {
  /** METRICS_USER and METRICS_PASSWORD; undefined: metrics are off and the route answers 404. */
  credentials: { user: string; password: string } | undefined;
  metrics: Metrics | undefined;
  /** Several workers: the scrape gathers all of them through the cluster's primary. */
  clustered: boolean;
  /** Failed Basic-auth attempts per address: past the limit every attempt answers 429. */
  failures: MetricsAuthFailures;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compared as digests, so neither the length nor a common prefix of the secret shows in the timing. */
function sameSecret(given: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(given), expected);
}

/** The user and password of an `Authorization: Basic …` header, or undefined. */
function basicCredentials(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** GET /api/metrics: Prometheus text format behind HTTP Basic auth. */
export function metricsRoutes(app: FastifyInstance, deps: MetricsRouteDeps): void {
  const { credentials, metrics } = deps;
  const expected = credentials ? { user: digest(credentials.user), password: digest(credentials.password) } : undefined;
  app.get('/api/metrics', async (request, reply) => {
    if (!expected || !metrics) {
      throw AppError.notFound('metrics are off: set METRICS_USER and METRICS_PASSWORD to turn them on');
    }
    const given = basicCredentials(request.headers.authorization);
    // Both compared every time: a wrong user takes as long as a wrong password.
    const userMatches = sameSecret(given?.user ?? '', expected.user);
    const passwordMatches = sameSecret(given?.password ?? '', expected.password);
    const credentialsMatch = given !== undefined && userMatches && passwordMatches;
    await deps.failures.check(request.ip, credentialsMatch);
    if (!credentialsMatch) {
      reply.header('www-authenticate', 'Basic realm="One Hub metrics", charset="UTF-8"');
      throw AppError.unauthorized(
        given ? 'wrong metrics user or password' : 'metrics need HTTP Basic auth (METRICS_USER)',
      );
    }
    let text: string;
    try {
      text = deps.clustered && cluster.isWorker ? await scrapeCluster() : await metrics.registry.metrics();
    } catch (error) {
      throw new AppError('unavailable', error instanceof Error ? error.message : String(error), { status: 503 });
    }
    reply.header('content-type', metrics.registry.contentType);
    reply.header('cache-control', 'no-store');
    return text;
  });
}
