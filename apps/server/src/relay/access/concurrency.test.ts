import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { randomString } from '../../platform/crypto.js';
import { type ConcurrencyGate, createMemoryConcurrencyGate, createRedisConcurrencyGate } from './concurrency.js';

const redisUrl = process.env.TEST_REDIS_URL;
const clients: Redis[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit()));
});

function redisGate(prefix: string): ConcurrencyGate {
  const client = new Redis(redisUrl ?? '');
  clients.push(client);
  return createRedisConcurrencyGate(client, prefix, (error) => {
    throw error;
  });
}

const gates: Array<[string, () => [ConcurrencyGate, ConcurrencyGate]]> = [
  [
    'memory',
    () => {
      const gate = createMemoryConcurrencyGate();
      return [gate, gate];
    },
  ],
  ...(redisUrl
    ? ([
        [
          'redis, two nodes',
          () => {
            const prefix = `onehub-test:${randomString(8)}:concurrency:`;
            return [redisGate(prefix), redisGate(prefix)];
          },
        ],
      ] as Array<[string, () => [ConcurrencyGate, ConcurrencyGate]]>)
    : []),
];

describe.each(gates)('concurrency gate (%s)', (_name, make) => {
  it('admits up to the limit across its nodes and frees a slot on release, once', async () => {
    const [one, two] = make();
    const first = await one.enter('k', 2);
    const second = await two.enter('k', 2);
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(await one.enter('k', 2)).toBeNull();
    expect(await two.enter('other', 2)).toBeTypeOf('function');
    first?.();
    first?.();
    // Released twice, freed once: one slot comes back, not two.
    await expect.poll(async () => (await two.enter('k', 2)) !== null).toBe(true);
    expect(await one.enter('k', 2)).toBeNull();
  });
});
