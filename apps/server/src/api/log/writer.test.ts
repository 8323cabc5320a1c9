import { LogType } from '@one-hub/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import { isConnectionError } from '../../platform/db/errors.js';
import { type DatabaseHandle, type NewLogRow, openDatabase } from '../../platform/db/index.js';
import { insertLogRows, LogWriter } from './writer.js';

function logRow(marker: string, index: number): NewLogRow {
  return {
    user_id: 1,
    username: 'writer',
    created_at: 1_700_000_000 + index,
    type: LogType.consume,
    content: '',
    quota: index,
    source_ip: '127.0.0.1',
    token_name: 'tok',
    model_name: marker,
    prompt_tokens: 1,
    completion_tokens: 2,
    channel_id: 0,
    request_time: 10,
    is_stream: index % 2 === 0,
    metadata: '{}',
    token_id: 0,
    request_id: `${marker}-${index}`,
  };
}

/** Collects what the writer reports lost. */
function lossRecorder() {
  const reports: Array<{ error: unknown; lostRows: number }> = [];
  return {
    reports,
    onError: (error: unknown, lostRows: number) => reports.push({ error, lostRows }),
    total: () => reports.reduce((sum, report) => sum + report.lostRows, 0),
  };
}

describe.each(availableDialects)('log writer on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);

  async function countRows(marker: string): Promise<number> {
    const row = await handle.db
      .selectFrom('logs')
      .select(sql<number | string>`count(*)`.as('total'))
      .where('model_name', '=', marker)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  it('writes 1000 pushed rows in batches of 200 and has them all after flush', async () => {
    const losses = lossRecorder();
    const writer = new LogWriter(handle, { onError: losses.onError, flushIntervalMs: 60_000 });
    // One transaction per batch (the rows and their statistics).
    const inserts = vi.spyOn(handle.db, 'transaction');
    try {
      for (let index = 0; index < 1000; index++) writer.push(logRow('thousand', index));
      await writer.flush();
      expect(await countRows('thousand')).toBe(1000);
      expect(inserts).toHaveBeenCalledTimes(5);
      expect(writer.pending).toBe(0);
      expect(losses.reports).toEqual([]);
      const sample = await handle.db
        .selectFrom('logs')
        .selectAll()
        .where('request_id', '=', 'thousand-998')
        .executeTakeFirstOrThrow();
      expect(Number(sample.quota)).toBe(998);
      expect(Boolean(sample.is_stream)).toBe(true);
    } finally {
      inserts.mockRestore();
      await writer.close();
    }
  });

  it('puts every value in its own column, for batches of any size, and keeps an id given with the row', async () => {
    const distinct = (marker: string, index: number): NewLogRow => ({
      user_id: 1,
      username: `${marker}-user`,
      created_at: 1_700_000_100 + index,
      type: LogType.consume,
      content: `${marker}-content-${index}`,
      token_name: `${marker}-token`,
      model_name: marker,
      quota: 1000 + index,
      prompt_tokens: 2000 + index,
      completion_tokens: 3000 + index,
      channel_id: 4000 + index,
      request_time: 5000 + index,
      is_stream: index % 2 === 1,
      source_ip: `10.0.0.${index}`,
      metadata: JSON.stringify({ index }),
      token_id: 6000 + index,
      request_id: `${marker}-${index}`,
    });
    const read = (marker: string) =>
      handle.db.selectFrom('logs').selectAll().where('model_name', '=', marker).orderBy('created_at').execute();
    for (const count of [3, 7]) {
      const marker = `columns-${count}`;
      const rows = Array.from({ length: count }, (_, index) => distinct(marker, index));
      await handle.db.transaction().execute((transaction) => insertLogRows(transaction, dialect, rows));
      const stored = (await read(marker)).map(({ id: _id, ...row }) => ({
        ...row,
        quota: Number(row.quota),
        created_at: Number(row.created_at),
        is_stream: Boolean(row.is_stream),
      }));
      expect(stored).toEqual(rows);
    }
    const [highest] = await handle.db.selectFrom('logs').select(sql<number>`max(id)`.as('id')).execute();
    const id = Number(highest?.id) + 1000;
    await handle.db
      .transaction()
      .execute((transaction) => insertLogRows(transaction, dialect, [{ ...distinct('with-id', 0), id }]));
    expect((await read('with-id')).map((row) => Number(row.id))).toEqual([id]);
  });

  it('keeps every valid row of a batch that holds one invalid row and reports only that one', async () => {
    const losses = lossRecorder();
    const writer = new LogWriter(handle, { onError: losses.onError, batchSize: 50, flushIntervalMs: 60_000 });
    for (let index = 0; index < 50; index++) {
      const row = logRow('one-bad', index);
      // A NULL in a NOT NULL column is refused by SQLite, PostgreSQL and strict MySQL alike.
      writer.push(index === 17 ? { ...row, content: null as unknown as string } : row);
    }
    await writer.flush();
    expect(await countRows('one-bad')).toBe(49);
    expect(losses.reports).toHaveLength(1);
    expect(losses.total()).toBe(1);
    const missing = await handle.db
      .selectFrom('logs')
      .select('id')
      .where('request_id', '=', 'one-bad-17')
      .executeTakeFirst();
    expect(missing).toBeUndefined();
    await writer.close();
  });

  it('writes a partial batch when the interval passes, without a flush', async () => {
    const writer = new LogWriter(handle, { flushIntervalMs: 20 });
    for (let index = 0; index < 3; index++) writer.push(logRow('by-timer', index));
    await vi.waitFor(async () => expect(await countRows('by-timer')).toBe(3), { timeout: 10_000, interval: 25 });
    await writer.close();
  });

  it('writes pending rows on close and refuses rows pushed afterwards', async () => {
    const losses = lossRecorder();
    const writer = new LogWriter(handle, { onError: losses.onError, flushIntervalMs: 60_000 });
    for (let index = 0; index < 7; index++) writer.push(logRow('on-close', index));
    expect(await countRows('on-close')).toBe(0);
    await writer.close();
    expect(await countRows('on-close')).toBe(7);
    expect(losses.reports).toEqual([]);
    writer.push(logRow('on-close', 99));
    expect(losses.total()).toBe(1);
    await writer.flush();
    expect(await countRows('on-close')).toBe(7);
  });
});

describe('log writer while the database refuses every write', () => {
  const handle = useMigratedDatabase('sqlite');

  it('keeps the rows pending, without taking them for refused rows, and writes them once it accepts again', async () => {
    const losses = lossRecorder();
    const writer = new LogWriter(handle, { onError: losses.onError, batchSize: 4, flushIntervalMs: 60_000 });
    // A read-only database (a full disk, a replica after failover) refuses every statement, not one row.
    await sql`PRAGMA query_only = ON`.execute(handle.db);
    try {
      for (let index = 0; index < 10; index++) writer.push(logRow('read-only', index));
      await writer.flush();
      expect(losses.reports).toEqual([]);
      expect(writer.pending).toBe(10);
    } finally {
      await sql`PRAGMA query_only = OFF`.execute(handle.db);
    }
    await writer.flush();
    await writer.close();
    expect(losses.reports).toEqual([]);
    const row = await handle.db
      .selectFrom('logs')
      .select(sql<number | string>`count(*)`.as('total'))
      .where('model_name', '=', 'read-only')
      .executeTakeFirstOrThrow();
    expect(Number(row.total)).toBe(10);
  });
});

describe('log writer with an unreachable database', () => {
  let handle: DatabaseHandle;

  beforeAll(() => {
    // Port 1 on loopback refuses connections at once: a database that is down.
    handle = openDatabase({ sqlitePath: '', sqlDsn: 'postgres://nobody@127.0.0.1:1/none' });
  });
  afterAll(() => handle?.close());

  it('keeps rows pending instead of losing them, and reports them lost only at close', async () => {
    const losses = lossRecorder();
    const writer = new LogWriter(handle, { onError: losses.onError, flushIntervalMs: 60_000 });
    for (let index = 0; index < 10; index++) writer.push(logRow('down', index));
    await writer.flush();
    expect(writer.pending).toBe(10);
    expect(losses.reports).toEqual([]);
    await writer.close();
    expect(losses.total()).toBe(10);
    expect(writer.pending).toBe(0);
  });

  it('bounds memory by dropping the oldest rows and says how many went', async () => {
    const losses = lossRecorder();
    const writer = new LogWriter(handle, {
      onError: losses.onError,
      batchSize: 100,
      maxPendingRows: 500,
      flushIntervalMs: 60_000,
    });
    for (let index = 0; index < 1000; index++) writer.push(logRow('overflow', index));
    await writer.flush();
    expect(writer.pending).toBeLessThanOrEqual(500);
    expect(writer.pending).toBeGreaterThan(0);
    expect(losses.total() + writer.pending).toBe(1000);
    expect(losses.reports.every((report) => String(report.error).includes('oldest were dropped'))).toBe(true);
    await writer.close();
    expect(losses.total()).toBe(1000);
  });

  it('tells unreachable-database errors from refused rows', () => {
    expect(isConnectionError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('gone'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }))).toBe(
      true,
    );
    expect(isConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('null value'), { code: '23502' }))).toBe(false);
    expect(isConnectionError(Object.assign(new Error('NOT NULL'), { code: 'SQLITE_CONSTRAINT_NOTNULL' }))).toBe(false);
    expect(isConnectionError('text')).toBe(false);
    // The database as a whole cannot write for now: full, read-only, out of resources, locked.
    for (const code of [
      'SQLITE_FULL',
      'SQLITE_IOERR_WRITE',
      'SQLITE_READONLY',
      'SQLITE_BUSY_SNAPSHOT',
      '53100',
      '25006',
    ]) {
      expect(isConnectionError(Object.assign(new Error(code), { code })), code).toBe(true);
    }
    for (const code of ['ER_OPTION_PREVENTS_STATEMENT', 'ER_RECORD_FILE_FULL', 'ER_CON_COUNT_ERROR']) {
      expect(isConnectionError(Object.assign(new Error(code), { code })), code).toBe(true);
    }
  });
});
