import { type AuditAction, ChannelStatus } from '@one-hub/contracts';
import type { Executor } from '../../platform/db/index.js';
import { changedFields } from '../audit/changes.js';
import { type AuditEntry, recordAudits } from '../audit/recorder.js';
import { toChannelDetailView } from './presenter.js';
import type { ChannelRecord, ChannelRepository } from './repo.js';

/** Counters and test results the relay and the jobs keep: an administrator never sets them. */
const BOOKKEEPING = ['created_time', 'test_time', 'response_time', 'balance', 'balance_updated_time', 'used_quota'];

/** As the console shows it, key included (masked by changedFields); a plain object for the comparison. */
function shown(channel: ChannelRecord): Record<string, unknown> {
  return { ...toChannelDetailView(channel) };
}

/** An edit that switches a channel on or off is named for that; any other edit is an update. */
function actionOf(before: ChannelRecord, after: ChannelRecord): AuditAction {
  if (before.status === after.status) return 'update';
  return after.status === ChannelStatus.enabled ? 'enable' : 'disable';
}

/**
 * One audit row per channel that `before` and `after` (read in the change's transaction) differ on:
 * only in `after` is a creation, only in `before` a deletion. Both sides are compared as the console
 * shows them; the key is recorded as changed, never its value.
 */
async function recordChannelChanges(executor: Executor, before: ChannelRecord[], after: ChannelRecord[]) {
  const afterById = new Map(after.map((channel) => [channel.id, channel]));
  const beforeIds = new Set(before.map((channel) => channel.id));
  const options = { secret: ['key'], ignore: BOOKKEEPING };
  const entries: AuditEntry[] = [];
  for (const old of before) {
    const now = afterById.get(old.id);
    entries.push({
      resource: 'channel',
      action: now ? actionOf(old, now) : 'delete',
      targetId: old.id,
      targetName: (now ?? old).name,
      changes: changedFields(shown(old), now && shown(now), options),
    });
  }
  for (const created of after.filter((channel) => !beforeIds.has(channel.id))) {
    entries.push({
      resource: 'channel',
      action: 'create',
      targetId: created.id,
      targetName: created.name,
      changes: changedFields(undefined, shown(created), options),
    });
  }
  await recordAudits(executor, entries);
}

/**
 * Runs a change of channels in one transaction with its audit rows: the channels of `channelIds` are
 * read before and after `work`, and those it creates (`createdIds` of its result) after it.
 */
export function auditedChannelChange<Result>(
  repo: ChannelRepository,
  channelIds: readonly number[] | ((executor: Executor) => Promise<readonly number[]>),
  work: (executor: Executor, ids: readonly number[]) => Promise<Result>,
  createdIds: (result: Result) => readonly number[] = () => [],
): Promise<Result> {
  return repo.transaction(async (executor) => {
    // Ids chosen by a query ("every disabled channel") are read in the transaction that changes them.
    const ids = typeof channelIds === 'function' ? await channelIds(executor) : channelIds;
    const before = await repo.findManyById(ids, executor);
    const result = await work(executor, ids);
    const after = await repo.findManyById([...ids, ...createdIds(result)], executor);
    await recordChannelChanges(executor, before, after);
    return result;
  });
}
