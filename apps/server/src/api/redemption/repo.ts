import {
  keywordAsRowId,
  type Paged,
  type PageQuery,
  REDEMPTION_SORT_FIELDS,
  RedemptionStatus,
  Role,
} from '@one-hub/contracts';
import {
  type DatabaseHandle,
  type Executor,
  fetchPage,
  type NewRedemptionRow,
  type RedemptionRow,
  startsWithIgnoringCase,
} from '../../platform/db/index.js';

export class RedemptionRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  get db() {
    return this.handle.db;
  }

  /**
   * `keyword`: an id exactly, or the start of a name (case-insensitive); `status` 0 or absent: every status;
   * codes created by `hiddenCreators` are left out.
   */
  list(
    filter: { keyword?: string | undefined; status?: number | undefined; hiddenCreators: readonly number[] },
    paging: PageQuery,
  ): Promise<Paged<RedemptionRow>> {
    const { keyword, status, hiddenCreators } = filter;
    let query = this.handle.db.selectFrom('redemptions').selectAll();
    if (hiddenCreators.length > 0) query = query.where('user_id', 'not in', [...hiddenCreators]);
    if (status) query = query.where('status', '=', status);
    if (keyword) {
      const id = keywordAsRowId(keyword);
      query = query.where((where) =>
        where.or([...(id === undefined ? [] : [where('id', '=', id)]), startsWithIgnoringCase('name', keyword)]),
      );
    }
    return fetchPage(query, paging, REDEMPTION_SORT_FIELDS);
  }

  /** Usernames of the given accounts, in one query for a whole page of codes; absent ids are left out. */
  async usernames(ids: readonly number[]): Promise<Map<number, string>> {
    const wanted = [...new Set(ids.filter((id) => id > 0))];
    if (wanted.length === 0) return new Map();
    const rows = await this.handle.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('id', 'in', wanted)
      .execute();
    return new Map(rows.map((row) => [Number(row.id), row.username]));
  }

  findById(id: number, executor: Executor = this.handle.db): Promise<RedemptionRow | undefined> {
    return executor.selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByKeyHash(hash: string, executor: Executor = this.handle.db): Promise<RedemptionRow | undefined> {
    return executor.selectFrom('redemptions').selectAll().where('key_hash', '=', hash).executeTakeFirst();
  }

  /** Inserts the codes in one statement and returns their ids, in id order. */
  async insertMany(rows: readonly NewRedemptionRow[], executor: Executor = this.handle.db): Promise<number[]> {
    if (rows.length === 0) return [];
    await executor
      .insertInto('redemptions')
      .values([...rows])
      .execute();
    const inserted = await executor
      .selectFrom('redemptions')
      .select('id')
      .where(
        'key_hash',
        'in',
        rows.map((row) => row.key_hash),
      )
      .orderBy('id')
      .execute();
    return inserted.map((row) => Number(row.id));
  }

  /** Renames or re-prices a code that has not been redeemed; false when there is no such code. */
  async updateUnredeemed(
    id: number,
    patch: { name?: string; quota?: number },
    executor: Executor = this.handle.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('redemptions')
      .set(patch)
      .where('id', '=', id)
      .where('status', '!=', RedemptionStatus.redeemed)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Renames any code, redeemed or not. */
  async rename(id: number, name: string, executor: Executor = this.handle.db): Promise<void> {
    await executor.updateTable('redemptions').set({ name }).where('id', '=', id).execute();
  }

  /**
   * Enables or disables a code in one conditional statement, so a code being redeemed at the same
   * moment stays redeemed; false when it was already redeemed or does not exist.
   */
  async setStatusUnlessRedeemed(
    id: number,
    status: RedemptionStatus,
    executor: Executor = this.handle.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('redemptions')
      .set({ status })
      .where('id', '=', id)
      .where('status', '!=', RedemptionStatus.redeemed)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(id: number, executor: Executor = this.handle.db): Promise<boolean> {
    const result = await executor.deleteFrom('redemptions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /**
   * Marks an enabled code redeemed by `userId`. The status condition makes this the one place a
   * code is spent: of any number of concurrent attempts exactly one updates the row. Nobody
   * redeems a code they created, so an administrator cannot mint quota for themselves; and with
   * `staffRedeemer` (the redeemer is an admin or root) no code an admin or root created either,
   * so administrators cannot mint quota for each other.
   */
  async claim(
    executor: Executor,
    keyHash: string,
    redeemer: { userId: number; staffRedeemer: boolean },
    now: number,
  ): Promise<boolean> {
    const { userId, staffRedeemer } = redeemer;
    let update = executor
      .updateTable('redemptions')
      .set({ status: RedemptionStatus.redeemed, redeemed_time: now, redeemed_user_id: userId })
      .where('key_hash', '=', keyHash)
      .where('status', '=', RedemptionStatus.enabled)
      .where('user_id', '!=', userId);
    if (staffRedeemer) {
      update = update.where('user_id', 'not in', (expression) =>
        expression.selectFrom('users').select('id').where('role', '>=', Role.admin),
      );
    }
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
