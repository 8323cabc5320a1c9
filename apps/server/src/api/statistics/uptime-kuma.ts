import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import { AppError } from '../../platform/errors.js';
import { callJson } from '../account/oauth/upstream.js';
import type { OptionService } from '../option/service.js';

/**
 * The dashboard's service status (UptimeEnabled): the public JSON of an Uptime Kuma status page,
 * fetched by the server (UptimeDomain, UptimePageName) so browsers need not reach it, and kept for
 * CACHE_MS so a dashboard full of users makes one call a minute. Answered as Uptime Kuma gives it,
 * without the envelope, as One Hub's console expects (`publicGroupList`; `heartbeatList`, `uptimeList`).
 */
const CACHE_MS = 60_000;
const SLUG = /^[\w-]{1,100}$/;

type Kind = 'page' | 'heartbeat';

export function uptimeKumaRoutes(
  app: FastifyInstance,
  deps: { auth: Auth; options: OptionService; now?: () => number },
) {
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { at: number; body: unknown }>();
  const inFlight = new Map<string, Promise<unknown>>();

  const source = (kind: Kind): string => {
    if (!deps.options.getBoolean('UptimeEnabled')) throw AppError.notFound('the service status page is not enabled');
    const domain = deps.options.get('UptimeDomain').trim().replace(/\/+$/, '');
    const slug = deps.options.get('UptimePageName').trim();
    if (!/^https?:\/\//.test(domain) || !SLUG.test(slug)) {
      throw AppError.notFound('the service status page is not configured (UptimeDomain, UptimePageName)');
    }
    return kind === 'page' ? `${domain}/api/status-page/${slug}` : `${domain}/api/status-page/heartbeat/${slug}`;
  };

  const fetchCached = async (url: string): Promise<unknown> => {
    const kept = cache.get(url);
    if (kept && now() - kept.at < CACHE_MS) return kept.body;
    let pending = inFlight.get(url);
    if (!pending) {
      pending = callJson(url, {}, 'Uptime Kuma')
        .then(({ status, body }) => {
          if (status !== 200) throw new AppError('upstream_error', `Uptime Kuma answered HTTP ${status}`);
          cache.set(url, { at: now(), body });
          return body;
        })
        .finally(() => inFlight.delete(url));
      inFlight.set(url, pending);
    }
    return pending;
  };

  const user = { onRequest: deps.auth.requireUser };
  app.get('/api/user/dashboard/uptimekuma/status-page', user, () => fetchCached(source('page')));
  app.get('/api/user/dashboard/uptimekuma/status-page/heartbeat', user, () => fetchCached(source('heartbeat')));
}
