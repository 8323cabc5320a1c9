import { sql } from 'kysely';
import type { DialectName } from '../connect.js';
import { firstConsumeLogFrom, localDayOf } from './0004_statistics_redemptions.js';
import { type AnyDb, finishTable, type MigrationContext } from './helpers.js';

/**
 * Two roll-ups of the consume logs, kept by the same writes as `statistics` (rollup.ts):
 *
 * - `statistics_token_days`: usage per (local day, user, key name, model). `statistics` has no key,
 *   so the log statistics filtered by a key summed every log of the key: at 10M logs a heavy
 *   user's key (600,000 rows) took 100–360 ms. Now whole days are read from here and only a
 *   range's partial edge days from `logs`, as for the other filters. Read by key name (with a model
 *   or not: the administrators' filters) and by user and key name (a user's own, and an
 *   administrator's username with a key), hence the two indexes; neither carries a counter, so
 *   adding to an existing row rewrites the row alone.
 * - `statistics_hours`: the totals per hour (Unix time of its start, UTC hours, so any zone's day
 *   boundaries fall on or inside one), so the statistics without a filter sum a range's partial
 *   edge days from whole hours and only the partial hours at either end from `logs` (about 110,000
 *   rows an edge day at 10M logs before, a few thousand now).
 *
 * Both are filled here from the consume logs already stored, one grouped INSERT … SELECT per local
 * day that has any: the days of the process's time zone, as the log writer's, with migration 0004's
 * own day boundaries (that migration filled `statistics` the same way).
 */
const CONSUME_LOG = 2;
const COUNTERS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'];
const HOUR = 3_600;

async function createTables(db: AnyDb, context: MigrationContext): Promise<void> {
  let tokens = db.schema
    .createTable('statistics_token_days')
    .addColumn('date', 'varchar(10)', (column) => column.notNull())
    .addColumn('user_id', 'integer', (column) => column.notNull())
    .addColumn('token_name', 'varchar(255)', (column) => column.notNull())
    .addColumn('model_name', 'varchar(255)', (column) => column.notNull());
  let hours = db.schema
    .createTable('statistics_hours')
    .addColumn('hour_start', 'bigint', (column) => column.primaryKey());
  for (const counter of COUNTERS) {
    tokens = tokens.addColumn(counter, 'bigint', (column) => column.notNull().defaultTo(0));
    hours = hours.addColumn(counter, 'bigint', (column) => column.notNull().defaultTo(0));
  }
  const key: ('date' | 'user_id' | 'token_name' | 'model_name')[] = ['date', 'user_id', 'token_name', 'model_name'];
  await finishTable(tokens.addPrimaryKeyConstraint('statistics_token_days_pk', key), context).execute();
  await finishTable(hours, context).execute();
  await db.schema
    .createIndex('idx_statistics_token_days_user')
    .on('statistics_token_days')
    .columns(['user_id', 'token_name', 'model_name', 'date'])
    .execute();
  await db.schema
    .createIndex('idx_statistics_token_days_token')
    .on('statistics_token_days')
    .columns(['token_name', 'model_name', 'date'])
    .execute();
}

/** One local day's consume logs, summed into both tables. */
export async function rollUpDay(
  db: AnyDb,
  dialect: DialectName,
  day: { date: string; start: number; end: number },
): Promise<void> {
  const sums = sql.raw(
    `count(*), ${COUNTERS.slice(1)
      .map((counter) => `sum(${counter})`)
      .join(', ')}`,
  );
  const counters = sql.raw(COUNTERS.join(', '));
  const consumeOfDay = sql`from logs where type = ${CONSUME_LOG} and created_at >= ${day.start} and created_at < ${day.end}`;
  await sql`insert into statistics_token_days (date, user_id, token_name, model_name, ${counters})
    select ${day.date}, user_id, token_name, model_name, ${sums} ${consumeOfDay}
    group by user_id, token_name, model_name`.execute(db);
  // Hours are whole within a day in every zone whose offset is whole hours; elsewhere the hour
  // across midnight gets a row from each day, which the upsert of the second adds together.
  const hour = sql.raw(`created_at - created_at % ${HOUR}`);
  const insertHours = sql`insert into statistics_hours (hour_start, ${counters}) select ${hour}, ${sums} ${consumeOfDay}
    group by ${hour}`;
  if (dialect === 'mysql') {
    const added = COUNTERS.map((counter) => `${counter} = ${counter} + values(${counter})`);
    await sql`${insertHours} on duplicate key update ${sql.raw(added.join(', '))}`.execute(db);
  } else {
    const added = COUNTERS.map((counter) => `${counter} = statistics_hours.${counter} + excluded.${counter}`);
    await sql`${insertHours} on conflict (hour_start) do update set ${sql.raw(added.join(', '))}`.execute(db);
  }
}

/** Every local day that has consume logs, jumping over empty ones. */
export async function rollUpExistingLogs(db: AnyDb, dialect: DialectName): Promise<void> {
  let next = await firstConsumeLogFrom(db, undefined);
  while (next !== undefined) {
    const day = localDayOf(next);
    await rollUpDay(db, dialect, day);
    next = await firstConsumeLogFrom(db, day.end);
  }
}

export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await createTables(db, context);
  await rollUpExistingLogs(db, context.dialect);
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['statistics_hours', 'statistics_token_days'])
    await db.schema.dropTable(table).ifExists().execute();
}
