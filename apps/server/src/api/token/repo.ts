import type { Paged, PageQuery } from '@one-hub/contracts';
import type { Updateable } from 'kysely';
import { nowSeconds } from '../../platform/clock.js';
import {
  type DatabaseHandle,
  type Executor,
  fetchPage,
  insertReturningId,
  type NewTokenRow,
  startsWithIgnoringCase,
  type TokenRow,
  type TokensTable,
} from '../../platform/db/index.js';
import { userNamesById } from '../user/names.js';

export const TOKEN_SORT_FIELDS = [
  'id',
  'name',
  'status',
  'expired_time',
  'created_time',
  'remain_quota',
  'used_quota',
] as const;

export type TokenUpdate = Updateable<TokensTable>;

export interface TokenFilter {
  userId?: number | undefined;
  tokenId?: number | undefined;
  /** Prefix of the token name, case-insensitive. */
  keyword?: string | undefined;
  /** Leave out tokens whose owner's role is this or higher (an administrator's view); absent: everyone's. */
  ownerRoleBelow?: number | undefined;
}

/** The few user columns the token rules need. */
export interface TokenOwner {
  id: number;
  username: string;
  display_name: string;
  group: string;
  role: number;
}

export class TokenRepository {
  constructor(readonly handle: DatabaseHandle) {}

  transaction<Result>(work: (executor: Executor) => Promise<Result>): Promise<Result> {
    return this.handle.db.transaction().execute(work);
  }

  /** Tokens that are not soft-deleted. */
  private live(executor: Executor = this.handle.db) {
    return executor.selectFrom('tokens').selectAll().where('deleted_at', 'is', null);
  }

  /** The relay's lookup: a live token by the SHA-256 of its key body. */
  findByKeyHash(hash: string): Promise<TokenRow | undefined> {
    return this.live().where('key_hash', '=', hash).executeTakeFirst();
  }

  findById(id: number, executor?: Executor): Promise<TokenRow | undefined> {
    return this.live(executor).where('id', '=', id).executeTakeFirst();
  }

  /** A token only if it belongs to `userId`, so another user's id looks exactly like a missing one. */
  findOwned(userId: number, id: number): Promise<TokenRow | undefined> {
    return this.live().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  /** The user's oldest live token with exactly this name. */
  findByName(userId: number, name: string): Promise<TokenRow | undefined> {
    return this.live().where('user_id', '=', userId).where('name', '=', name).orderBy('id').executeTakeFirst();
  }

  list(filter: TokenFilter, paging: PageQuery): Promise<Paged<TokenRow>> {
    let query = this.live();
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.tokenId !== undefined) query = query.where('id', '=', filter.tokenId);
    if (filter.keyword) query = query.where(startsWithIgnoringCase('name', filter.keyword));
    const { ownerRoleBelow } = filter;
    if (ownerRoleBelow !== undefined) {
      query = query.where('user_id', 'not in', (users) =>
        users.selectFrom('users').select('id').where('role', '>=', ownerRoleBelow),
      );
    }
    return fetchPage(query, paging, TOKEN_SORT_FIELDS);
  }

  insert(row: NewTokenRow): Promise<number> {
    return insertReturningId(this.handle, this.handle.db.insertInto('tokens').values(row));
  }

  /**
   * Plain SET of the given columns. Quota columns are also moved by the relay's billing; callers
   * pass `remain_quota` only when a person chose a new value, which then wins by design.
   */
  async update(id: number, patch: TokenUpdate, executor: Executor = this.handle.db): Promise<void> {
    if (Object.keys(patch).length === 0) return;
    await executor.updateTable('tokens').set(patch).where('id', '=', id).where('deleted_at', 'is', null).execute();
  }

  async softDelete(id: number): Promise<void> {
    await this.handle.db
      .updateTable('tokens')
      .set({ deleted_at: nowSeconds() })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  findOwner(userId: number): Promise<TokenOwner | undefined> {
    return this.handle.db
      .selectFrom('users')
      .select(['id', 'username', 'display_name', 'group', 'role'])
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** The role of a token's owner, deleted or not; undefined when no such user row exists. */
  async ownerRole(userId: number): Promise<number | undefined> {
    const row = await this.handle.db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst();
    return row?.role;
  }

  /** Display name (or username) of each owner; deleted owners are included so old tokens still show a name. */
  async ownerNames(userIds: readonly number[]): Promise<Map<number, string>> {
    const names = await userNamesById(this.handle, userIds);
    return new Map([...names].map(([id, name]) => [id, name.display_name || name.username]));
  }
}
