import { idParam } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Auth } from '../http/auth.js';
import { ok } from '../http/reply.js';
import { parseInput } from '../http/validate.js';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { Notification } from '../platform/notify.js';
import { createUpstreamClient } from '../relay/transport/executor.js';
import type { Services } from '../services.js';
import { refreshAllBalances, refreshBalance } from './balance.js';
import { installChannelCheck } from './check.js';
import { installImageBeacon } from './check-beacon.js';
import { listProviderModels, providerModelsBody } from './models.js';
import { ChannelTester, type ChannelTestProgress, channelTestRunFor, type StartedRun } from './runner.js';

export const testQuery = z.object({
  model: z.string('model must be text').trim().max(100, 'model must be at most 100 characters').optional(),
});

/** The notice sent when an administrator's test of all channels ends (reference §4.5). */
export function channelTestSummary(progress: ChannelTestProgress): Notification {
  const passed = progress.done - progress.failed;
  return {
    title: 'Channel test finished',
    markdown: `Tested **${progress.done}** of ${progress.total} channels: ${passed} passed, ${progress.failed} failed.${
      progress.failed > 0
        ? '\n\nFailed channels were disabled where automatic disabling is on; see the channel list.'
        : ''
    }`,
  };
}

/** Channel tests, balances and upstream model lists (admin API). The periodic test is jobs/channel-test-job.ts. */
export function installChannelTests(
  app: FastifyInstance,
  deps: {
    auth: Auth;
    services: Services;
    logger: Logger;
    /** POLLING_INTERVAL between two channels. */
    pauseMs?: number;
  },
): void {
  const { auth, services, logger } = deps;
  const admin = { onRequest: auth.requireAdmin };
  const upstream = createUpstreamClient();
  const stopping = new AbortController();
  const tester = new ChannelTester({ services, upstream, logger, stop: stopping.signal });
  const balanceDeps = { services, upstream, logger };
  const run = channelTestRunFor(services);
  let current: StartedRun | undefined;

  app.get('/api/channel/test/status', admin, async () => ok(run.progress()));

  // Not enveloped in `data`: the reference answers {success, message, time}. A failed test is a 502.
  app.get('/api/channel/test/:id', admin, async (request, reply) => {
    const { id } = parseInput(idParam, request.params, 'path');
    const { model } = parseInput(testQuery, request.query, 'query');
    const outcome = await tester.testById(id, model);
    reply.code(outcome.success ? 200 : 502);
    return { success: outcome.success, message: outcome.message, time: outcome.time };
  });

  app.get('/api/channel/test', admin, async () => {
    const started = await run.start(tester, { pauseMs: deps.pauseMs ?? 0, signal: stopping.signal });
    if (!started) throw AppError.conflict('a test of all channels is already running');
    current = started;
    void started.finished.then(() => {
      const progress = run.progress();
      logger.info({ tested: progress.done, failed: progress.failed }, 'channel test of all channels finished');
      return services.notifier.notify(channelTestSummary(progress));
    });
    return ok(started.queued, 'testing all channels');
  });

  app.get('/api/channel/update_balance/:id', admin, async (request) => {
    const { id } = parseInput(idParam, request.params, 'path');
    const channel = await services.channels.findForRouting(id);
    if (!channel) throw AppError.notFound(`channel ${id} not found`);
    const balance = await refreshBalance(balanceDeps, channel);
    return { success: true, message: '', balance };
  });

  app.get('/api/channel/update_balance', admin, async () => ok(await refreshAllBalances(balanceDeps), 'updated'));

  // Request bodies are never logged, and upstream messages have the key masked: it holds a key.
  app.post('/api/channel/provider_models_list', admin, async (request) => {
    const body = parseInput(providerModelsBody, request.body);
    return ok(await listProviderModels(upstream, services.channels, body));
  });

  const beacon = installImageBeacon(app, services.cache, () => services.options.get('ServerAddress'));
  installChannelCheck(app, { auth, channels: services.channels, upstream, logger, stop: stopping.signal, beacon });

  app.addHook('onClose', async () => {
    stopping.abort();
    await current?.finished;
    await upstream.close();
  });
}
