import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { logRow } from '../../../test/log-rows.js';
import {
  type DatabaseHandle,
  fetchPage,
  insertReturningId,
  isUniqueViolation,
  migrateToLatest,
  openDatabase,
  startsWithIgnoringCase,
  toBoolean,
} from './index.js';

describe.each(availableDialects)('data layer on %s', (dialect) => {
  let testDatabase: TestDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    testDatabase = await createTestDatabase(dialect);
    handle = openDatabase(testDatabase.target);
  });
  afterAll(async () => {
    await handle?.close();
    await testDatabase?.drop();
  });

  it('runs every migration once and is a no-op the second time', async () => {
    const first = await migrateToLatest(handle);
    expect(first).toContain('0001_accounts');
    expect(await migrateToLatest(handle)).toEqual([]);
    expect(handle.dialect).toBe(dialect);
  });

  it('seeds the default user group', async () => {
    const group = await handle.db
      .selectFrom('user_groups')
      .selectAll()
      .where('symbol', '=', 'default')
      .executeTakeFirstOrThrow();
    expect(toBoolean(group.enable)).toBe(true);
    expect(toBoolean(group.public)).toBe(true);
    expect(Number(group.ratio)).toBe(1);
  });

  it('round-trips booleans, big integers and fractional ratios the same way everywhere', async () => {
    const id = await insertReturningId(
      handle,
      handle.db.insertInto('user_groups').values({
        symbol: 'rt',
        name: 'rt',
        ratio: 0.35,
        api_rate: 60,
        public: false,
        promotion: true,
        min: 0,
        max: 0,
        enable: true,
      }),
    );
    expect(id).toBeGreaterThan(0);
    const row = await handle.db.selectFrom('user_groups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect([toBoolean(row.public), toBoolean(row.promotion), Number(row.ratio)]).toEqual([false, true, 0.35]);
    const big = 9_007_199_254_740_000;
    await handle.db
      .insertInto('logs')
      .values(logRow({ created_at: 1, type: 3, content: 'x', quota: big, is_stream: true }))
      .execute();
    const log = await handle.db.selectFrom('logs').selectAll().where('quota', '=', big).executeTakeFirstOrThrow();
    expect(typeof log.quota).toBe('number');
    expect(log.quota).toBe(big);
    expect(toBoolean(log.is_stream)).toBe(true);
  });

  it('inserts a value only when the key has none, on every database', async () => {
    const { OptionRepository } = await import('../../api/option/repo.js');
    const repo = new OptionRepository(handle);
    const stored = await Promise.all(
      ['first', 'second', 'third'].map((value) => repo.insertIfAbsent('OnceOnly', value)),
    );
    expect(new Set(stored).size).toBe(1);
    expect(await repo.insertIfAbsent('OnceOnly', 'later')).toBe(stored[0]);
  });

  it('recognises unique violations from the driver', async () => {
    await handle.db.insertInto('options').values({ key: 'Unique', value: '1' }).execute();
    const error = await handle.db
      .insertInto('options')
      .values({ key: 'Unique', value: '2' })
      .execute()
      .catch((caught: unknown) => caught);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(new Error('something else'))).toBe(false);
  });

  it('compares text case-sensitively for equality and treats LIKE wildcards in input literally', async () => {
    await handle.db
      .insertInto('options')
      .values([
        { key: 'Case', value: '' },
        { key: '50%_off!', value: '' },
        { key: '50 percent', value: '' },
      ])
      .execute();
    const exact = await handle.db.selectFrom('options').select('key').where('key', '=', 'case').execute();
    expect(exact).toEqual([]);
    const prefix = await handle.db
      .selectFrom('options')
      .select('key')
      .where(startsWithIgnoringCase('key', 'CAS'))
      .execute();
    expect(prefix.map((row) => row.key)).toEqual(['Case']);
    const literal = await handle.db
      .selectFrom('options')
      .select('key')
      .where(startsWithIgnoringCase('key', '50%_'))
      .execute();
    expect(literal.map((row) => row.key)).toEqual(['50%_off!']);
    const bang = await handle.db
      .selectFrom('options')
      .select('key')
      .where(startsWithIgnoringCase('key', '50%_off!'))
      .execute();
    expect(bang.map((row) => row.key)).toEqual(['50%_off!']);
  });

  it('pages with a total, an allow-listed order and a stable tie-break', async () => {
    const query = handle.db.selectFrom('user_groups').selectAll();
    const page = await fetchPage(query, { page: 1, size: 2, order: '-symbol' }, ['id', 'symbol']);
    expect(page.total_count).toBe(4);
    expect(page.data.map((row) => row.symbol)).toEqual(['vip', 'svip']);
    const last = await fetchPage(query, { page: 2, size: 3, order: 'api_rate' }, ['id', 'api_rate']);
    expect(last.data.map((row) => row.symbol)).toEqual(['default']);
    await expect(fetchPage(query, { page: 1, size: 2, order: 'name' }, ['id'])).rejects.toThrow(
      /cannot sort by field 'name'/,
    );
  });

  // Several nodes share only PostgreSQL or MySQL; a SQLite file belongs to one process.
  it.skipIf(dialect === 'sqlite')('lets several nodes migrate the same database at once', async () => {
    const fresh = await createTestDatabase(dialect);
    const nodes = [openDatabase(fresh.target), openDatabase(fresh.target), openDatabase(fresh.target)];
    try {
      const applied = await Promise.all(nodes.map((node) => migrateToLatest(node)));
      expect(applied.flat().filter((name) => name === '0001_accounts')).toHaveLength(1);
    } finally {
      await Promise.all(nodes.map((node) => node.close()));
      await fresh.drop();
    }
  });
});
