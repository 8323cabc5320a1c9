import {
  isRootRole,
  type KeywordPageQuery,
  keywordAsRowId,
  MAX_QUOTA,
  type Paged,
  Role,
  USER_SORT_FIELDS,
} from '@one-hub/contracts';
import { nowSeconds } from '../../platform/clock.js';
import { randomString } from '../../platform/crypto.js';
import {
  type DatabaseHandle,
  type Executor,
  fetchPage,
  insertReturningId,
  type NewUserRow,
  startsWithIgnoringCase,
  type UserRow,
  type UserUpdate,
} from '../../platform/db/index.js';

export class UserRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  get db() {
    return this.handle.db;
  }

  /** Users that are not soft-deleted. */
  private live(executor: Executor = this.handle.db) {
    return executor.selectFrom('users').selectAll().where('deleted_at', 'is', null);
  }

  findById(id: number, executor?: Executor): Promise<UserRow | undefined> {
    return this.live(executor).where('id', '=', id).executeTakeFirst();
  }

  /** The e-mail address of the root user (the oldest one), '' when it has none; for operator notices. */
  async rootEmail(): Promise<string> {
    const row = await this.live().where('role', '>=', Role.root).orderBy('id').executeTakeFirst();
    return row?.email ?? '';
  }

  findByUsername(username: string): Promise<UserRow | undefined> {
    return this.live().where('username', '=', username).executeTakeFirst();
  }

  /** Sign-in accepts the username or the e-mail address. */
  findByLogin(login: string): Promise<UserRow | undefined> {
    return this.live()
      .where((where) =>
        where.or([where('username', '=', login), where.and([where('email', '=', login), where('email', '!=', '')])]),
      )
      .orderBy('id')
      .executeTakeFirst();
  }

  findByAccessTokenHash(hash: string): Promise<UserRow | undefined> {
    return this.live().where('access_token_hash', '=', hash).executeTakeFirst();
  }

  findByAffCode(code: string): Promise<UserRow | undefined> {
    return this.live().where('aff_code', '=', code).executeTakeFirst();
  }

  async isEmailTaken(email: string, exceptUserId = 0): Promise<boolean> {
    const row = await this.live().where('email', '=', email).where('id', '!=', exceptUserId).executeTakeFirst();
    return row !== undefined;
  }

  async isUsernameTaken(username: string, exceptUserId = 0): Promise<boolean> {
    // Deleted users keep a renamed username, so checking every row is right here.
    const row = await this.handle.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .where('id', '!=', exceptUserId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async count(): Promise<number> {
    const row = await this.handle.db
      .selectFrom('users')
      .select((expression) => expression.fn.countAll().as('total'))
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** A random four-character invite code no live user holds yet. */
  async unusedAffCode(): Promise<string> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const code = randomString(attempt < 10 ? 4 : 6);
      const taken = await this.handle.db
        .selectFrom('users')
        .select('id')
        .where('aff_code', '=', code)
        .executeTakeFirst();
      if (!taken) return code;
    }
    return randomString(12);
  }

  insert(row: NewUserRow, executor: Executor = this.handle.db): Promise<number> {
    return insertReturningId(this.handle, executor.insertInto('users').values(row));
  }

  async update(id: number, patch: UserUpdate, executor: Executor = this.handle.db): Promise<void> {
    await executor.updateTable('users').set(patch).where('id', '=', id).where('deleted_at', 'is', null).execute();
  }

  /**
   * Adds `delta` (may be negative) in one conditional statement; false when the user does not
   * exist, or the balance would drop below zero or rise past `MAX_QUOTA` (then nothing changes).
   */
  addQuota(id: number, delta: number, executor: Executor = this.handle.db): Promise<boolean> {
    return this.changeBalance(id, delta, executor, false);
  }

  /**
   * Pays an invite reward as addQuota adds quota, with the two reward counters (`aff_quota`,
   * `aff_history`) raised in the same statement, so they never disagree with the balance.
   */
  addInviteReward(id: number, quota: number, executor: Executor = this.handle.db): Promise<boolean> {
    return quota > 0 ? this.changeBalance(id, quota, executor, true) : Promise.resolve(false);
  }

  private async changeBalance(id: number, delta: number, executor: Executor, reward: boolean): Promise<boolean> {
    if (!Number.isSafeInteger(delta) || Math.abs(delta) > MAX_QUOTA) return false;
    const result = await executor
      .updateTable('users')
      .set((expression) => ({
        quota: expression('quota', '+', delta),
        ...(reward
          ? { aff_quota: expression('aff_quota', '+', delta), aff_history: expression('aff_history', '+', delta) }
          : {}),
      }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where((expression) =>
        delta < 0 ? expression('quota', '>=', -delta) : expression('quota', '<=', MAX_QUOTA - delta),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Counts one more invitee for a live inviter. */
  async countInvitee(inviterId: number, executor: Executor = this.handle.db): Promise<void> {
    await executor
      .updateTable('users')
      .set((expression) => ({ aff_count: expression('aff_count', '+', 1) }))
      .where('id', '=', inviterId)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /**
   * Ends every session of a user in one statement: the session generation moves on, so each cookie
   * issued before is refused, together with `patch` (a new password hash, a revoked access token).
   */
  async revokeSessions(id: number, patch: UserUpdate = {}, executor: Executor = this.handle.db): Promise<void> {
    await executor
      .updateTable('users')
      .set((expression) => ({ ...patch, session_generation: expression('session_generation', '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /**
   * Sets a new password hash: like every password change it also revokes the access token and
   * ends every session, so whoever held either before holds nothing now.
   */
  setPassword(id: number, passwordHash: string, patch: UserUpdate = {}, executor?: Executor): Promise<void> {
    return this.revokeSessions(id, { ...patch, password: passwordHash, access_token_hash: null }, executor);
  }

  /**
   * Ids of the accounts `viewer` does not outrank, itself excepted: whose rows, codes and logs it
   * may not see. Deleted accounts count too (their records stay). None for root. Staff are few, so
   * the list is short and a query can carry it as a plain `not in`.
   */
  async idsNotOutrankedBy(viewer: Pick<UserRow, 'id' | 'role'>): Promise<number[]> {
    if (isRootRole(viewer.role)) return [];
    const rows = await this.handle.db
      .selectFrom('users')
      .select('id')
      .where('role', '>=', viewer.role)
      .where('id', '!=', viewer.id)
      .execute();
    return rows.map((row) => Number(row.id));
  }

  async recordLogin(id: number, ip: string): Promise<void> {
    await this.update(id, { last_login_time: nowSeconds(), last_login_ip: ip.slice(0, 128) });
  }

  /** Soft delete; the username is renamed so it can be registered again. */
  async softDelete(user: UserRow, executor: Executor = this.handle.db): Promise<void> {
    await executor
      .updateTable('users')
      .set({
        username: `${user.username}_del_${randomString(6)}`,
        access_token_hash: null,
        deleted_at: nowSeconds(),
      })
      .where('id', '=', user.id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** Live users `viewer` may see: itself and those it outranks (everyone, for root). */
  async list(viewer: Pick<UserRow, 'id' | 'role'>, paging: KeywordPageQuery): Promise<Paged<UserRow>> {
    let query = this.live();
    if (!isRootRole(viewer.role)) {
      query = query.where((where) => where.or([where('role', '<', viewer.role), where('id', '=', viewer.id)]));
    }
    const keyword = paging.keyword;
    if (keyword) {
      const id = keywordAsRowId(keyword);
      query = query.where((where) =>
        where.or([
          ...(id === undefined ? [] : [where('id', '=', id)]),
          startsWithIgnoringCase('username', keyword),
          startsWithIgnoringCase('email', keyword),
          startsWithIgnoringCase('display_name', keyword),
          startsWithIgnoringCase('group', keyword),
        ]),
      );
    }
    return fetchPage(query, paging, USER_SORT_FIELDS);
  }
}
