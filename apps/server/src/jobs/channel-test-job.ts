import { type ChannelTestDeps, ChannelTester, channelTestRunFor } from '../channel-health/runner.js';
import type { Logger } from '../platform/logger.js';
import { createUpstreamClient } from '../relay/transport/executor.js';
import { repeatEvery } from './repeat.js';

/**
 * The periodic test of all channels (`channel.test_frequency`): every `intervalMinutes`, each
 * enabled or automatically disabled channel with a test model is tested once, with the same
 * auto-disable and auto-enable rules as the admin route. Only one node should run it.
 */
export interface ChannelTestJobOptions {
  services: ChannelTestDeps['services'];
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** 0 (or less) turns the job off. Fractions are allowed. */
  intervalMinutes: number;
  /** Pause between two channels (`polling_interval`), so upstreams are not hit in a burst. */
  pauseMs?: number;
}

export interface ChannelTestJob {
  /** Runs one pass now (skipped when a run is going already) and resolves when it ends. */
  runNow(): Promise<void>;
  /** Cancels the timer, aborts the pass in progress, waits for it and releases connections. */
  stop(): Promise<void>;
}

export function startChannelTestJob(options: ChannelTestJobOptions): ChannelTestJob {
  const intervalMs = options.intervalMinutes * 60_000;
  if (!(intervalMs > 0)) return { runNow: async () => {}, stop: async () => {} };

  const { services, logger } = options;
  const upstream = createUpstreamClient();
  const stopping = new AbortController();
  const tester = new ChannelTester({ services, upstream, logger, stop: stopping.signal });
  const run = channelTestRunFor(services);

  const runNow = async (): Promise<void> => {
    const started = await run.start(tester, { pauseMs: options.pauseMs ?? 0, signal: stopping.signal });
    if (!started) {
      logger.info('channel test skipped: a test of all channels is already running');
      return;
    }
    await started.finished;
    const progress = run.progress();
    logger.info({ tested: progress.done, failed: progress.failed }, 'periodic channel test finished');
  };

  const repeating = repeatEvery(intervalMs, runNow, (error) =>
    logger.error({ err: error }, 'periodic channel test failed'),
  );

  return {
    runNow,
    async stop() {
      stopping.abort();
      await repeating.cancel();
      await upstream.close();
    },
  };
}
