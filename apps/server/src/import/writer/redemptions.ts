import type { Kysely } from 'kysely';
import { hashRedemptionKey } from '../../api/redemption/service.js';
import type { Database, NewRedemptionRow } from '../../platform/db/index.js';
import type { LegacyRedemption, Skipped } from '../legacy.js';
import { type BatchResult, chunked, clip, type WriteContext } from './context.js';
import { lookupIds } from './id-map.js';

async function existingHashes(executor: Kysely<Database>, hashes: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunked(hashes, 500)) {
    const rows = await executor.selectFrom('redemptions').select('key_hash').where('key_hash', 'in', chunk).execute();
    for (const row of rows) found.add(row.key_hash);
  }
  return found;
}

/**
 * Codes are stored as the redemption API stores them (hash to look up, sealed code to show), so
 * an unused old code still redeems and a used one stays used.
 */
export async function writeRedemptions(
  executor: Kysely<Database>,
  context: WriteContext,
  codes: readonly LegacyRedemption[],
): Promise<BatchResult> {
  const skipped: Skipped[] = [];
  const users = await lookupIds(
    executor,
    context,
    'users',
    codes.flatMap((code) => [code.user_id, code.redeemed_user_id]),
  );
  const present = await existingHashes(
    executor,
    codes.map((code) => hashRedemptionKey(code.key)),
  );
  const rows: NewRedemptionRow[] = [];
  for (const code of codes) {
    const hash = hashRedemptionKey(code.key);
    if (!code.key) {
      skipped.push({ table: 'redemptions', row: code.id, reason: 'it has no code' });
      continue;
    }
    if (present.has(hash)) {
      skipped.push({ table: 'redemptions', row: code.id, reason: 'the same code already exists in the target' });
      continue;
    }
    present.add(hash);
    rows.push({
      ...(context.mode === 'fresh' ? { id: code.id } : {}),
      user_id: users.resolve(code.user_id) ?? 0,
      name: clip(code.name, 64),
      key_hash: hash,
      key_cipher: context.secrets.redemptions.seal(code.key),
      status: code.status >= 1 && code.status <= 3 ? code.status : 2,
      quota: code.quota,
      created_time: code.created_time,
      redeemed_time: code.redeemed_time,
      redeemed_user_id: code.redeemed_user_id > 0 ? (users.resolve(code.redeemed_user_id) ?? 0) : 0,
    });
  }
  for (const chunk of chunked(rows)) await executor.insertInto('redemptions').values(chunk).execute();
  return { written: rows.length, skipped };
}
