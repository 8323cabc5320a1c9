import type { ChannelHealthHistory, ChannelHealthState, ChannelHealthView, FailureClass } from '@one-hub/contracts';
import { LatencyRing, MinuteHistory, OutcomeWindow } from './health-window.js';

/**
 * Channel health (issue 34): per channel, and per channel and model pair, the outcomes of recent
 * tries over a sliding window, and a state the router reads: healthy; degraded (its weight scaled
 * down) once the failure rate reaches the degraded rate; open (no traffic) once it reaches the open
 * rate; half-open after the cool-off (a share of requests let through as trials); healthy again
 * after TRIALS_TO_CLOSE trial successes, or open again for another cool-off after a trial failure.
 * A pair's state is used once the pair has enough samples (or is open), else the channel's.
 * 429s do not count toward the rate: they rest the pair through the cooldowns already, and a
 * channel that is merely busy must not be shut for a whole cool-off. Opening and closing are
 * announced (`onChange`) so other processes follow (shared-health.ts); each counts its own outcomes.
 */

export interface HealthSettings {
  enabled: boolean;
  windowSeconds: number;
  minSamples: number;
  /** Failure rates, in percent, at which a channel is degraded, and opened. */
  degradedPercent: number;
  openPercent: number;
  coolOffSeconds: number;
  /** Share of the requests that meet a half-open channel let through as trials, in percent. */
  trialPercent: number;
  /** What a degraded channel's weight is multiplied by. */
  degradedWeight: number;
}

export const DEFAULT_HEALTH_SETTINGS: HealthSettings = Object.freeze({
  enabled: true,
  windowSeconds: 60,
  minSamples: 10,
  degradedPercent: 20,
  openPercent: 50,
  coolOffSeconds: 30,
  trialPercent: 10,
  degradedWeight: 0.25,
});

/** Trial successes in a row that close a half-open channel. */
export const TRIALS_TO_CLOSE = 3;
/** State changes kept per channel for the console. */
const CHANGES_KEPT = 20;
/** Pairs that may pile up before the quiet ones are swept out. */
const SWEEP_SIZE = 1000;
/** Classes that count as the channel's failure; a 429 is left to the cooldowns. */
const COUNTED: ReadonlySet<FailureClass> = new Set(['5xx', 'timeout', 'connection', 'malformed', 'account']);

/** An opening (until when) or a closing, announced to other processes; `model` '' is the whole channel. */
export interface HealthChange {
  channelId: number;
  model: string;
  state: 'open' | 'closed';
  openedAt: number;
  until: number;
}

interface Entry {
  window: OutcomeWindow;
  status: ChannelHealthState;
  /** Samples in the window at the last count. */
  samples: number;
  openedAt: number;
  openUntil: number;
  trialWins: number;
  lastAt: number;
  /** A channel's recent state changes, for the console; pairs keep none. */
  changes?: Array<{ state: ChannelHealthState; at: number }>;
}

interface ChannelEntry extends Entry {
  firstByte: LatencyRing;
  duration: LatencyRing;
  lastError?: { class: FailureClass; message: string; at: number };
  /** The last hour by minute, for the console. */
  history: MinuteHistory;
  changes: Array<{ state: ChannelHealthState; at: number }>;
}

const newEntry = (): Entry => ({
  window: new OutcomeWindow(),
  status: 'healthy',
  samples: 0,
  openedAt: 0,
  openUntil: 0,
  trialWins: 0,
  lastAt: 0,
});

export class ChannelHealth {
  private readonly channels = new Map<number, ChannelEntry>();
  private readonly pairs = new Map<string, Entry>();
  /** Entries not healthy: while none is, the router asks nothing else. */
  private unhealthy = 0;
  private read: () => HealthSettings = () => DEFAULT_HEALTH_SETTINGS;
  private changed: ((change: HealthChange) => void) | undefined;

  /** `clock` is replaceable so tests can move time without waiting. */
  constructor(public clock: () => number = () => Date.now()) {}

  useSettings(read: () => HealthSettings): void {
    this.read = read;
  }

  settings(): HealthSettings {
    return this.read();
  }

  onChange(listener: (change: HealthChange) => void): void {
    this.changed = listener;
  }

  /** Off (ChannelHealthEnabled): nothing is counted, so the request path does what it did before health. */
  recordSuccess(channelId: number, model: string, firstByteMs: number, durationMs: number): void {
    const settings = this.read();
    if (!settings.enabled) return;
    const channel = this.channelEntry(channelId);
    channel.firstByte.add(firstByteMs);
    channel.duration.add(durationMs);
    const now = this.clock();
    channel.history.success(now, durationMs);
    this.count(channel, channelId, model, true, settings, now);
  }

  /** A failed try; `message` is what the client was told (already masked), kept for administrators. */
  recordFailure(channelId: number, model: string, failureClass: FailureClass, message: string): void {
    const settings = this.read();
    if (!settings.enabled) return;
    const channel = this.channelEntry(channelId);
    const now = this.clock();
    channel.lastError = { class: failureClass, message: message.slice(0, 300), at: now };
    channel.history.failure(now, failureClass === 'rate_limit');
    if (COUNTED.has(failureClass)) this.count(channel, channelId, model, false, settings, now);
  }

  /** The state the router goes by for this channel and model. No work at all while every entry is healthy. */
  status(channelId: number, model: string): ChannelHealthState {
    if (this.unhealthy === 0) return 'healthy';
    const entry = this.entryFor(channelId, model);
    return entry ? this.current(entry, this.clock()) : 'healthy';
  }

  /** When the entry the router goes by was opened (0 if never): the least recently opened is tried first when all are. */
  openedAt(channelId: number, model: string): number {
    return this.entryFor(channelId, model)?.openedAt ?? 0;
  }

  /** Another process opened or closed a channel or pair: follow it here. */
  apply(change: HealthChange): void {
    const entry =
      change.model === '' ? this.channelEntry(change.channelId) : this.pairEntry(change.channelId, change.model);
    if (change.state === 'open') {
      if (change.until <= this.clock()) return;
      entry.openedAt = change.openedAt;
      entry.openUntil = Math.max(entry.openUntil, change.until);
      this.setStatus(entry, 'open');
    } else if (entry.status === 'open' || entry.status === 'half_open') {
      this.close(entry);
    }
  }

  /** Forgets channels that are no longer routed (deleted or disabled). */
  retain(channelIds: ReadonlySet<number>): void {
    for (const [id, entry] of this.channels) {
      if (!channelIds.has(id)) {
        this.setStatus(entry, 'healthy');
        this.channels.delete(id);
      }
    }
    for (const [pair, entry] of this.pairs) {
      if (!channelIds.has(Number(pair.slice(0, pair.indexOf(':'))))) {
        this.setStatus(entry, 'healthy');
        this.pairs.delete(pair);
      }
    }
  }

  /** Each channel's health on this process, for the management API. */
  view(channelIds: readonly number[]): ChannelHealthView[] {
    const now = this.clock();
    const windowMs = this.read().windowSeconds * 1000;
    return channelIds.map((id) => {
      const entry = this.channels.get(id);
      const totals = entry?.window.totals(now, windowMs) ?? { successes: 0, failures: 0 };
      const samples = totals.successes + totals.failures;
      const state = entry ? this.current(entry, now) : 'healthy';
      return {
        channel_id: id,
        state,
        samples,
        success_rate: samples > 0 ? totals.successes / samples : null,
        p50_latency_ms: entry?.duration.median() ?? null,
        p50_first_byte_ms: entry?.firstByte.median() ?? null,
        open_until: state === 'open' && entry ? entry.openUntil : null,
        last_error: entry?.lastError ?? null,
      };
    });
  }

  /** A channel's last hour by minute and its recent state changes on this process. */
  history(channelId: number): ChannelHealthHistory {
    const entry = this.channels.get(channelId);
    const now = this.clock();
    // Reading the state first lets an ended cool-off show as the half-open it now is.
    if (entry) this.current(entry, now);
    return {
      channel_id: channelId,
      minutes: (entry?.history ?? new MinuteHistory()).minutes(now),
      changes: entry ? [...entry.changes] : [],
    };
  }

  /** Median time to first byte (streams) or duration of a channel's recent successes, for the latency strategy. */
  latency(channelId: number, stream: boolean): number | undefined {
    const entry = this.channels.get(channelId);
    return (stream ? entry?.firstByte : entry?.duration)?.median();
  }

  /** One outcome, on the channel's entry and on its pair's, with the settings read once per request. */
  private count(
    channel: ChannelEntry,
    channelId: number,
    model: string,
    success: boolean,
    settings: HealthSettings,
    now: number,
  ): void {
    this.countOn(channel, channelId, '', success, settings, now);
    this.countOn(this.pairEntry(channelId, model), channelId, model, success, settings, now);
  }

  private countOn(
    entry: Entry,
    channelId: number,
    model: string,
    success: boolean,
    settings: HealthSettings,
    now: number,
  ): void {
    entry.window.add(now, settings.windowSeconds * 1000, success);
    entry.lastAt = now;
    this.evaluate(entry, channelId, model, success, settings, now);
  }

  private evaluate(
    entry: Entry,
    channelId: number,
    model: string,
    success: boolean,
    settings: HealthSettings,
    now: number,
  ): void {
    const status = this.current(entry, now);
    if (status === 'open') return;
    if (status === 'half_open') {
      if (!success) {
        this.open(entry, { channelId, model }, settings, now);
        return;
      }
      entry.trialWins += 1;
      if (entry.trialWins >= TRIALS_TO_CLOSE) {
        this.close(entry);
        this.changed?.({ channelId, model, state: 'closed', openedAt: entry.openedAt, until: now });
      }
      return;
    }
    const { successes, failures } = entry.window.totals(now, settings.windowSeconds * 1000);
    entry.samples = successes + failures;
    const percent = entry.samples > 0 ? (failures / entry.samples) * 100 : 0;
    if (entry.samples < settings.minSamples) this.setStatus(entry, 'healthy');
    else if (percent >= settings.openPercent) this.open(entry, { channelId, model }, settings, now);
    else this.setStatus(entry, percent >= settings.degradedPercent ? 'degraded' : 'healthy');
  }

  private open(entry: Entry, subject: { channelId: number; model: string }, settings: HealthSettings, now: number) {
    entry.openedAt = now;
    entry.openUntil = now + settings.coolOffSeconds * 1000;
    entry.trialWins = 0;
    this.setStatus(entry, 'open');
    this.changed?.({ ...subject, state: 'open', openedAt: now, until: entry.openUntil });
  }

  /** Closed after its trials: the failures that opened it are forgotten, so they cannot open it again at once. */
  private close(entry: Entry): void {
    entry.window.clear();
    entry.samples = 0;
    entry.trialWins = 0;
    this.setStatus(entry, 'healthy');
  }

  /** The entry's state now: an ended cool-off turns open into half-open; a degraded entry nobody used for a window is healthy. */
  private current(entry: Entry, now: number): ChannelHealthState {
    if (entry.status === 'open' && now >= entry.openUntil) {
      entry.trialWins = 0;
      this.setStatus(entry, 'half_open');
    } else if (entry.status === 'degraded' && now - entry.lastAt >= this.read().windowSeconds * 1000) {
      this.setStatus(entry, 'healthy');
    }
    return entry.status;
  }

  private entryFor(channelId: number, model: string): Entry | undefined {
    const pair = this.pairs.size === 0 ? undefined : this.pairs.get(`${channelId}:${model}`);
    if (pair && (pair.status !== 'healthy' || pair.samples >= this.read().minSamples)) return pair;
    return this.channels.get(channelId);
  }

  private setStatus(entry: Entry, status: ChannelHealthState): void {
    if (entry.status === status) return;
    if (entry.status === 'healthy') this.unhealthy += 1;
    else if (status === 'healthy') this.unhealthy -= 1;
    entry.status = status;
    if (entry.changes) {
      entry.changes.push({ state: status, at: this.clock() });
      if (entry.changes.length > CHANGES_KEPT) entry.changes.shift();
    }
  }

  private channelEntry(channelId: number): ChannelEntry {
    let entry = this.channels.get(channelId);
    if (!entry) {
      entry = {
        ...newEntry(),
        firstByte: new LatencyRing(),
        duration: new LatencyRing(),
        history: new MinuteHistory(),
        changes: [],
      };
      this.channels.set(channelId, entry);
    }
    return entry;
  }

  private pairEntry(channelId: number, model: string): Entry {
    const key = `${channelId}:${model}`;
    let entry = this.pairs.get(key);
    if (!entry) {
      // Model names reaching a wildcard channel are the client's choice: quiet pairs go before the map grows.
      if (this.pairs.size >= SWEEP_SIZE) this.sweep();
      entry = newEntry();
      this.pairs.set(key, entry);
    }
    return entry;
  }

  private sweep(): void {
    const now = this.clock();
    const windowMs = this.read().windowSeconds * 1000;
    for (const [key, entry] of this.pairs) {
      if (this.current(entry, now) === 'healthy' && now - entry.lastAt >= windowMs) this.pairs.delete(key);
    }
  }

  /** Channel and pair entries held, for tests of the memory bound. */
  get size(): number {
    return this.channels.size + this.pairs.size;
  }
}
