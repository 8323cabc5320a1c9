import { afterEach, describe, expect, it, vi } from 'vitest';
import { providerType } from '../../domain/channel-types/registry.js';
import { ChannelRouter, type RouterChannel } from './router.js';

function channel(id: number, fields: Partial<RouterChannel> = {}): RouterChannel {
  return {
    id,
    type: providerType('openai'),
    name: `c${id}`,
    key: 'k',
    base_url: '',
    other: '',
    proxy: '',
    models: ['gpt-4o'],
    group: ['default'],
    priority: 0,
    weight: 1,
    model_mapping: {},
    model_headers: {},
    custom_parameter: {},
    plugin: {},
    only_chat: false,
    disabled_stream: [],
    ...fields,
  };
}

const request = { group: 'default', model: 'gpt-4o', excluded: new Set<number>(), hasTools: false, stream: false };

describe('channel router', () => {
  it('prefers the highest priority tier and falls back to the next when it is exhausted', () => {
    const router = new ChannelRouter();
    router.replaceChannels([channel(1, { priority: 0 }), channel(2, { priority: 10 }), channel(3, { priority: 5 })]);
    expect(router.select(request)?.id).toBe(2);
    expect(router.select({ ...request, excluded: new Set([2]) })?.id).toBe(3);
    expect(router.select({ ...request, excluded: new Set([2, 3]) })?.id).toBe(1);
    expect(router.select({ ...request, excluded: new Set([1, 2, 3]) })).toBeUndefined();
  });

  it('picks by weight inside a tier', () => {
    let next = 0;
    const draws = [0.0, 0.24, 0.26, 0.99];
    const router = new ChannelRouter(() => draws[next++] ?? 0);
    router.replaceChannels([channel(1, { weight: 1 }), channel(2, { weight: 3 })]);
    expect([1, 2, 3, 4].map(() => router.select(request)?.id)).toEqual([1, 1, 2, 2]);
  });

  it('spreads load roughly by weight', () => {
    const router = new ChannelRouter();
    router.replaceChannels([channel(1, { weight: 1 }), channel(2, { weight: 9 })]);
    const counts = new Map<number, number>();
    for (let index = 0; index < 5000; index++) {
      const id = router.select(request)?.id ?? 0;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect(counts.get(2) ?? 0).toBeGreaterThan(4000);
    expect(counts.get(1) ?? 0).toBeGreaterThan(250);
  });

  it('matches wildcards, the longest prefix first, and only inside the group', () => {
    const router = new ChannelRouter();
    router.replaceChannels([
      channel(1, { models: ['gpt-*'] }),
      channel(2, { models: ['gpt-4*'] }),
      channel(3, { models: ['claude-*'], group: ['vip'] }),
    ]);
    expect(router.select({ ...request, model: 'gpt-4o-mini' })?.id).toBe(2);
    expect(router.select({ ...request, model: 'gpt-3.5-turbo' })?.id).toBe(1);
    expect(router.select({ ...request, model: 'claude-3' })).toBeUndefined();
    expect(router.select({ ...request, group: 'vip', model: 'claude-3' })?.id).toBe(3);
  });

  it('skips only-chat channels for tool calls, stream-disabled channels for streams, and cooling channels', () => {
    const router = new ChannelRouter();
    router.replaceChannels([channel(1, { only_chat: true, disabled_stream: ['gpt-4o'], priority: 1 }), channel(2)]);
    expect(router.select(request)?.id).toBe(1);
    expect(router.select({ ...request, hasTools: true })?.id).toBe(2);
    expect(router.select({ ...request, stream: true })?.id).toBe(2);
    router.coolDown(1, 'gpt-4o', 60);
    expect(router.select(request)?.id).toBe(2);
    expect(router.select({ ...request, model: 'gpt-4o', excluded: new Set([2]) })).toBeUndefined();
  });

  describe('cooldowns of many model names', () => {
    afterEach(() => vi.useRealTimers());

    it('sweeps ended cooldowns out instead of keeping one entry per name for ever', () => {
      vi.useFakeTimers();
      const router = new ChannelRouter();
      router.replaceChannels([channel(1, { models: ['gpt-*'] })]);
      // A client inventing model names that a wildcard channel answers with 429s.
      for (let index = 0; index < 1000; index++) router.coolDown(1, `gpt-made-up-${index}`, 5);
      expect(router.cooldownCount).toBe(1000);
      vi.advanceTimersByTime(6000);
      router.coolDown(1, 'gpt-4o', 5);
      expect(router.cooldownCount).toBe(1);
      expect(router.select(request)).toBeUndefined();
      // Resting is not the same as not serving: the model is still this group's.
      expect(router.serves('default', 'gpt-4o')).toBe(true);
      expect(router.serves('default', 'claude-3')).toBe(false);
      expect(router.serves('other', 'gpt-4o')).toBe(false);
    });
  });

  describe('health and strategies', () => {
    /** A router whose health runs on a clock the test moves; channel 1 then 2 weigh alike, one tier. */
    function healthRouter(draws: number[] = []) {
      let next = 0;
      const clock = { now: 5_000_000 };
      const router = new ChannelRouter(() => draws[next++] ?? 0);
      router.health.clock = () => clock.now;
      router.replaceChannels([channel(1), channel(2)]);
      return { router, clock };
    }
    const fail = (router: ChannelRouter, id: number, times = 10) => {
      for (let index = 0; index < times; index++) router.health.recordFailure(id, 'gpt-4o', '5xx', 'boom');
    };

    it('gives an open channel no traffic and says why it was passed over', () => {
      const { router } = healthRouter();
      fail(router, 1);
      const skipped: Array<[number, string]> = [];
      const picks = [0, 0, 0].map(
        () => router.select({ ...request, skipped: (id, why) => skipped.push([id, why]) })?.id,
      );
      expect(picks).toEqual([2, 2, 2]);
      expect(skipped[0]).toEqual([1, 'open']);
    });

    it('lets a half-open channel take only its trial share', () => {
      // Draws: the trial's dice, then the weighted pick between the two.
      const { router, clock } = healthRouter([0.05, 0.0, 0.5, 0.0]);
      fail(router, 1);
      clock.now += 30_000;
      expect(router.health.status(1, 'gpt-4o')).toBe('half_open');
      // 0.05 is under the 10 % share: a trial, and the pick's 0.0 lands on channel 1.
      expect(router.select(request)?.id).toBe(1);
      // 0.5 is not: channel 1 is passed over.
      expect(router.select(request)?.id).toBe(2);
    });

    it('weighs a degraded channel down by the degraded weight factor', () => {
      // Draws of 0.3: with weights 1 and 1 that is channel 1; with 0.25 and 1, channel 2.
      const { router } = healthRouter([0.3, 0.3]);
      expect(router.select(request)?.id).toBe(1);
      for (let index = 0; index < 8; index++) router.health.recordSuccess(1, 'gpt-4o', 1, 1);
      fail(router, 1, 2);
      expect(router.health.status(1, 'gpt-4o')).toBe('degraded');
      expect(router.select(request)?.id).toBe(2);
    });

    it('still tries the least recently opened channel when every one is open', () => {
      const { router, clock } = healthRouter();
      fail(router, 2);
      clock.now += 1000;
      fail(router, 1);
      expect(router.select(request)?.id).toBe(2);
      // Anything else that rules a channel out still does.
      expect(router.select({ ...request, excluded: new Set([2]) })?.id).toBe(1);
      expect(router.select({ ...request, excluded: new Set([1, 2]) })).toBeUndefined();
    });

    it('latency: the lowest median first, an unmeasured channel before any measured one', () => {
      const { router } = healthRouter();
      const latency = { ...request, strategy: 'latency' as const };
      router.health.recordSuccess(1, 'gpt-4o', 50, 400);
      expect(router.select(latency)?.id).toBe(2);
      router.health.recordSuccess(2, 'gpt-4o', 500, 100);
      expect(router.select(latency)?.id).toBe(2);
      // Streams go by time to first byte.
      expect(router.select({ ...latency, stream: true })?.id).toBe(1);
    });

    it('least_in_flight: the channel serving the fewest requests on this process', () => {
      const { router } = healthRouter();
      const least = { ...request, strategy: 'least_in_flight' as const };
      router.inFlight.enter(1);
      expect(router.select(least)?.id).toBe(2);
      router.inFlight.enter(2);
      router.inFlight.enter(2);
      router.inFlight.leave(1);
      expect(router.select(least)?.id).toBe(1);
    });

    it("a tier whose channels all name one strategy uses it instead of the group's, and says so", () => {
      // Draws of 0: a weighted pick would always take the tier's first channel.
      const router = new ChannelRouter(() => 0);
      const tagged = { routing_strategy: 'least_in_flight' as const };
      router.replaceChannels([
        channel(1, tagged),
        channel(2, tagged),
        channel(3, { priority: -1 }),
        channel(4, { priority: -1 }),
      ]);
      router.inFlight.enter(1);
      const told: string[] = [];
      const weighted = { ...request, strategy: 'weighted' as const, tierStrategy: (name: string) => told.push(name) };
      expect(router.select(weighted)?.id).toBe(2);
      expect(told).toEqual(['least_in_flight']);
      // The lower tier names none: the group's weighted pick, and nothing told.
      told.length = 0;
      router.inFlight.enter(3);
      expect(router.select({ ...weighted, excluded: new Set([1, 2]) })?.id).toBe(3);
      expect(told).toEqual([]);
    });

    it("a tier whose channels name different strategies, or only some do, follows the group's", () => {
      const router = new ChannelRouter(() => 0);
      router.replaceChannels([
        channel(1, { routing_strategy: 'latency' }),
        channel(2, { routing_strategy: 'least_in_flight' }),
      ]);
      router.inFlight.enter(1);
      expect(router.select({ ...request, strategy: 'weighted' })?.id).toBe(1);
      router.replaceChannels([channel(1, { routing_strategy: 'least_in_flight' }), channel(2)]);
      expect(router.select({ ...request, strategy: 'weighted' })?.id).toBe(1);
      expect(router.select({ ...request, strategy: 'least_in_flight' })?.id).toBe(2);
    });
  });
});
