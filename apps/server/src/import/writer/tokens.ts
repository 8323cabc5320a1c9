import type { Kysely } from 'kysely';
import { readTokenSetting, writeTokenSetting } from '../../api/token/setting.js';
import { hashTokenKey } from '../../domain/token-keys.js';
import type { Database, NewTokenRow } from '../../platform/db/index.js';
import type { LegacyToken, Skipped } from '../legacy.js';
import { type BatchResult, chunked, clip, type WriteContext } from './context.js';
import { lookupIds, recordIds } from './id-map.js';

/** The relay refuses key bodies shorter than this (relay/keys.ts); one-api's are 48, One Hub's 48 or 59. */
const SHORTEST_USABLE_KEY = 48;

/** Which key hashes the target already has (a merge with a target that holds the same key). */
async function existingHashes(executor: Kysely<Database>, hashes: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunked(hashes, 500)) {
    const rows = await executor.selectFrom('tokens').select('key_hash').where('key_hash', 'in', chunk).execute();
    for (const row of rows) found.add(row.key_hash);
  }
  return found;
}

/**
 * The key is stored the way the token API stores it: looked up by `hashTokenKey(body)` and kept
 * sealed, so the old key works with or without `sk-`, and its owner can still read it.
 */
function toRow(token: LegacyToken, userId: number, context: WriteContext): NewTokenRow {
  return {
    user_id: userId,
    name: clip(token.name, 64),
    key_hash: hashTokenKey(token.key),
    key_cipher: context.secrets.tokens.seal(token.key),
    status: token.status >= 1 && token.status <= 4 ? token.status : 2,
    created_time: token.created_time,
    accessed_time: token.accessed_time,
    expired_time: token.expired_time === 0 ? -1 : token.expired_time,
    remain_quota: token.remain_quota,
    unlimited_quota: token.unlimited_quota,
    used_quota: token.used_quota,
    group: clip(token.group, 50),
    backup_group: clip(token.backup_group, 50),
    // Read as the relay reads it, so what is stored is exactly what takes effect.
    setting: writeTokenSetting(readTokenSetting(JSON.stringify(token.setting ?? {}))),
    deleted_at: token.deleted_at,
  };
}

export async function writeTokens(
  executor: Kysely<Database>,
  context: WriteContext,
  tokens: readonly LegacyToken[],
): Promise<BatchResult> {
  const skipped: Skipped[] = [];
  const owners = await lookupIds(
    executor,
    context,
    'users',
    tokens.map((token) => token.user_id),
  );
  const present = await existingHashes(
    executor,
    tokens.map((token) => hashTokenKey(token.key)),
  );
  const rows: NewTokenRow[] = [];
  // Source id → key hash of every key that is in the target after this batch (merge: for tasks).
  const landed = new Map<number, string>();
  for (const token of tokens) {
    const owner = owners.resolve(token.user_id);
    const skip = (reason: string) => skipped.push({ table: 'tokens', row: token.id, reason });
    if (owner === undefined) skip(`its owner (user ${token.user_id}) was not imported`);
    else if (!token.key) skip('it has no key');
    else if (present.has(hashTokenKey(token.key))) {
      skip('the same key already exists in the target');
      landed.set(token.id, hashTokenKey(token.key));
    } else {
      if (token.key.length < SHORTEST_USABLE_KEY) {
        skipped.push({
          table: 'tokens',
          row: token.id,
          reason: `imported, but its key is shorter than ${SHORTEST_USABLE_KEY} characters, which the relay refuses`,
          count: 0,
        });
      }
      present.add(hashTokenKey(token.key));
      landed.set(token.id, hashTokenKey(token.key));
      rows.push({ ...toRow(token, owner, context), ...(context.mode === 'fresh' ? { id: token.id } : {}) });
    }
  }
  for (const chunk of chunked(rows)) await executor.insertInto('tokens').values(chunk).execute();
  if (context.mode === 'merge') await recordTokenIds(executor, context, landed);
  return { written: rows.length, skipped };
}

/** A merge gives keys new ids: tasks naming a key find it by the key's hash, which is unique. */
async function recordTokenIds(
  executor: Kysely<Database>,
  context: WriteContext,
  landed: Map<number, string>,
): Promise<void> {
  const targetIds = new Map<string, number>();
  for (const chunk of chunked([...new Set(landed.values())], 500)) {
    const rows = await executor
      .selectFrom('tokens')
      .select(['id', 'key_hash'])
      .where('key_hash', 'in', chunk)
      .execute();
    for (const row of rows) targetIds.set(row.key_hash, Number(row.id));
  }
  const pairs: Array<[number, number]> = [];
  for (const [sourceId, hash] of landed) {
    const targetId = targetIds.get(hash);
    if (targetId !== undefined) pairs.push([sourceId, targetId]);
  }
  await recordIds(executor, context, 'tokens', pairs);
}
