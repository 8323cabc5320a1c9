import { afterAll, describe, expect, it } from 'vitest';
import { closeNodeCaches, twoNodeCaches } from '../../../test/node-caches.js';
import { ChangeBus } from '../../platform/changes.js';
import { CooldownStore } from './cooldowns.js';
import { shareCooldowns } from './shared-cooldowns.js';

describe('cooldown store', () => {
  it('announces a pair only when it starts resting, with its absolute end', () => {
    let now = 1_000_000;
    const store = new CooldownStore(() => now);
    const started: Array<[number, string, number]> = [];
    store.onStart((channelId, model, until) => started.push([channelId, model, until]));

    store.start(3, 'gpt-4o', 60);
    now += 1_000;
    // A second failure while resting (a request already in flight) is not news.
    store.start(3, 'gpt-4o', 60);
    store.start(3, 'other-model', 0);
    expect(started).toEqual([[3, 'gpt-4o', 1_060_000]]);
    expect(store.cooling(3, 'gpt-4o')).toBe(true);

    now = 1_062_000;
    expect(store.cooling(3, 'gpt-4o')).toBe(false);
    store.start(3, 'gpt-4o', 60);
    expect(started.at(-1)).toEqual([3, 'gpt-4o', 1_122_000]);
  });

  it('rests a pair another process cooled until that end and no later, and never announces it', () => {
    let now = 5_000;
    const store = new CooldownStore(() => now);
    let announced = 0;
    store.onStart(() => announced++);

    store.apply(1, 'm', 9_000);
    expect(store.cooling(1, 'm')).toBe(true);
    // A notice with an earlier end (late, or from a process that cooled it first) shortens nothing.
    store.apply(1, 'm', 7_000);
    now = 8_000;
    expect(store.cooling(1, 'm')).toBe(true);
    now = 9_000;
    expect(store.cooling(1, 'm')).toBe(false);
    // A notice that arrives after its end starts no rest at all.
    store.apply(1, 'm', 8_500);
    expect(store.cooling(1, 'm')).toBe(false);
    expect(store.size).toBe(0);
    expect(announced).toBe(0);
  });
});

describe.each(twoNodeCaches())('cooldowns shared over a %s cache', (_kind, create) => {
  const [cacheA, cacheB] = create();
  const busA = new ChangeBus(cacheA);
  const busB = new ChangeBus(cacheB);
  const storeA = new CooldownStore();
  const storeB = new CooldownStore();
  shareCooldowns(storeA, busA);
  shareCooldowns(storeB, busB);
  afterAll(() => closeNodeCaches([cacheA, cacheB]));

  it('rests a pair in the other process as soon as one process cools it, until the same end', async () => {
    await Promise.all([busA.ready(), busB.ready()]);
    const heardA: number[] = [];
    busA.on('cooldowns', ({ until }, origin) => {
      if (origin === 'remote') heardA.push(until);
    });
    storeA.start(7, 'gpt-4o-mini', 60);
    expect(storeA.cooling(7, 'gpt-4o-mini')).toBe(true);
    await expect.poll(() => storeB.cooling(7, 'gpt-4o-mini')).toBe(true);
    expect(storeB.cooling(7, 'other-model')).toBe(false);
    expect(storeB.cooling(8, 'gpt-4o-mini')).toBe(false);

    // B rests it already, so B's own failure on the pair is not announced back; a new pair from B is.
    storeB.start(7, 'gpt-4o-mini', 60);
    storeB.start(9, 'gpt-4o-mini', 60);
    await expect.poll(() => storeA.cooling(9, 'gpt-4o-mini')).toBe(true);
    expect(heardA).toHaveLength(1);
  });

  it('ignores notices that are not cooldowns', async () => {
    await cacheA.publish('changes.cooldowns', JSON.stringify({ node: 'elsewhere', change: { channelId: 'x' } }));
    await cacheA.publish('changes.cooldowns', JSON.stringify({ node: 'elsewhere', change: null }));
    // A well-formed notice after them proves they were delivered and dropped.
    const until = Date.now() + 60_000;
    await cacheA.publish(
      'changes.cooldowns',
      JSON.stringify({ node: 'elsewhere', change: { channelId: 11, model: 'm', until } }),
    );
    await expect.poll(() => storeB.cooling(11, 'm')).toBe(true);
    expect(storeB.size).toBe(3);
  });
});
