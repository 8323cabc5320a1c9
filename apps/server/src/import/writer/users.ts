import { Role, UserStatus } from '@one-hub/contracts';
import type { Kysely } from 'kysely';
import { randomString, sha256Hex } from '../../platform/crypto.js';
import type { Database, NewUserRow } from '../../platform/db/index.js';
import type { LegacyUser, Skipped } from '../legacy.js';
import { type BatchResult, chunked, clip, insertedId, type WriteContext } from './context.js';
import { lookupIds, recordIds } from './id-map.js';

/** Columns that name an outside account; in a merge two users must not share one. */
const BINDING_COLUMNS = [
  'email',
  'github_id',
  'github_id_new',
  'oidc_id',
  'wechat_id',
  'lark_id',
  'telegram_id',
] as const;
type BindingColumn = (typeof BINDING_COLUMNS)[number];

function roleOf(role: number): number {
  if (role >= Role.root) return Role.root;
  if (role >= Role.admin) return Role.admin;
  if (role >= Role.reliable) return Role.reliable;
  return Role.common;
}

/** A note: the row was carried over, without one of its values (counts as no skipped row). */
function note(user: LegacyUser, reason: string): Skipped {
  return { table: 'users', row: user.username, reason, count: 0 };
}

function toRow(user: LegacyUser): NewUserRow {
  return {
    username: user.username,
    password: user.password,
    display_name: clip(user.display_name, 64),
    role: roleOf(user.role),
    status: user.status === UserStatus.enabled || user.status === 0 ? UserStatus.enabled : UserStatus.disabled,
    email: clip(user.email, 100),
    avatar_url: clip(user.avatar_url, 500),
    oidc_id: clip(user.oidc_id, 255),
    github_id: clip(user.github_id, 255),
    github_id_new: user.github_id_new,
    wechat_id: clip(user.wechat_id, 255),
    lark_id: clip(user.lark_id, 255),
    telegram_id: user.telegram_id,
    access_token_hash: user.access_token ? sha256Hex(user.access_token) : null,
    quota: user.quota,
    used_quota: user.used_quota,
    request_count: user.request_count,
    group: clip(user.group, 50),
    aff_code: user.aff_code,
    inviter_id: user.inviter_id,
    aff_count: user.aff_count,
    aff_quota: user.aff_quota,
    aff_history: user.aff_history,
    last_login_time: user.last_login_time,
    last_login_ip: clip(user.last_login_ip, 128),
    created_time: user.created_time,
    deleted_at: user.deleted_at,
  };
}

/** Which of `values` the target's `column` already holds. */
async function taken(
  executor: Kysely<Database>,
  column: BindingColumn | 'username' | 'aff_code' | 'access_token_hash',
  values: ReadonlyArray<string | number | null | undefined>,
): Promise<Set<string>> {
  const wanted = [...new Set(values.filter((value) => value !== '' && value !== 0 && value != null))];
  const found = new Set<string>();
  for (const chunk of chunked(wanted, 500)) {
    const rows = await executor
      .selectFrom('users')
      .select(column)
      .where(column, 'in', chunk as never[])
      .execute();
    for (const row of rows) found.add(String((row as Record<string, unknown>)[column]));
  }
  return found;
}

/**
 * Invite codes are unique: an empty one, or one the target (or an earlier row) already has, is
 * replaced by a new 8-character code (generated ones are 4-6 characters, so these never meet).
 */
async function assignInviteCodes(executor: Kysely<Database>, rows: NewUserRow[]): Promise<void> {
  const used = await taken(
    executor,
    'aff_code',
    rows.map((row) => row.aff_code),
  );
  for (const row of rows) {
    const code = clip(row.aff_code, 32);
    if (!code || used.has(code)) row.aff_code = randomString(8);
    else row.aff_code = code;
    used.add(row.aff_code);
  }
}

/** Merge: values that already name a target user are dropped from the imported one, with a note. */
async function dropClashingBindings(
  executor: Kysely<Database>,
  pairs: Array<{ user: LegacyUser; row: NewUserRow }>,
  notes: Skipped[],
): Promise<void> {
  for (const column of BINDING_COLUMNS) {
    const clashes = await taken(
      executor,
      column,
      pairs.map(({ row }) => row[column]),
    );
    for (const { user, row } of pairs) {
      if (row[column] === '' || row[column] === 0 || !clashes.has(String(row[column]))) continue;
      (row as Record<BindingColumn, string | number>)[column] = typeof row[column] === 'number' ? 0 : '';
      notes.push(note(user, `${column} already belongs to a user of the target; imported without it`));
    }
  }
  const tokens = await taken(
    executor,
    'access_token_hash',
    pairs.map(({ row }) => row.access_token_hash),
  );
  for (const { user, row } of pairs) {
    if (row.access_token_hash && tokens.has(row.access_token_hash)) {
      row.access_token_hash = null;
      notes.push(note(user, 'its access token is already used in the target; imported without it'));
    }
  }
}

export async function writeUsers(
  executor: Kysely<Database>,
  context: WriteContext,
  users: readonly LegacyUser[],
): Promise<BatchResult> {
  const skipped: Skipped[] = [];
  const idPairs: Array<[number, number]> = [];
  const clashes =
    context.mode === 'merge'
      ? await taken(
          executor,
          'username',
          users.map((user) => user.username),
        )
      : new Set<string>();
  const pairs: Array<{ user: LegacyUser; row: NewUserRow }> = [];
  for (const user of users) {
    let reason: string | undefined;
    if (!user.username.trim() || user.username.length > 64)
      reason = 'the username is empty or longer than 64 characters';
    else if (clashes.has(user.username)) reason = 'a user with this username already exists in the target';
    if (reason) {
      skipped.push({ table: 'users', row: user.username || user.id, reason });
      idPairs.push([user.id, 0]);
      continue;
    }
    // In a merge the inviter may come later in id order; the inviter step sets it once all are in.
    pairs.push({ user, row: { ...toRow(user), inviter_id: context.mode === 'merge' ? 0 : user.inviter_id } });
  }
  await assignInviteCodes(
    executor,
    pairs.map(({ row }) => row),
  );
  if (context.mode === 'merge') await dropClashingBindings(executor, pairs, skipped);
  if (context.mode === 'fresh') {
    for (const chunk of chunked(pairs)) {
      await executor
        .insertInto('users')
        .values(chunk.map(({ user, row }) => ({ ...row, id: user.id })))
        .execute();
    }
    for (const { user } of pairs) idPairs.push([user.id, user.id]);
  } else {
    for (const { user, row } of pairs) {
      idPairs.push([user.id, await insertedId(context, executor.insertInto('users').values(row))]);
    }
  }
  await recordIds(executor, context, 'users', idPairs);
  return { written: pairs.length, skipped };
}

/** Merge only: points each imported user at its inviter's new id (0 when the inviter was not imported). */
export async function writeInviters(
  executor: Kysely<Database>,
  context: WriteContext,
  users: readonly LegacyUser[],
): Promise<BatchResult> {
  const invited = users.filter((user) => user.inviter_id > 0);
  const ids = await lookupIds(
    executor,
    context,
    'users',
    invited.flatMap((user) => [user.id, user.inviter_id]),
  );
  let written = 0;
  for (const user of invited) {
    const target = ids.resolve(user.id);
    if (target === undefined) continue;
    await executor
      .updateTable('users')
      .set({ inviter_id: ids.resolve(user.inviter_id) ?? 0 })
      .where('id', '=', target)
      .execute();
    written++;
  }
  return { written, skipped: [] };
}
