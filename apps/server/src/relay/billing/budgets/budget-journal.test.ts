import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../../test/databases.js';
import { insertLogRows } from '../../../api/log/writer.js';
import type { WindowClock } from '../../../domain/budget-windows.js';
import { randomString } from '../../../platform/crypto.js';
import { Journal } from '../../../platform/journal/journal.js';
import { replayJournal } from '../journal-replay.js';
import { BudgetExceeded, type BudgetLedger, type CounterRule } from './budget-ledger.js';
import { MemoryBudgetLedger } from './memory-budget-ledger.js';
import { RedisBudgetLedger } from './redis-budget-ledger.js';
import { BudgetUsageStore } from './usage-store.js';

/**
 * Issue 33's window use is as durable as balances (issue 30): each settlement's use of its windows
 * is journaled in the turn it is counted, so a node killed before its next batch loses none of it,
 * and the next start writes it exactly once.
 */

const folder = () => mkdtempSync(join(tmpdir(), 'one-hub-budget-journal-'));
const NEVER = 3_600_000;
const rolling = (): WindowClock => ({ mode: 'rolling', timeZone: 'UTC' });
const redisUrl = process.env.TEST_REDIS_URL;
const USE = { quota: 30, requests: 1, tokens: 19 };

describe.each(availableDialects)('budget window use in the crash journal on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);
  let store: BudgetUsageStore;
  const redis = redisUrl ? new Redis(redisUrl) : undefined;

  beforeAll(async () => {
    store = new BudgetUsageStore(handle);
  });
  afterAll(async () => {
    redis?.disconnect();
  });

  const ledgers: Array<[string, (journal: Journal, prefix: string) => BudgetLedger]> = [
    ['memory', (journal) => new MemoryBudgetLedger(store, rolling, { flushIntervalMs: NEVER, journal })],
  ];
  if (redis) {
    ledgers.push([
      'redis',
      (journal, prefix) => new RedisBudgetLedger(redis, store, rolling, { prefix, flushIntervalMs: NEVER, journal }),
    ]);
  }

  /** `count` requests held and settled on the subject's day window (requests limited to `limit`). */
  async function serve(ledger: BudgetLedger, rule: CounterRule, count: number): Promise<void> {
    for (let index = 0; index < count; index++) {
      const hold = await ledger.hold([rule], { quota: 30, requests: 1, tokens: 19 });
      await ledger.settle(hold, USE);
    }
  }

  it.each(ledgers)('the %s ledger: what a killed node counted is written once at the next start', async (_, make) => {
    const subject = `key:${randomString(8)}`;
    const prefix = `test:${randomString(8)}:`;
    const rule: CounterRule = { subject, period: 'day', scope: 'key', limit: { requests: 10 } };
    const directory = folder();
    const journal = new Journal({ directory, fsyncIntervalMs: 1000 });
    const ledger = make(journal, prefix);
    await serve(ledger, rule, 3);
    await ledger.flush();
    expect(await store.read(subject, 'day')).toMatchObject({ quota: 90, requests: 3, tokens: 57 });
    // Four more, then "killed" before their batch: only the journal has them.
    await serve(ledger, rule, 4);
    journal.commit();
    expect(await store.read(subject, 'day')).toMatchObject({ requests: 3 });
    const copy = folder();
    cpSync(directory, copy, { recursive: true });

    const report = await replayJournal(handle, directory, insertLogRows);
    expect(report.windowUses).toBe(4);
    expect(await store.read(subject, 'day')).toMatchObject({ quota: 210, requests: 7, tokens: 133 });
    expect(readdirSync(directory)).toEqual([]);
    // The same files again (a replay killed before it removed them): nothing twice.
    await replayJournal(handle, copy, insertLogRows);
    expect(await store.read(subject, 'day')).toMatchObject({ quota: 210, requests: 7, tokens: 133 });

    // A node started afresh resumes the window from the database where the killed one left it.
    const restarted = new MemoryBudgetLedger(store, rolling, { flushIntervalMs: NEVER });
    await serve(restarted, rule, 3);
    await expect(serve(restarted, rule, 1)).rejects.toBeInstanceOf(BudgetExceeded);
    await restarted.close();
    journal.close();
  });

  it('a batch retried after an unclear failure is added once', async () => {
    const subject = `user:${randomString(8)}`;
    const delta = { subject, period: 'week', start: Date.now(), quota: 5, requests: 1, tokens: 2 };
    await store.add([delta], 'w-test-retried');
    await store.add([delta], 'w-test-retried');
    expect(await store.read(subject, 'week')).toMatchObject({ quota: 5, requests: 1, tokens: 2 });
  });
});
