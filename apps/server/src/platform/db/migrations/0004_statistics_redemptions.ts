import { sql } from 'kysely';
import { type AnyDb, createTableWithId, finishTable, type MigrationContext } from './helpers.js';

const CONSUME_LOG = 2;
const INSERT_CHUNK = 500;

/**
 * The daily usage roll-up and redemption codes. Usage already in `logs` is rolled up here, so an
 * upgraded database reports the same figures as one that had the roll-up from the start.
 */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await finishTable(
    db.schema
      .createTable('statistics')
      // Text, not DATE: the drivers read DATE into a JavaScript Date at midnight of their own
      // (differing) time zones, which shifts days; 'YYYY-MM-DD' compares and sorts correctly as text.
      .addColumn('date', 'varchar(10)', (column) => column.notNull())
      .addColumn('user_id', 'integer', (column) => column.notNull())
      .addColumn('channel_id', 'integer', (column) => column.notNull())
      .addColumn('model_name', 'varchar(255)', (column) => column.notNull())
      .addColumn('request_count', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('quota', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('prompt_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('completion_tokens', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('request_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('statistics_pk', ['date', 'user_id', 'channel_id', 'model_name']),
    context,
  ).execute();
  await db.schema.createIndex('idx_statistics_user_date').on('statistics').columns(['user_id', 'date']).execute();

  await finishTable(
    createTableWithId(db, context, 'redemptions')
      .addColumn('user_id', 'integer', (column) => column.notNull())
      .addColumn('name', 'varchar(64)', (column) => column.notNull())
      .addColumn('key_hash', 'varchar(64)', (column) => column.notNull().unique())
      .addColumn('key_cipher', 'text', (column) => column.notNull())
      .addColumn('status', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('quota', 'bigint', (column) => column.notNull().defaultTo(100))
      .addColumn('created_time', 'bigint', (column) => column.notNull())
      .addColumn('redeemed_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('redeemed_user_id', 'integer', (column) => column.notNull().defaultTo(0)),
    context,
  ).execute();
  await db.schema.createIndex('idx_redemptions_name').on('redemptions').column('name').execute();
  await db.schema.createIndex('idx_redemptions_redeemed_time').on('redemptions').column('redeemed_time').execute();

  await rollUpExistingLogs(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['redemptions', 'statistics']) await db.schema.dropTable(table).ifExists().execute();
}

/**
 * Local-time day boundaries, written out here rather than imported so this migration keeps
 * computing what it computed when it shipped. Same zone as the log writer: the process's own.
 * Migration 0028 reuses it, for the same days.
 */
export function localDayOf(seconds: number): { date: string; start: number; end: number } {
  const moment = new Date(seconds * 1000);
  const midnight = new Date(moment.getFullYear(), moment.getMonth(), moment.getDate());
  const next = new Date(moment.getFullYear(), moment.getMonth(), moment.getDate() + 1);
  const pad = (value: number) => String(value).padStart(2, '0');
  return {
    date: `${midnight.getFullYear()}-${pad(midnight.getMonth() + 1)}-${pad(midnight.getDate())}`,
    start: Math.floor(midnight.getTime() / 1000),
    end: Math.floor(next.getTime() / 1000),
  };
}

export async function firstConsumeLogFrom(db: AnyDb, from: number | undefined): Promise<number | undefined> {
  let query = db
    .selectFrom('logs')
    .select(sql<number | string | null>`min(created_at)`.as('first'))
    .where('type', '=', CONSUME_LOG);
  if (from !== undefined) query = query.where('created_at', '>=', from);
  const row = await query.executeTakeFirst();
  return row?.first === null || row?.first === undefined ? undefined : Number(row.first);
}

/** One grouped query per day that has consume logs, jumping over empty days. */
async function rollUpExistingLogs(db: AnyDb): Promise<void> {
  let next = await firstConsumeLogFrom(db, undefined);
  while (next !== undefined) {
    const day = localDayOf(next);
    const totals = await db
      .selectFrom('logs')
      .select([
        'user_id',
        'channel_id',
        'model_name',
        sql<number | string>`count(*)`.as('request_count'),
        sql<number | string>`sum(quota)`.as('quota'),
        sql<number | string>`sum(prompt_tokens)`.as('prompt_tokens'),
        sql<number | string>`sum(completion_tokens)`.as('completion_tokens'),
        sql<number | string>`sum(request_time)`.as('request_time'),
      ])
      .where('type', '=', CONSUME_LOG)
      .where('created_at', '>=', day.start)
      .where('created_at', '<', day.end)
      .groupBy(['user_id', 'channel_id', 'model_name'])
      .execute();
    const rows = totals.map((total) => ({
      date: day.date,
      user_id: Number(total.user_id),
      channel_id: Number(total.channel_id),
      model_name: String(total.model_name),
      request_count: Number(total.request_count),
      quota: Number(total.quota),
      prompt_tokens: Number(total.prompt_tokens),
      completion_tokens: Number(total.completion_tokens),
      request_time: Number(total.request_time),
    }));
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await db
        .insertInto('statistics')
        .values(rows.slice(start, start + INSERT_CHUNK))
        .execute();
    }
    next = await firstConsumeLogFrom(db, day.end);
  }
}
