import type { Kysely } from 'kysely';
import { addLogsToRollUps, addToStatistics, type StatisticsDelta } from '../../api/statistics/rollup.js';
import type { Database, NewLogRow } from '../../platform/db/index.js';
import type { LegacyLog, LegacyStatistic, Skipped } from '../legacy.js';
import { type BatchResult, chunked, clip, type WriteContext } from './context.js';
import { type IdLookup, lookupIds } from './id-map.js';

/** One summary entry per user that was not imported, instead of one per log row. */
function summariseMissingUsers(table: string, missing: Map<number, number>): Skipped[] {
  return [...missing].map(([userId, count]) => ({
    table,
    reason: `user ${userId} was not imported`,
    count,
  }));
}

/** A channel that was not imported: a fresh import keeps its id (history), a merge cannot name it. */
function channelOf(channels: IdLookup, sourceId: number): number {
  return sourceId > 0 ? (channels.resolve(sourceId) ?? 0) : 0;
}

function toLogRow(log: LegacyLog, userId: number, channelId: number): NewLogRow {
  return {
    user_id: userId,
    created_at: log.created_at,
    type: log.type,
    content: log.content,
    username: clip(log.username, 64),
    token_name: clip(log.token_name, 255),
    model_name: clip(log.model_name, 255),
    quota: log.quota,
    prompt_tokens: log.prompt_tokens,
    completion_tokens: log.completion_tokens,
    channel_id: channelId,
    request_time: log.request_time,
    is_stream: log.is_stream,
    source_ip: clip(log.source_ip, 128),
    metadata: log.metadata || '{}',
    token_id: 0,
    request_id: '',
  };
}

/** The target's ids for the users and channels that usage rows name. */
async function userAndChannelIds(
  executor: Kysely<Database>,
  context: WriteContext,
  rows: readonly { user_id: number; channel_id: number }[],
) {
  const users = await lookupIds(
    executor,
    context,
    'users',
    rows.map((row) => row.user_id),
  );
  const channels = await lookupIds(
    executor,
    context,
    'channels',
    rows.map((row) => row.channel_id),
  );
  return { users, channels };
}

/**
 * Log rows, with user and channel ids remapped, and their consume rows added to the roll-ups in the
 * same transaction. `rollUp`: the source had no daily statistics, so `statistics` is summed here too.
 */
export async function writeLogs(
  executor: Kysely<Database>,
  context: WriteContext,
  logs: readonly LegacyLog[],
  rollUp: boolean,
): Promise<BatchResult> {
  const { users, channels } = await userAndChannelIds(executor, context, logs);
  const missing = new Map<number, number>();
  const rows: NewLogRow[] = [];
  for (const log of logs) {
    const userId = log.user_id > 0 ? users.resolve(log.user_id) : 0;
    if (userId === undefined) {
      missing.set(log.user_id, (missing.get(log.user_id) ?? 0) + 1);
      continue;
    }
    const row = toLogRow(log, userId, channelOf(channels, log.channel_id));
    rows.push(context.mode === 'fresh' ? { ...row, id: log.id } : row);
  }
  for (const chunk of chunked(rows)) await executor.insertInto('logs').values(chunk).execute();
  // The token days and hour totals come from the logs alone, whatever the source brought.
  await addLogsToRollUps(executor, context.dialect, rows, { statistics: rollUp });
  return { written: rows.length, skipped: summariseMissingUsers('logs', missing) };
}

/** Rows whose ids now coincide (two channels a merge could not name) are added together. */
function addUp(deltas: StatisticsDelta[]): StatisticsDelta[] {
  const totals = new Map<string, StatisticsDelta>();
  for (const delta of deltas) {
    const key = `${delta.date}\u0000${delta.user_id}\u0000${delta.channel_id}\u0000${delta.model_name}`;
    const total = totals.get(key);
    if (!total) {
      totals.set(key, { ...delta });
      continue;
    }
    total.request_count += delta.request_count;
    total.quota += delta.quota;
    total.prompt_tokens += delta.prompt_tokens;
    total.completion_tokens += delta.completion_tokens;
    total.request_time += delta.request_time;
  }
  return [...totals.values()];
}

/** Daily statistics, remapped; added to what the target has for the same day, user, channel and model. */
export async function writeStatistics(
  executor: Kysely<Database>,
  context: WriteContext,
  statistics: readonly LegacyStatistic[],
): Promise<BatchResult> {
  const { users, channels } = await userAndChannelIds(executor, context, statistics);
  const missing = new Map<number, number>();
  const deltas: StatisticsDelta[] = [];
  let undated = 0;
  for (const row of statistics) {
    const userId = users.resolve(row.user_id);
    if (userId === undefined) {
      missing.set(row.user_id, (missing.get(row.user_id) ?? 0) + 1);
      continue;
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(row.date)) {
      undated++;
      continue;
    }
    deltas.push({
      ...row,
      user_id: userId,
      channel_id: channelOf(channels, row.channel_id),
      model_name: clip(row.model_name, 255),
    });
  }
  await addToStatistics(executor, context.dialect, addUp(deltas));
  const skipped = summariseMissingUsers('statistics', missing);
  if (undated > 0) skipped.push({ table: 'statistics', reason: 'the date is not a YYYY-MM-DD day', count: undated });
  return { written: deltas.length, skipped };
}
