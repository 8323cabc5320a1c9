import { sql } from 'kysely';
import { type AnyDb, createTableWithId, finishTable, type MigrationContext } from './helpers.js';

/**
 * Asynchronous tasks and the Telegram bot's custom menus, with One Hub's table and column names
 * (reference §3.1) so an imported database's rows fit: `midjourneys` (midjourney-proxy tasks),
 * `tasks` (Suno and Kling) and `telegram_menus`. Times are milliseconds in `midjourneys` and
 * seconds in `tasks`, as there. Long JSON answers (Suno clips, Midjourney buttons) get MySQL's
 * mediumtext: its text stops at 64 KiB.
 */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  const long = context.dialect === 'mysql' ? sql`mediumtext` : sql`text`;
  await finishTable(
    createTableWithId(db, context, 'midjourneys')
      .addColumn('code', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('user_id', 'integer', (column) => column.notNull())
      .addColumn('action', 'varchar(40)', (column) => column.notNull().defaultTo(''))
      .addColumn('mj_id', 'varchar(191)', (column) => column.notNull().defaultTo(''))
      .addColumn('prompt', 'text', (column) => column.notNull())
      .addColumn('prompt_en', 'text', (column) => column.notNull())
      .addColumn('description', 'text', (column) => column.notNull())
      .addColumn('state', 'text', (column) => column.notNull())
      .addColumn('submit_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('start_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('finish_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('image_url', 'text', (column) => column.notNull())
      .addColumn('status', 'varchar(20)', (column) => column.notNull().defaultTo(''))
      .addColumn('progress', 'varchar(30)', (column) => column.notNull().defaultTo(''))
      .addColumn('fail_reason', 'text', (column) => column.notNull())
      .addColumn('channel_id', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('quota', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('buttons', long, (column) => column.notNull())
      .addColumn('properties', long, (column) => column.notNull())
      .addColumn('mode', 'varchar(10)', (column) => column.notNull().defaultTo('fast'))
      .addColumn('token_id', 'integer', (column) => column.notNull().defaultTo(0)),
    context,
  ).execute();
  for (const column of ['user_id', 'action', 'mj_id', 'submit_time', 'status', 'progress', 'finish_time']) {
    await db.schema.createIndex(`idx_midjourneys_${column}`).on('midjourneys').column(column).execute();
  }

  await finishTable(
    createTableWithId(db, context, 'tasks', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .addColumn('task_id', 'varchar(50)', (column) => column.notNull().defaultTo(''))
      .addColumn('platform', 'varchar(30)', (column) => column.notNull())
      .addColumn('user_id', 'integer', (column) => column.notNull())
      .addColumn('channel_id', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('quota', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('action', 'varchar(40)', (column) => column.notNull().defaultTo(''))
      .addColumn('status', 'varchar(20)', (column) => column.notNull().defaultTo(''))
      .addColumn('fail_reason', 'text', (column) => column.notNull())
      .addColumn('submit_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('start_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('finish_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('progress', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('properties', long, (column) => column.notNull())
      .addColumn('data', long, (column) => column.notNull())
      .addColumn('notify_hook', 'text', (column) => column.notNull())
      .addColumn('token_id', 'integer', (column) => column.notNull().defaultTo(0)),
    context,
  ).execute();
  for (const column of ['created_at', 'task_id', 'platform', 'user_id', 'channel_id', 'status', 'submit_time']) {
    await db.schema.createIndex(`idx_tasks_${column}`).on('tasks').column(column).execute();
  }

  await finishTable(
    createTableWithId(db, context, 'telegram_menus')
      .addColumn('command', 'varchar(32)', (column) => column.notNull().unique())
      .addColumn('description', 'varchar(255)', (column) => column.notNull().defaultTo(''))
      .addColumn('parse_mode', 'varchar(255)', (column) => column.notNull().defaultTo('MarkdownV2'))
      .addColumn('reply_message', 'text', (column) => column.notNull()),
    context,
  ).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['telegram_menus', 'tasks', 'midjourneys']) await db.schema.dropTable(table).ifExists().execute();
}
