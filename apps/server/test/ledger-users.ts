import { type DatabaseHandle, insertReturningId } from '../src/platform/db/index.js';

/** A bare user row with `quota`, for the ledger tests (no service, no hashing). */
export async function insertUser(handle: DatabaseHandle, id: number, quota: number): Promise<number> {
  await handle.db
    .insertInto('users')
    .values({
      id,
      username: `u${id}`,
      password: 'x',
      display_name: '',
      role: 1,
      status: 1,
      email: '',
      avatar_url: '',
      oidc_id: '',
      github_id: '',
      github_id_new: 0,
      wechat_id: '',
      lark_id: '',
      telegram_id: 0,
      access_token_hash: null,
      quota,
      used_quota: 0,
      request_count: 0,
      group: 'default',
      aff_code: `a${id}`,
      inviter_id: 0,
      last_login_time: 0,
      last_login_ip: '',
      created_time: 0,
      deleted_at: null,
    })
    .execute();
  return id;
}

/** The user's quota as the database holds it. */
export async function storedQuotaOf(handle: DatabaseHandle, id: number): Promise<number> {
  return Number(
    (await handle.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota,
  );
}

/** A bare API-key row of `user`: a limited key holding `remainQuota`, or an unlimited one. */
export async function insertToken(
  handle: DatabaseHandle,
  user: number,
  key: { remainQuota: number; unlimited: boolean },
): Promise<number> {
  const query = handle.db.insertInto('tokens').values({
    user_id: user,
    name: 'k',
    key_hash: `hash-${user}-${Math.random()}`,
    key_cipher: 'x',
    status: 1,
    created_time: 0,
    accessed_time: 0,
    expired_time: -1,
    remain_quota: key.remainQuota,
    unlimited_quota: key.unlimited,
    used_quota: 0,
    group: '',
    backup_group: '',
    setting: '{}',
  });
  return insertReturningId(handle, query);
}

/** What the database holds of a key's quota. */
export async function storedTokenOf(handle: DatabaseHandle, id: number) {
  const row = await handle.db
    .selectFrom('tokens')
    .select(['remain_quota', 'used_quota', 'accessed_time'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { remain: Number(row.remain_quota), used: Number(row.used_quota), accessed: Number(row.accessed_time) };
}
