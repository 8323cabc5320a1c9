import { LogType, Role } from '@one-hub/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, useMigratedDatabase } from '../../../test/databases.js';
import { logRow } from '../../../test/log-rows.js';
import {
  type DatabaseHandle,
  migrateToLatest,
  type NewLogRow,
  openDatabase,
  type UserRow,
} from '../../platform/db/index.js';
import { migrateUpTo } from '../../platform/db/migrations/index.js';
import { localDateOf } from '../statistics/dates.js';
import { LogService } from './service.js';
import { insertLogRows } from './writer.js';

interface Filters {
  username?: string;
  token_name?: string;
  model_name?: string;
  start_timestamp?: number;
  end_timestamp?: number;
}

// Local midnight of 2024-05-01 in the process's zone, the zone the roll-ups' days are in.
const BASE = Math.floor(new Date(2024, 4, 1).getTime() / 1000);
const NAMES = ['tok_a', 'tok_b', 'tok_staff'];
/** Each account's key names: `shared` is a name all three gave a key. */
const KEYS: Record<string, string[]> = {
  tok_a: ['a-key', 'shared'],
  tok_b: ['b-key', 'shared'],
  tok_staff: ['shared'],
};

function logs(ids: Record<string, number>): NewLogRow[] {
  const rows: NewLogRow[] = [];
  for (let index = 0; index < 600; index++) {
    const username = NAMES[index % 3] ?? 'tok_a';
    const keys = KEYS[username] ?? [];
    rows.push(
      logRow({
        user_id: ids[username],
        username,
        // Every seventh a top-up: money moving, which no sum counts.
        type: index % 7 === 0 ? LogType.topup : LogType.consume,
        token_name: keys[index % keys.length] ?? '',
        model_name: index % 5 < 3 ? 'm1' : 'm2',
        channel_id: 1 + (index % 2),
        quota: 10 + (index % 13),
        prompt_tokens: index % 17,
        completion_tokens: index % 19,
        request_time: 100 + index,
        // Five local days, crossing each midnight, a few rows in each hour.
        created_at: BASE + 600 + index * 701,
      }),
    );
  }
  return rows;
}

/** What summing the logs gives, computed in code: what every roll-up-served answer must equal. */
function logSum(rows: readonly NewLogRow[], filters: Filters, userId?: number, hidden: number[] = []): number {
  return rows
    .filter(
      (row) =>
        row.type === LogType.consume &&
        !hidden.includes(row.user_id) &&
        (userId === undefined || row.user_id === userId) &&
        (!filters.username || row.username === filters.username) &&
        (!filters.token_name || row.token_name === filters.token_name) &&
        (!filters.model_name || row.model_name === filters.model_name) &&
        (!filters.start_timestamp || row.created_at >= filters.start_timestamp) &&
        (!filters.end_timestamp || row.created_at <= filters.end_timestamp),
    )
    .reduce((sum, row) => sum + row.quota, 0);
}

/** Ranges that cut days and hours at either end, that start or end on a boundary, and none. */
const RANGES: Filters[] = [
  {},
  { start_timestamp: BASE + 86_400 + 5_000 },
  { start_timestamp: BASE + 3_000, end_timestamp: BASE + 3 * 86_400 + 40_000 },
  { start_timestamp: BASE + 86_400, end_timestamp: BASE + 3 * 86_400 - 1 },
  { start_timestamp: BASE + 2 * 86_400 + 7_300, end_timestamp: BASE + 2 * 86_400 + 50_000 },
  { start_timestamp: BASE + 2 * 86_400 + 3_700, end_timestamp: BASE + 2 * 86_400 + 5_000 },
  { start_timestamp: BASE - 86_400, end_timestamp: BASE + 86_400 + 3_599 },
];

const ADMIN_FILTERS: Filters[] = [
  {},
  { token_name: 'shared' },
  { token_name: 'a-key' },
  { token_name: 'missing' },
  { username: 'tok_a', token_name: 'shared' },
  { username: 'tok_b', token_name: 'a-key' },
  { token_name: 'shared', model_name: 'm1' },
  { token_name: 'b-key', model_name: 'm2' },
  { username: 'tok_b', token_name: 'shared', model_name: 'm2' },
];

const OWN_FILTERS: Filters[] = [
  { token_name: 'shared' },
  { token_name: 'a-key' },
  { token_name: 'b-key' },
  { token_name: 'shared', model_name: 'm2' },
  { token_name: 'a-key', model_name: 'm1' },
];

async function createAccounts(handle: DatabaseHandle): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const [index, username] of NAMES.entries()) {
    const role = username === 'tok_staff' ? Role.admin : Role.common;
    await handle.db
      .insertInto('users')
      .values({ username, password: '', aff_code: `tok${index}`, created_time: BASE, role } as never)
      .execute();
    const row = await handle.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    ids[username] = Number(row.id);
  }
  return ids;
}

/** The rows of both roll-ups of migration 0028, as sorted text, comparable across databases. */
async function rollUpRows(handle: DatabaseHandle): Promise<{ tokens: string[]; hours: string[] }> {
  const counters = (row: Record<string, unknown>) =>
    ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'].map((c) => Number(row[c]));
  const tokens = await handle.db.selectFrom('statistics_token_days').selectAll().execute();
  const hours = await handle.db.selectFrom('statistics_hours').selectAll().execute();
  return {
    tokens: tokens
      .map((row) => [row.date, Number(row.user_id), row.token_name, row.model_name, ...counters(row)].join())
      .sort(),
    hours: hours.map((row) => [Number(row.hour_start), ...counters(row)].join()).sort(),
  };
}

/** The same rows summed in code from the logs. */
function expectedRollUps(rows: readonly NewLogRow[]): { tokens: string[]; hours: string[] } {
  const sums = (keyOf: (row: NewLogRow) => string) => {
    const totals = new Map<string, number[]>();
    for (const row of rows.filter((log) => log.type === LogType.consume)) {
      const total = totals.get(keyOf(row)) ?? [0, 0, 0, 0, 0];
      const added = [1, row.quota, row.prompt_tokens, row.completion_tokens, row.request_time];
      totals.set(
        keyOf(row),
        total.map((value, index) => value + (added[index] ?? 0)),
      );
    }
    return [...totals].map(([key, total]) => [key, ...total].join()).sort();
  };
  return {
    tokens: sums((row) => [localDateOf(row.created_at), row.user_id, row.token_name, row.model_name].join()),
    hours: sums((row) => String(row.created_at - (row.created_at % 3_600))),
  };
}

/**
 * The statistics filtered by a key (alone, with a user, with a model, a user's own) read whole days
 * from the token days and the unfiltered ones whole hours from the hour totals (migration 0028), and
 * only the partial edges from the logs: every answer equals the sum over the logs, on every database.
 */
describe.each(availableDialects)('statistics by key from the token days on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);
  let service: LogService;
  let ids: Record<string, number>;
  let rows: NewLogRow[];
  const root = { id: 0, role: Role.root } as UserRow;

  beforeAll(async () => {
    service = new LogService(handle);
    ids = await createAccounts(handle);
    rows = logs(ids);
    // In the log writer's batches, each its own transaction, so many batches add to the same rows.
    for (let start = 0; start < rows.length; start += 37) {
      const batch = rows.slice(start, start + 37);
      await handle.db.transaction().execute((transaction) => insertLogRows(transaction, dialect, batch));
    }
  });

  it('keeps the token days and hour totals equal to the logs summed per key', async () => {
    const expected = expectedRollUps(rows);
    expect(expected.tokens.length).toBeGreaterThan(40);
    expect(await rollUpRows(handle)).toEqual(expected);
  });

  it("answers an administrator's statistics exactly as the sum over the logs", async () => {
    for (const filters of ADMIN_FILTERS) {
      for (const range of RANGES) {
        const query = { ...filters, ...range };
        expect({ query, quota: (await service.stat(root, query)).quota }).toEqual({
          query,
          quota: logSum(rows, query),
        });
      }
    }
  });

  it("answers a user's own statistics by key exactly as the sum over the logs", async () => {
    for (const username of ['tok_a', 'tok_b']) {
      const user = { id: ids[username] } as UserRow;
      for (const filters of OWN_FILTERS) {
        for (const range of RANGES) {
          const query = { ...filters, ...range };
          const expected = logSum(rows, query, user.id);
          expect({ username, query, quota: (await service.ownStat(user, query)).quota }).toEqual({
            username,
            query,
            quota: expected,
          });
        }
      }
    }
  });

  it("leaves other staff's usage out of an admin's statistics by key", async () => {
    const admin = { id: 999_999, role: Role.admin } as UserRow;
    const hidden = [ids.tok_staff ?? 0];
    for (const range of RANGES) {
      const query = { token_name: 'shared', ...range };
      expect((await service.stat(admin, query)).quota).toBe(logSum(rows, query, undefined, hidden));
      expect((await service.stat(admin, range)).quota).toBe(logSum(rows, range, undefined, hidden));
    }
  });

  it('fills both roll-ups from the logs already stored when migrating an older database', async () => {
    const older = await createTestDatabase(dialect);
    const olderHandle = openDatabase(older.target);
    try {
      await migrateUpTo(olderHandle, '0027_log_pair_indexes');
      for (let start = 0; start < rows.length; start += 100) {
        await olderHandle.db
          .insertInto('logs')
          .values(rows.slice(start, start + 100))
          .execute();
      }
      await migrateToLatest(olderHandle);
      expect(await rollUpRows(olderHandle)).toEqual(expectedRollUps(rows));
    } finally {
      await olderHandle.close();
      await older.drop();
    }
  });
});
