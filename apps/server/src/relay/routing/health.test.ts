import { describe, expect, it } from 'vitest';
import { ChannelHealth, DEFAULT_HEALTH_SETTINGS, type HealthChange, TRIALS_TO_CLOSE } from './health.js';

/** A health tracker on a clock the test moves, with the default settings (60 s, 10 samples, 20 %/50 %, 30 s). */
function tracker() {
  const clock = { now: 1_000_000 };
  const health = new ChannelHealth(() => clock.now);
  const changes: HealthChange[] = [];
  health.onChange((change) => changes.push(change));
  return { health, clock, changes };
}

function outcomes(health: ChannelHealth, channelId: number, model: string, successes: number, failures: number) {
  for (let index = 0; index < successes; index++) health.recordSuccess(channelId, model, 10, 20);
  for (let index = 0; index < failures; index++) health.recordFailure(channelId, model, '5xx', 'upstream error: boom');
}

describe('channel health', () => {
  it('stays healthy below the minimum samples, whatever fails', () => {
    const { health } = tracker();
    outcomes(health, 1, 'm', 0, DEFAULT_HEALTH_SETTINGS.minSamples - 1);
    expect(health.status(1, 'm')).toBe('healthy');
  });

  it('degrades at the degraded rate and opens at the open rate', () => {
    const { health, changes } = tracker();
    outcomes(health, 1, 'm', 8, 2);
    expect(health.status(1, 'm')).toBe('degraded');
    outcomes(health, 1, 'm', 0, 8);
    expect(health.status(1, 'm')).toBe('open');
    expect(changes.map((change) => [change.model, change.state])).toEqual([
      ['', 'open'],
      ['m', 'open'],
    ]);
  });

  it('goes half-open after the cool-off, closes after its trial successes and forgets the old failures', () => {
    const { health, clock, changes } = tracker();
    outcomes(health, 1, 'm', 0, 10);
    clock.now += DEFAULT_HEALTH_SETTINGS.coolOffSeconds * 1000 - 1;
    expect(health.status(1, 'm')).toBe('open');
    clock.now += 1;
    expect(health.status(1, 'm')).toBe('half_open');
    outcomes(health, 1, 'm', TRIALS_TO_CLOSE - 1, 0);
    expect(health.status(1, 'm')).toBe('half_open');
    outcomes(health, 1, 'm', 1, 0);
    expect(health.status(1, 'm')).toBe('healthy');
    expect(changes.filter((change) => change.state === 'closed')).toHaveLength(2);
    // The failures that opened it no longer count: one more failure does not open it again.
    outcomes(health, 1, 'm', 0, 1);
    expect(health.status(1, 'm')).toBe('healthy');
  });

  it('opens again for another cool-off when a trial fails', () => {
    const { health, clock } = tracker();
    outcomes(health, 1, 'm', 0, 10);
    clock.now += DEFAULT_HEALTH_SETTINGS.coolOffSeconds * 1000;
    expect(health.status(1, 'm')).toBe('half_open');
    outcomes(health, 1, 'm', 0, 1);
    expect(health.status(1, 'm')).toBe('open');
    expect(health.openedAt(1, 'm')).toBe(clock.now);
  });

  it('does not count 429s toward the failure rate', () => {
    const { health } = tracker();
    for (let index = 0; index < 20; index++) health.recordFailure(1, 'm', 'rate_limit', 'rate limited');
    expect(health.status(1, 'm')).toBe('healthy');
    expect(health.view([1])[0]).toMatchObject({ samples: 0, last_error: { class: 'rate_limit' } });
  });

  it('forgets failures older than the window', () => {
    const { health, clock } = tracker();
    outcomes(health, 1, 'm', 0, 9);
    clock.now += DEFAULT_HEALTH_SETTINGS.windowSeconds * 1000;
    outcomes(health, 1, 'm', 1, 1);
    expect(health.status(1, 'm')).toBe('healthy');
  });

  it("uses a pair's own state once it has enough samples, else the channel's", () => {
    const { health } = tracker();
    // Model a fails on the channel; model b works on it.
    outcomes(health, 1, 'a', 0, 10);
    expect(health.status(1, 'a')).toBe('open');
    expect(health.status(1, 'b')).toBe('open');
    outcomes(health, 1, 'b', 10, 0);
    expect(health.status(1, 'b')).toBe('healthy');
    expect(health.status(1, 'a')).toBe('open');
  });

  it('follows openings and closings announced by other processes', () => {
    const { health, clock } = tracker();
    health.apply({ channelId: 2, model: '', state: 'open', openedAt: clock.now, until: clock.now + 5000 });
    expect(health.status(2, 'x')).toBe('open');
    health.apply({ channelId: 2, model: '', state: 'closed', openedAt: clock.now, until: clock.now });
    expect(health.status(2, 'x')).toBe('healthy');
    // A notice that ended before it arrived changes nothing.
    health.apply({ channelId: 3, model: '', state: 'open', openedAt: 0, until: clock.now - 1 });
    expect(health.status(3, 'x')).toBe('healthy');
  });

  it('counts nothing and changes nothing while turned off', () => {
    const { health } = tracker();
    health.useSettings(() => ({ ...DEFAULT_HEALTH_SETTINGS, enabled: false }));
    outcomes(health, 1, 'm', 0, 20);
    expect(health.status(1, 'm')).toBe('healthy');
    expect(health.view([1])[0]).toMatchObject({ samples: 0, last_error: null });
    expect(health.size).toBe(0);
  });

  it('reports success rate, median latencies and the last error per channel', () => {
    const { health } = tracker();
    health.recordSuccess(1, 'm', 100, 300);
    health.recordSuccess(1, 'm', 200, 500);
    health.recordSuccess(1, 'm', 300, 700);
    health.recordFailure(1, 'm', 'timeout', 'upstream timed out');
    expect(health.view([1, 9])).toEqual([
      {
        channel_id: 1,
        state: 'healthy',
        samples: 4,
        success_rate: 0.75,
        p50_latency_ms: 500,
        p50_first_byte_ms: 200,
        open_until: null,
        last_error: { class: 'timeout', message: 'upstream timed out', at: 1_000_000 },
      },
      {
        channel_id: 9,
        state: 'healthy',
        samples: 0,
        success_rate: null,
        p50_latency_ms: null,
        p50_first_byte_ms: null,
        open_until: null,
        last_error: null,
      },
    ]);
  });

  it('keeps the last hour by minute and the state changes for the chart', () => {
    const { health, clock } = tracker();
    // Minute boundaries on the test's clock: 1_000_000 is 40 s into a minute.
    const minute = clock.now - (clock.now % 60_000);
    health.recordSuccess(1, 'm', 5, 100);
    health.recordSuccess(1, 'm', 5, 301);
    health.recordFailure(1, 'm', 'rate_limit', 'slow down');
    clock.now += 60_000;
    outcomes(health, 1, 'm', 0, 10);
    clock.now += DEFAULT_HEALTH_SETTINGS.coolOffSeconds * 1000;

    const history = health.history(1);
    expect(history.minutes).toHaveLength(60);
    // The cool-off ended in the minute after the failures': the current minute, last and empty.
    expect(history.minutes.slice(-3)).toEqual([
      { at: minute, successes: 2, failures: 0, rate_limited: 1, mean_latency_ms: 201 },
      { at: minute + 60_000, successes: 0, failures: 10, rate_limited: 0, mean_latency_ms: null },
      { at: minute + 120_000, successes: 0, failures: 0, rate_limited: 0, mean_latency_ms: null },
    ]);
    expect(history.minutes[0]?.at).toBe(minute + 120_000 - 59 * 60_000);
    // Opened at the tenth failure; the ended cool-off reads as half-open.
    const opened = clock.now - DEFAULT_HEALTH_SETTINGS.coolOffSeconds * 1000;
    expect(history.changes).toEqual([
      { state: 'open', at: opened },
      { state: 'half_open', at: clock.now },
    ]);

    // An hour on, the old minutes are gone, not counted again in the ring's reused slots.
    clock.now += 60 * 60_000;
    health.recordSuccess(1, 'm', 5, 50);
    const later = health.history(1).minutes;
    expect(later.reduce((sum, entry) => sum + entry.successes + entry.failures + entry.rate_limited, 0)).toBe(1);
    expect(health.history(99)).toMatchObject({ channel_id: 99, changes: [] });
  });

  it('keeps its memory bounded when clients send many model names', () => {
    const { health, clock } = tracker();
    for (let index = 0; index < 3000; index++) {
      health.recordSuccess(1, `model-${index}`, 1, 1);
      clock.now += 100;
    }
    expect(health.size).toBeLessThan(1100);
  });
});
