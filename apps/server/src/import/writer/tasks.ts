import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/index.js';
import type { LegacyMidjourney, LegacyTask, LegacyTelegramMenu, Skipped } from '../legacy.js';
import { type BatchResult, chunked, clip, type WriteContext } from './context.js';
import { type IdLookup, lookupIds } from './id-map.js';

/**
 * Midjourney and Suno/Kling tasks, and the Telegram bot's menus. Tasks get new ids (nothing
 * points to a task's id; clients fetch by `mj_id` / `task_id`); their user, channel and key ids
 * are remapped. A task the target already has for the same user (a merge of a database imported
 * before) is not written twice.
 */

interface Owned {
  id: number;
  user_id: number;
  channel_id: number;
  token_id: number;
}

interface Remapped {
  user_id: number;
  channel_id: number;
  token_id: number;
}

/** A channel or key that was not imported: the task stays, naming none (0), as logs do. */
const optional = (lookup: IdLookup, sourceId: number) => (sourceId > 0 ? (lookup.resolve(sourceId) ?? 0) : 0);

/** Each row's target user, channel and key; rows whose user was not imported are summarised per user. */
async function remap<Row extends Owned>(
  executor: Kysely<Database>,
  context: WriteContext,
  table: string,
  rows: readonly Row[],
): Promise<{ kept: Array<[Row, Remapped]>; skipped: Skipped[] }> {
  const ids = (pick: (row: Row) => number) => rows.map(pick);
  const users = await lookupIds(
    executor,
    context,
    'users',
    ids((row) => row.user_id),
  );
  const channels = await lookupIds(
    executor,
    context,
    'channels',
    ids((row) => row.channel_id),
  );
  const tokens = await lookupIds(
    executor,
    context,
    'tokens',
    ids((row) => row.token_id),
  );
  const missing = new Map<number, number>();
  const kept: Array<[Row, Remapped]> = [];
  for (const row of rows) {
    const userId = row.user_id > 0 ? users.resolve(row.user_id) : undefined;
    if (userId === undefined) {
      missing.set(row.user_id, (missing.get(row.user_id) ?? 0) + 1);
      continue;
    }
    kept.push([
      row,
      { user_id: userId, channel_id: optional(channels, row.channel_id), token_id: optional(tokens, row.token_id) },
    ]);
  }
  const skipped = [...missing].map(([userId, count]) => ({ table, reason: `user ${userId} was not imported`, count }));
  return { kept, skipped };
}

/** A task's identity in the target: its user, platform (none for Midjourney) and upstream task id. */
const taskKey = (row: { user_id: number; task: string; platform: string }) =>
  `${row.user_id}\u0000${row.platform}\u0000${row.task}`;

/** Keys (taskKey) of the tasks the target already holds with one of `taskIds`. */
async function presentKeys(
  executor: Kysely<Database>,
  table: 'midjourneys' | 'tasks',
  taskIds: string[],
): Promise<Set<string>> {
  const present = new Set<string>();
  for (const chunk of chunked([...new Set(taskIds.filter((id) => id !== ''))], 500)) {
    const rows =
      table === 'tasks'
        ? await executor
            .selectFrom('tasks')
            .select(['user_id', 'task_id as task', 'platform'])
            .where('task_id', 'in', chunk)
            .execute()
        : await executor
            .selectFrom('midjourneys')
            .select(['user_id', 'mj_id as task'])
            .where('mj_id', 'in', chunk)
            .execute();
    for (const row of rows) present.add(taskKey({ platform: '', ...row, user_id: Number(row.user_id) }));
  }
  return present;
}

/**
 * The tasks to write: remapped, without their source id, less those the target already holds for
 * the same user (a task with no upstream id is always written: it cannot be told apart).
 */
async function newTasks<Row extends Owned>(
  executor: Kysely<Database>,
  context: WriteContext,
  table: 'midjourneys' | 'tasks',
  tasks: readonly Row[],
  identify: (task: Row) => { task: string; platform: string },
): Promise<{ rows: Array<Omit<Row, 'id'> & Remapped>; skipped: Skipped[] }> {
  const { kept, skipped } = await remap(executor, context, table, tasks);
  const present = await presentKeys(
    executor,
    table,
    tasks.map((task) => identify(task).task),
  );
  const rows: Array<Omit<Row, 'id'> & Remapped> = [];
  for (const [task, ids] of kept) {
    const identity = identify(task);
    const key = taskKey({ user_id: ids.user_id, ...identity });
    if (identity.task !== '' && present.has(key)) {
      skipped.push({ table, row: task.id, reason: 'the target already has this task for this user' });
      continue;
    }
    present.add(key);
    const { id: _sourceId, ...columns } = task;
    rows.push({ ...columns, ...ids });
  }
  return { rows, skipped };
}

/** The text columns of a row (those a target column may be narrower than), with a width each. */
type TextWidths<Row> = { [Column in keyof Row as Row[Column] extends string ? Column : never]?: number };

/** What tells one task table from the other to the writer. */
interface TaskTable<Row extends Owned> {
  table: 'midjourneys' | 'tasks';
  /** The upstream task id and platform (Midjourney has none): the same pair for one user is the same task. */
  identify: (task: Row) => { task: string; platform: string };
  /** The target's widths of the text columns a source may send longer. */
  widths: TextWidths<Row>;
  insert: (executor: Kysely<Database>, rows: Array<Omit<Row, 'id'> & Remapped>) => Promise<unknown>;
}

/** `row` with each column named in `widths` cut to its width. */
function clipped<Row extends object>(row: Row, widths: Readonly<Record<string, number>>): Row {
  const copy = { ...row } as Record<string, unknown>;
  for (const [column, width] of Object.entries(widths)) copy[column] = clip(String(copy[column]), width);
  return copy as Row;
}

function taskWriter<Row extends Owned>(spec: TaskTable<Row>) {
  return async (executor: Kysely<Database>, context: WriteContext, tasks: readonly Row[]): Promise<BatchResult> => {
    const { rows, skipped } = await newTasks(executor, context, spec.table, tasks, spec.identify);
    const fitted = rows.map((row) => clipped(row, spec.widths as Record<string, number>));
    for (const chunk of chunked(fitted)) await spec.insert(executor, chunk);
    return { written: fitted.length, skipped };
  };
}

export const writeMidjourneys = taskWriter<LegacyMidjourney>({
  table: 'midjourneys',
  identify: (task) => ({ task: task.mj_id, platform: '' }),
  widths: { action: 40, mj_id: 191, status: 20, progress: 30 },
  insert: (executor, rows) => executor.insertInto('midjourneys').values(rows).execute(),
});

export const writeTasks = taskWriter<LegacyTask>({
  table: 'tasks',
  identify: (task) => ({ task: task.task_id, platform: task.platform }),
  widths: { task_id: 50, platform: 30, action: 40, status: 20 },
  insert: (executor, rows) => executor.insertInto('tasks').values(rows).execute(),
});

/** Menus are merged by command: a command the target already answers keeps the target's reply. */
export async function writeTelegramMenus(
  executor: Kysely<Database>,
  _context: WriteContext,
  menus: readonly LegacyTelegramMenu[],
): Promise<BatchResult> {
  const commands = new Set(
    (await executor.selectFrom('telegram_menus').select('command').execute()).map((row) => row.command),
  );
  const skipped: Skipped[] = [];
  const rows = [];
  for (const menu of menus) {
    const command = clip(menu.command, 32);
    if (command === '') skipped.push({ table: 'telegram_menus', reason: 'it has no command' });
    else if (commands.has(command))
      skipped.push({ table: 'telegram_menus', row: command, reason: 'the target already has this command; kept' });
    else {
      commands.add(command);
      rows.push({
        command,
        description: clip(menu.description, 255),
        parse_mode: clip(menu.parse_mode, 255),
        reply_message: menu.reply_message,
      });
    }
  }
  for (const chunk of chunked(rows)) await executor.insertInto('telegram_menus').values(chunk).execute();
  return { written: rows.length, skipped };
}
