import { afterAll, describe, expect, it } from 'vitest';
import { closeNodeCaches, twoNodeCaches } from '../../test/node-caches.js';
import { createMemoryCache } from './cache/index.js';
import { ChangeBus, type ChangeOrigin } from './changes.js';

describe.each(twoNodeCaches())('change bus over a %s cache', (_kind, create) => {
  const [cacheA, cacheB] = create();
  const nodeA = new ChangeBus(cacheA);
  const nodeB = new ChangeBus(cacheB);
  afterAll(() => closeNodeCaches([cacheA, cacheB]));

  it('applies a change on the publishing node before publish returns, and on the other node as remote', async () => {
    const seenA: Array<[number, ChangeOrigin]> = [];
    const seenB: Array<[number, ChangeOrigin]> = [];
    nodeA.on('tokens', ({ id }, origin) => {
      seenA.push([id, origin]);
    });
    nodeB.on('tokens', ({ id }, origin) => {
      seenB.push([id, origin]);
    });
    await Promise.all([nodeA.ready(), nodeB.ready()]);

    const publishing = nodeA.publish('tokens', { id: 7 });
    // Local listeners run synchronously, before the first await inside publish.
    expect(seenA).toEqual([[7, 'local']]);
    await publishing;
    await expect.poll(() => seenB).toEqual([[7, 'remote']]);
    // A node never hears its own notice back as a remote one.
    expect(seenA).toEqual([[7, 'local']]);
  });

  it('keeps quota changes on the node that made them', async () => {
    const remote: number[] = [];
    const local: number[] = [];
    nodeA.on('quota', ({ delta }) => {
      local.push(delta);
    });
    nodeB.on('quota', ({ delta }) => {
      remote.push(delta);
    });
    // A later change on a topic that does cross nodes proves notices have had time to arrive.
    const marker: number[] = [];
    nodeB.on('users', ({ id }) => {
      marker.push(id);
    });
    await nodeB.ready();
    await nodeA.publish('quota', { userId: 1, delta: 500 });
    await nodeA.publish('users', { id: 1 });
    await expect.poll(() => marker).toEqual([1]);
    expect(local).toEqual([500]);
    expect(remote).toEqual([]);
  });

  it('waits for asynchronous local listeners, keeps going when one fails, and stops a listener on request', async () => {
    const order: string[] = [];
    const errors: unknown[] = [];
    const bus = new ChangeBus(createMemoryCache(), { error: (fields: unknown) => errors.push(fields) });
    bus.on('groups', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      order.push('reloaded');
    });
    bus.on('groups', () => {
      throw new Error('listener failed');
    });
    const stop = bus.on('groups', () => {
      order.push('second');
    });
    await bus.publish('groups', {});
    order.push('returned');
    expect(order).toEqual(['second', 'reloaded', 'returned']);
    expect(errors).toHaveLength(1);

    stop();
    order.length = 0;
    await bus.publish('groups', {});
    expect(order).toEqual(['reloaded']);
  });
});
