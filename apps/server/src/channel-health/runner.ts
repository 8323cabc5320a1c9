import { setTimeout as sleep } from 'node:timers/promises';
import { ChannelStatus } from '@one-hub/contracts';
import type { RoutingChannel } from '../api/channel/service.js';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { UpstreamClient } from '../relay/transport/executor.js';
import type { Services } from '../services.js';
import { disableKeywords, type ProbeResult, probeChannel } from './probe.js';

/**
 * Channel tests and what follows from them (reference §4.4, §4.5): the response time is recorded;
 * an enabled channel whose test fails with a disabling error, or answers slower than
 * ChannelDisableThreshold, is disabled automatically (status 3) when AutomaticDisableChannelEnabled;
 * an automatically disabled channel whose test passes in a test of all channels is enabled again
 * when AutomaticEnableChannelEnabled. Channels disabled by an administrator (status 2) never change.
 */
export interface ChannelTestDeps {
  services: Pick<Services, 'channels' | 'options' | 'database'>;
  upstream: UpstreamClient;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Aborts probes in flight when the server or the job stops. */
  stop?: AbortSignal;
}

export interface ChannelTestOutcome {
  /** The upstream answered 2xx. */
  success: boolean;
  message: string;
  /** Seconds from sending to the end of the answer. */
  time: number;
  /** Answered 2xx within the threshold: what auto-enable needs. */
  passed: boolean;
}

export interface TestOptions {
  /** Part of the test of all channels (admin route or periodic job), the only re-enabler. */
  loop?: boolean;
}

export class ChannelTester {
  constructor(readonly deps: ChannelTestDeps) {}

  /**
   * Tests one stored channel whatever its status, with `model` or else its test_model. Only the
   * test of all channels (`loop`) may enable a channel again: an administrator's test of one
   * channel reports and may disable, as in the reference.
   */
  async testById(id: number, model?: string, options: TestOptions = {}): Promise<ChannelTestOutcome> {
    const channel = await this.deps.services.channels.findForRouting(id);
    if (!channel) throw AppError.notFound(`channel ${id} not found`);
    return this.test(channel, model, options);
  }

  async test(channel: RoutingChannel, requestedModel?: string, how: TestOptions = {}): Promise<ChannelTestOutcome> {
    const model = requestedModel?.trim() || channel.test_model.trim();
    if (!model) throw AppError.badRequest("model: pass ?model= or set the channel's test_model");
    const { channels, options } = this.deps.services;
    const keywords = disableKeywords(options.get('DisableChannelKeywords'));
    const result = await probeChannel(this.deps.upstream, channel, model, keywords, this.deps.stop);
    // A probe cut short by a shutdown says nothing about the channel.
    if (this.deps.stop?.aborted) throw new AppError('unavailable', 'the server is stopping');
    await channels.recordTest(channel.id, result.elapsedMs);

    const thresholdSeconds = options.getNumber('ChannelDisableThreshold');
    const seconds = Math.round(result.elapsedMs) / 1000;
    const tooSlow = result.success && thresholdSeconds > 0 && seconds > thresholdSeconds;
    await this.applyStatusRules(channel, result, tooSlow, how.loop ?? false);
    return {
      success: result.success,
      message: tooSlow
        ? `answered in ${seconds} s, slower than the ChannelDisableThreshold of ${thresholdSeconds} s`
        : result.message,
      time: seconds,
      passed: result.success && !tooSlow,
    };
  }

  private async applyStatusRules(
    channel: RoutingChannel,
    result: ProbeResult,
    tooSlow: boolean,
    loop: boolean,
  ): Promise<void> {
    const { channels, options } = this.deps.services;
    const { logger } = this.deps;
    if (channel.status === ChannelStatus.enabled) {
      const reason = tooSlow ? 'the channel test was too slow' : result.failure?.disable ? result.message : '';
      if (!reason || !options.getBoolean('AutomaticDisableChannelEnabled')) return;
      logger.warn({ channel: channel.id, reason }, 'disabling channel after a failed test');
      await channels.setStatus(channel.id, ChannelStatus.autoDisabled, reason);
      return;
    }
    const passed = result.success && !tooSlow;
    if (
      loop &&
      channel.status === ChannelStatus.autoDisabled &&
      passed &&
      options.getBoolean('AutomaticEnableChannelEnabled')
    ) {
      logger.info({ channel: channel.id }, 'enabling channel again after a successful test');
      await channels.setStatus(channel.id, ChannelStatus.enabled, 'the channel test succeeded');
    }
  }
}

export interface ChannelTestProgress {
  running: boolean;
  done: number;
  total: number;
  failed: number;
}

export interface StartedRun {
  queued: number;
  /** Settles when the run ends; never rejects. */
  finished: Promise<void>;
}

/** One bulk run at a time per process, shared by the admin route and the periodic job. */
export class ChannelTestRun {
  private state: ChannelTestProgress = { running: false, done: 0, total: 0, failed: 0 };

  progress(): ChannelTestProgress {
    return { ...this.state };
  }

  /** Starts testing every testable channel, one at a time; undefined when a run is going already. */
  async start(
    tester: ChannelTester,
    options: { pauseMs: number; signal?: AbortSignal },
  ): Promise<StartedRun | undefined> {
    if (this.state.running) return undefined;
    // Claimed before the first await, so two callers cannot both start.
    this.state = { running: true, done: 0, total: 0, failed: 0 };
    let ids: number[];
    try {
      ids = await tester.deps.services.channels.listTestableIds();
    } catch (error) {
      this.state.running = false;
      throw error;
    }
    this.state.total = ids.length;
    const finished = this.testEach(tester, ids, options).finally(() => {
      this.state.running = false;
    });
    return { queued: ids.length, finished };
  }

  private async testEach(tester: ChannelTester, ids: number[], options: { pauseMs: number; signal?: AbortSignal }) {
    const { logger } = tester.deps;
    for (const [index, id] of ids.entries()) {
      if (options.signal?.aborted) return;
      try {
        const outcome = await tester.testById(id, undefined, { loop: true });
        if (!outcome.passed) this.state.failed += 1;
      } catch (error) {
        // Channels deleted meanwhile or whose model kind cannot be tested are skipped, not failed.
        if (!(error instanceof AppError && error.status < 500)) {
          this.state.failed += 1;
          logger.error({ err: error, channel: id }, 'channel test failed to run');
        }
      }
      this.state.done += 1;
      if (options.pauseMs > 0 && index < ids.length - 1) {
        await sleep(options.pauseMs, undefined, { signal: options.signal }).catch(() => undefined);
      }
    }
  }
}

const runs = new WeakMap<object, ChannelTestRun>();

/** The bulk-run state of one server (keyed by its services, so test apps in one process stay apart). */
export function channelTestRunFor(services: object): ChannelTestRun {
  let run = runs.get(services);
  if (!run) {
    run = new ChannelTestRun();
    runs.set(services, run);
  }
  return run;
}
