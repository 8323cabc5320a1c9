import {
  type Paged,
  SUBSCRIPTION_SORT_FIELDS,
  type SubscriptionListQuery,
  type SubscriptionStatus,
} from '@one-hub/contracts';
import {
  type DatabaseHandle,
  type Executor,
  fetchPage,
  insertReturningId,
  type SubscriptionRow,
  type UserRow,
} from '../../platform/db/index.js';

const DAY_SECONDS = 86_400;

export interface NewSubscription {
  userId: number;
  planId: number;
  startedAt: number;
  expiresAt: number;
  group: string;
  previousGroup: string;
  source: 'order' | 'grant';
  tradeNo: string;
}

/**
 * Subscriptions. Every change is one conditional statement on the row, run in the caller's
 * transaction; the unique index on (user_id, active_slot) keeps a user to one active row.
 */
export class SubscriptionRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  get db() {
    return this.handle.db;
  }

  /**
   * Takes the user's row lock (a write that changes nothing) so activations for one user queue
   * in order instead of deadlocking on the subscriptions index; SQLite runs one write at a time.
   */
  async lockUser(executor: Executor, userId: number): Promise<void> {
    await executor
      .updateTable('users')
      .set((update) => ({ group: update.ref('group') }))
      .where('id', '=', userId)
      .execute();
  }

  /** The user's active row (even past its end: the caller decides), with its plan's id. */
  active(userId: number, executor: Executor = this.handle.db): Promise<SubscriptionRow | undefined> {
    return executor
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .executeTakeFirst();
  }

  findById(id: number): Promise<SubscriptionRow | undefined> {
    return this.handle.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The subscriptions running at `nowSeconds` (of `plan_id` when given), paged, newest first unless ordered. */
  running(query: SubscriptionListQuery, nowSeconds: number): Promise<Paged<SubscriptionRow>> {
    let select = this.handle.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('status', '=', 'active')
      .where('expires_at', '>', nowSeconds);
    if (query.plan_id !== undefined) select = select.where('plan_id', '=', query.plan_id);
    return fetchPage(select, { ...query, order: query.order || '-id' }, SUBSCRIPTION_SORT_FIELDS);
  }

  /** The users holding subscriptions, deleted ones included: a subscription outlives its holder's deletion. */
  holders(ids: readonly number[]): Promise<UserRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.handle.db
      .selectFrom('users')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  /** The user's newest subscriptions, active first. */
  recent(userId: number, limit: number): Promise<SubscriptionRow[]> {
    return this.handle.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('active_slot')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Active rows whose end has come, oldest first, for the expiry job. */
  due(nowSeconds: number, limit: number): Promise<SubscriptionRow[]> {
    return this.handle.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('status', '=', 'active')
      .where('expires_at', '<=', nowSeconds)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
  }

  /** Adds `days` to the user's active subscription to `planId`; false when they hold no such one. */
  async extend(executor: Executor, userId: number, planId: number, days: number, nowSeconds: number): Promise<boolean> {
    const result = await executor
      .updateTable('subscriptions')
      .set((update) => ({
        expires_at: update('expires_at', '+', days * DAY_SECONDS),
        updated_at: nowSeconds,
      }))
      .where('user_id', '=', userId)
      .where('plan_id', '=', planId)
      .where('status', '=', 'active')
      .where('expires_at', '>', nowSeconds)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Active → expired, once: false when another pass (or node) got there first. `early`: ended
   * before its end, which becomes now; false too when that end has already come.
   */
  async expire(executor: Executor, id: number, nowSeconds: number, early = false): Promise<boolean> {
    const expired: SubscriptionStatus = 'expired';
    let update = executor
      .updateTable('subscriptions')
      .set((update) => ({ status: expired, active_slot: update.ref('id'), updated_at: nowSeconds }))
      .where('id', '=', id)
      .where('status', '=', 'active');
    if (early) update = update.set({ expires_at: nowSeconds }).where('expires_at', '>', nowSeconds);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A unique violation when the user already holds an active row (a concurrent activation won). */
  insert(executor: Executor, subscription: NewSubscription, nowSeconds: number): Promise<number> {
    return insertReturningId(
      this.handle,
      executor.insertInto('subscriptions').values({
        user_id: subscription.userId,
        plan_id: subscription.planId,
        status: 'active',
        active_slot: 0,
        started_at: subscription.startedAt,
        expires_at: subscription.expiresAt,
        group: subscription.group,
        previous_group: subscription.previousGroup,
        source: subscription.source,
        order_trade_no: subscription.tradeNo,
        created_at: nowSeconds,
        updated_at: nowSeconds,
      }),
    );
  }

  /** Moves the user back to `to` only while they are still in `from` (an administrator may have moved them). */
  async returnGroup(executor: Executor, userId: number, from: string, to: string): Promise<boolean> {
    const result = await executor
      .updateTable('users')
      .set({ group: to })
      .where('id', '=', userId)
      .where('group', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
