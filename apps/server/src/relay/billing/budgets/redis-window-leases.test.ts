import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { useMigratedDatabase } from '../../../../test/databases.js';
import { injectFaults } from '../../../../test/redis-faults.js';
import type { WindowClock } from '../../../domain/budget-windows.js';
import { randomString } from '../../../platform/crypto.js';
import { BudgetExceeded, type BudgetHold, type CounterRule } from './budget-ledger.js';
import { RedisBudgetLedger } from './redis-budget-ledger.js';
import { REFUND_EXPIRED, SETTLE } from './redis-budget-scripts.js';
import { RENEW_WINDOWS } from './redis-window-lease-scripts.js';
import { BudgetUsageStore } from './usage-store.js';
import { WINDOW_LEASE_TTL_MS } from './window-lease.js';

/**
 * Window leases through the ledger (issue 38): nodes serve steady requests from slices of their
 * windows held in Redis, synchronously, and together never pass a window; once the nodes have
 * flushed and given their leases back, Redis counts exactly what was served; a node that dies with
 * a lease has it counted as used, never given back unspent.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const NEVER = 3_600_000;
const rolling = (): WindowClock => ({ mode: 'rolling', timeZone: 'UTC' });
const USE = { quota: 30, requests: 1, tokens: 19 };
const DEMAND = { quota: 40, requests: 1, tokens: 25 };

describe.skipIf(!redisUrl)('budget window leases shared by nodes', () => {
  const store = new BudgetUsageStore(useMigratedDatabase('sqlite'));
  const clients: Redis[] = [];
  afterAll(() => {
    for (const client of clients) client.disconnect();
  });

  /** A node flushing its leases every `leaseFlushMs` (NEVER: only when a request waits for a renewal, or asked). */
  const node = (prefix: string, leaseFlushMs = 5) => {
    const client = new Redis(redisUrl ?? '');
    clients.push(client);
    // Faults happen only where a test asks for them (redis-faults.ts).
    const faults = injectFaults(client);
    const ledger = new RedisBudgetLedger(client, store, rolling, { prefix, flushIntervalMs: NEVER, leaseFlushMs });
    return { ledger, client, faults };
  };

  /** Holds and settles `USE` until `count` were started or 20 in a row were refused; 4 at once. */
  async function serve(ledger: RedisBudgetLedger, rule: CounterRule, count: number) {
    let served = 0;
    let onLease = 0;
    let started = 0;
    let refusals = 0;
    const worker = async () => {
      while (started < count && refusals < 20) {
        started++;
        let hold: BudgetHold;
        try {
          const holding = ledger.hold([rule], DEMAND);
          if (!(holding instanceof Promise)) onLease++;
          hold = await holding;
        } catch (error) {
          expect(error).toBeInstanceOf(BudgetExceeded);
          refusals++;
          continue;
        }
        refusals = 0;
        // An answer arrives later, as upstreams' do.
        await new Promise<void>((resolve) => setImmediate(resolve));
        await ledger.settle(hold, USE);
        served++;
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    return { served, onLease };
  }

  const window = async (client: Redis, prefix: string, subject: string) => {
    const values = await client.hmget(`${prefix}b:${subject}:day`, 'r', 'q', 'hr', 'hq', 'ht');
    return values.map(Number);
  };

  it('serves two nodes from leases, never past the window, and counts exactly what was served', async () => {
    const prefix = `test:${randomString(8)}:`;
    const subject = `key:${randomString(8)}`;
    const rule: CounterRule = { subject, period: 'day', scope: 'key', limit: { requests: 300, quota: 300 * 40 } };
    const [a, b] = [node(prefix), node(prefix)];
    const [first, second] = await Promise.all([serve(a.ledger, rule, 400), serve(b.ledger, rule, 400)]);
    const served = first.served + second.served;
    expect(served).toBeLessThanOrEqual(300);
    // And the leases strand little of it: a node refused beside its own lease gives it back first.
    expect(served).toBeGreaterThanOrEqual(270);
    // Most requests were held on a lease, without a round trip to Redis.
    expect(first.onLease + second.onLease).toBeGreaterThan(served / 2);
    await Promise.all([a.ledger.close(), b.ledger.close()]);
    // Every lease given back: Redis counts what was served, and holds nothing.
    expect(await window(a.client, prefix, subject)).toEqual([served, served * USE.quota, 0, 0, 0]);
    expect(await store.read(subject, 'day')).toMatchObject({ requests: served, quota: served * USE.quota });
    expect(await a.client.hkeys(`${prefix}bres`)).toEqual([]);
  });

  it('takes back use not flushed yet on the node itself', async () => {
    const prefix = `test:${randomString(8)}:`;
    const subject = `key:${randomString(8)}`;
    const rule: CounterRule = { subject, period: 'day', scope: 'key', limit: { quota: 100_000 } };
    const { ledger, client } = node(prefix, NEVER);
    await serve(ledger, rule, 40);
    await ledger.flush();
    expect((await window(client, prefix, subject)).slice(0, 2)).toEqual([40, 40 * USE.quota]);
    const holding = ledger.hold([rule], DEMAND);
    // Held on the lease: no promise.
    expect(holding).not.toBeInstanceOf(Promise);
    const hold = await holding;
    await ledger.settle(hold, USE);
    // The balance charged nothing after all (BudgetedLedger takes the quota back, not the request).
    await ledger.uncount((hold.counted ?? []).map((delta) => ({ ...delta, requests: 0, tokens: 0 })));
    // Taken off the node's unflushed spend: Redis never saw it (there it would be 40 × 30 − 30 now).
    expect((await window(client, prefix, subject)).slice(0, 2)).toEqual([40, 40 * USE.quota]);
    await ledger.close();
    expect(await window(client, prefix, subject)).toEqual([41, 40 * USE.quota, 0, 0, 0]);
    expect(await store.read(subject, 'day')).toMatchObject({ requests: 41, quota: 40 * USE.quota });
  });

  it.each([
    ['fails although Redis ran it, and is sent again as it was', 'fail'],
    ['is run twice (its reply lost, the client sends it again)', 'resend'],
  ] as const)('counts the spend of a round once when its call %s', async (_, fault) => {
    const prefix = `test:${randomString(8)}:`;
    const subject = `key:${randomString(8)}`;
    const rule: CounterRule = { subject, period: 'day', scope: 'key', limit: { requests: 10_000 } };
    const { ledger, client, faults } = node(prefix, NEVER);
    const { served } = await serve(ledger, rule, 60);
    await ledger.flush();
    // Ten more on the lease, then a flush whose call goes wrong.
    const { served: more, onLease } = await serve(ledger, rule, 10);
    expect(onLease).toBe(10);
    faults[fault](RENEW_WINDOWS);
    const failed = faults.calls(RENEW_WINDOWS).length;
    if (fault === 'fail') {
      await expect(ledger.flush()).rejects.toThrow();
      // Its leases admit nothing until a reply confirms the round: this hold waits for the round sent again.
      const holding = ledger.hold([rule], DEMAND);
      expect(holding).toBeInstanceOf(Promise);
      await ledger.settle(await holding, USE);
      const calls = faults.calls(RENEW_WINDOWS);
      expect(calls[failed + 1]).toEqual(calls[failed]);
    }
    await ledger.flush();
    await ledger.close();
    const counted = served + more + (fault === 'fail' ? 1 : 0);
    expect(await window(client, prefix, subject)).toEqual([counted, counted * USE.quota, 0, 0, 0]);
  });

  it('sends a settlement outside a lease again itself when its reply is lost, and counts it once', async () => {
    const prefix = `test:${randomString(8)}:`;
    const subject = `key:${randomString(8)}`;
    // A lone request of a tight window is held in Redis itself, not on a lease.
    const rule: CounterRule = { subject, period: 'day', scope: 'key', limit: { requests: 1 } };
    const { ledger, client, faults } = node(prefix, NEVER);
    const hold = await ledger.hold([rule], DEMAND);
    faults.fail(SETTLE);
    await ledger.settle(hold, USE);
    const [first, second] = faults.calls(SETTLE);
    expect(second).toEqual(first);
    expect((await window(client, prefix, subject)).slice(0, 2)).toEqual([1, USE.quota]);
    await ledger.close();
  });

  it('counts a dead node’s lease as used once its record expires: the window is never passed', async () => {
    const prefix = `test:${randomString(8)}:`;
    const subject = `key:${randomString(8)}`;
    const rule: CounterRule = { subject, period: 'day', scope: 'key', limit: { requests: 1000 } };
    const dead = node(prefix);
    const { served, onLease } = await serve(dead.ledger, rule, 100);
    expect(onLease).toBeGreaterThan(0);
    // Killed: it flushes nothing more, and its lease stays held.
    dead.client.disconnect();
    const survivor = node(prefix);
    const [, , heldBefore] = await window(survivor.client, prefix, subject);
    expect(heldBefore).toBeGreaterThan(0);
    const later = Date.now() + WINDOW_LEASE_TTL_MS + 1;
    for (const id of await survivor.client.hkeys(`${prefix}bres`)) {
      await survivor.client.eval(REFUND_EXPIRED, 1, `${prefix}bres`, id, later);
    }
    const [requests, , held] = await window(survivor.client, prefix, subject);
    expect(held).toBe(0);
    // The unflushed spend is inside the lease, and the whole lease counts.
    expect(requests).toBeGreaterThanOrEqual(served);
    await survivor.ledger.close();
  });
});
