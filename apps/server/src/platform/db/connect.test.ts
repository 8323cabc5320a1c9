import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bindBooleansAsIntegers, STATEMENT_CACHE_SIZE } from './connect.js';

describe('the SQLite connection', () => {
  let sqlite: BetterSqlite3.Database;
  let db: Kysely<{ t: { id: number; flag: number; note: string | null } }>;
  const open = () => {
    sqlite = new BetterSqlite3(':memory:');
    db = new Kysely({ dialect: new SqliteDialect({ database: bindBooleansAsIntegers(sqlite) }) });
    return vi.spyOn(sqlite, 'prepare');
  };
  afterEach(() => db.destroy());

  it('prepares a statement once and reuses it, with new values each time', async () => {
    const prepare = open();
    await sql`create table t (id integer primary key, flag integer not null, note text)`.execute(db);
    for (let id = 1; id <= 5; id++)
      await db
        .insertInto('t')
        .values({ id, flag: id % 2 === 0 ? 1 : 0 })
        .execute();
    const inserts = prepare.mock.calls.filter(([text]) => text.startsWith('insert'));
    expect(inserts).toHaveLength(1);
    expect(await db.selectFrom('t').select(['id', 'flag']).orderBy('id').execute()).toEqual([
      { id: 1, flag: 0 },
      { id: 2, flag: 1 },
      { id: 3, flag: 0 },
      { id: 4, flag: 1 },
      { id: 5, flag: 0 },
    ]);
  });

  it('binds booleans as 0 and 1', async () => {
    open();
    await sql`create table t (id integer primary key, flag integer not null, note text)`.execute(db);
    await db
      .insertInto('t')
      .values({ id: 1, flag: true as unknown as number })
      .execute();
    expect(await db.selectFrom('t').select('flag').executeTakeFirst()).toEqual({ flag: 1 });
  });

  it('keeps a cached statement working after the table changes', async () => {
    open();
    await sql`create table t (id integer primary key, flag integer not null)`.execute(db);
    const select = () => db.selectFrom('t').selectAll().orderBy('id').execute();
    await db.insertInto('t').values({ id: 1, flag: 0 }).execute();
    expect(await select()).toEqual([{ id: 1, flag: 0 }]);
    await sql`alter table t add column note text`.execute(db);
    await db.insertInto('t').values({ id: 2, flag: 1 }).execute();
    expect(await select()).toEqual([
      { id: 1, flag: 0, note: null },
      { id: 2, flag: 1, note: null },
    ]);
  });

  it('keeps only the statements used last, preparing a dropped one again', async () => {
    const prepare = open();
    await sql`create table t (id integer primary key, flag integer not null, note text)`.execute(db);
    const byNote = (note: number) =>
      db.selectFrom('t').select('id').where('note', '=', String(note)).where(sql.lit(note), '=', note).execute();
    for (let note = 0; note <= STATEMENT_CACHE_SIZE; note++) await byNote(note);
    const selects = () => prepare.mock.calls.filter(([text]) => text.startsWith('select')).length;
    expect(selects()).toBe(STATEMENT_CACHE_SIZE + 1);
    // The most recent one is still kept; the first was dropped to make room.
    await byNote(STATEMENT_CACHE_SIZE);
    expect(selects()).toBe(STATEMENT_CACHE_SIZE + 1);
    await byNote(0);
    expect(selects()).toBe(STATEMENT_CACHE_SIZE + 2);
  });
});
