import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';
import { randomString } from '../src/platform/crypto.js';
import type { DatabaseHandle } from '../src/platform/db/index.js';
import { Journal, type JournalOptions } from '../src/platform/journal/journal.js';
import { type RedisLedgerOptions, RedisQuotaLedger } from '../src/relay/billing/redis-ledger.js';
import { useMigratedDatabase } from './databases.js';
import { insertUser } from './ledger-users.js';

/** Longer than any test: a ledger flushes only when the test asks. */
const NEVER = 3_600_000;

/** One test's own piece of the shared ledger: its key prefix, a user with a balance, its journal. */
export interface JournalCase {
  prefix: string;
  user: number;
  directory: string;
  journal: Journal;
}

export interface JournalLedgers {
  handle: DatabaseHandle;
  /** A connection to the test Redis, closed after the tests. */
  client(): Redis;
  /** A node's ledger under `prefix`, on a connection of its own. */
  node(prefix: string, options?: Omit<RedisLedgerOptions, 'prefix'>): RedisQuotaLedger;
  /** A fresh prefix (`onehub-test:<name>:…`), a user holding `quota`, and a journal in a new folder. */
  start(quota: number, journal?: Omit<JournalOptions, 'directory' | 'fsyncIntervalMs'>): Promise<JournalCase>;
}

/**
 * What the shared ledger's crash-journal tests have in common (redis-journal.test.ts,
 * redis-lease-journal.test.ts): a migrated SQLite database, ledgers on TEST_REDIS_URL, and a fresh
 * prefix, user and journal per test. Call it inside the `describe` that is skipped without Redis.
 */
export function useJournalLedgers(name: string): JournalLedgers {
  const handle = useMigratedDatabase('sqlite');
  const clients: Redis[] = [];
  let nextUser = 1;
  afterAll(async () => {
    for (const client of clients) await client.quit();
  });
  const client = () => {
    const redis = new Redis(process.env.TEST_REDIS_URL ?? '');
    clients.push(redis);
    return redis;
  };
  return {
    handle,
    client,
    node: (prefix, options = {}) =>
      new RedisQuotaLedger(handle, client(), { prefix, flushIntervalMs: NEVER, ...options }),
    async start(quota, journal = {}) {
      const directory = mkdtempSync(join(tmpdir(), `one-hub-${name}-`));
      return {
        prefix: `onehub-test:${name}:${randomString(8)}:`,
        user: await insertUser(handle, nextUser++, quota),
        directory,
        journal: new Journal({ directory, fsyncIntervalMs: 1000, ...journal }),
      };
    },
  };
}
