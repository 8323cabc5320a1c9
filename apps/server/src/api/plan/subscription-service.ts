import {
  type GrantPlanBody,
  LogType,
  type Paged,
  parseStoredBudgets,
  type SubscriberView,
  type SubscriptionListQuery,
  type SubscriptionView,
  type UserGroupView,
  type UserPlanView,
} from '@one-hub/contracts';
import type { ActivePlan, ActivePlanReader } from '../../domain/active-plan.js';
import { type BudgetUsageReader, userBudgetSubjects } from '../../domain/budget-windows.js';
import type { ChangeBus } from '../../platform/changes.js';
import {
  type Executor,
  isTransactionConflict,
  type PlanRow,
  toBoolean,
  type UserRow,
} from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { changedFields } from '../audit/changes.js';
import { recordAudit } from '../audit/recorder.js';
import type { LogRepository } from '../log/repo.js';
import type { PaidPlanOrder, PlanOrders } from '../payment/notify-service.js';
import { assertOutranks } from '../user/rank.js';
import type { UserRepository } from '../user/repo.js';
import { type Activated, type ActivationDeps, activate, dateText, endSubscription } from './activation.js';
import { storedModels, toSubscriptionView } from './presenter.js';
import type { PlanRepository } from './repo.js';
import { endNow, listSubscribers, type SubscriptionAdminDeps } from './subscription-admin.js';
import type { SubscriptionRepository } from './subscription-repo.js';

export interface SubscriptionServiceDeps {
  repo: SubscriptionRepository;
  plans: PlanRepository;
  users: UserRepository;
  groups: { all(): Promise<UserGroupView[]> };
  logs: LogRepository;
  changes: ChangeBus;
  /** Milliseconds since the epoch; tests drive it. */
  clock: () => number;
}

/** How many of a user's subscriptions `GET /api/user/plan` shows (the active one among them). */
const RECENT_SUBSCRIPTIONS = 10;
/** Subscriptions the expiry job ends per statement batch. */
const EXPIRY_BATCH = 200;

/**
 * Users' subscriptions: activation by a paid order or a grant, expiry, and the relay's view of a
 * user's active plan, held in memory per user and dropped on every change, on every node.
 */
export class SubscriptionService implements PlanOrders, ActivePlanReader {
  private readonly cache = new Map<number, ActivePlan | null>();
  private readonly loading = new Map<number, Promise<ActivePlan | null>>();
  /** Bumped by every invalidation, so a read that started before it is not cached after it. */
  private generation = 0;
  private readonly steps: ActivationDeps;

  constructor(private readonly deps: SubscriptionServiceDeps) {
    this.steps = { subscriptions: deps.repo, users: deps.users, logs: deps.logs };
    deps.changes.on('subscriptions', ({ userId }) => {
      this.generation++;
      if (userId === undefined) this.cache.clear();
      else this.cache.delete(userId);
    });
  }

  private nowSeconds(): number {
    return Math.floor(this.deps.clock() / 1000);
  }

  cachedFor(userId: number): ActivePlan | null | undefined {
    const value = this.cache.get(userId);
    if (value === undefined || value === null) return value;
    return value.expiresAt > this.deps.clock() ? value : null;
  }

  /** The user's active plan, from memory after the first read; a plan past its end is none. */
  async activeFor(userId: number): Promise<ActivePlan | undefined> {
    let value = this.cache.get(userId);
    if (value === undefined) {
      let pending = this.loading.get(userId);
      if (!pending) {
        const generation = this.generation;
        pending = this.load(userId).then((loaded) => {
          if (generation === this.generation) this.cache.set(userId, loaded);
          return loaded;
        });
        pending.finally(() => this.loading.delete(userId)).catch(() => undefined);
        this.loading.set(userId, pending);
      }
      value = await pending;
    }
    return value && value.expiresAt > this.deps.clock() ? value : undefined;
  }

  private async load(userId: number): Promise<ActivePlan | null> {
    const current = await this.current(userId);
    if (!current) return null;
    const { row, plan } = current;
    return {
      subscriptionId: row.id,
      planId: plan.id,
      expiresAt: Number(row.expires_at) * 1000,
      budgets: parseStoredBudgets(plan.budgets),
      models: storedModels(plan.models),
      fallbackToBalance: toBoolean(plan.fallback_to_balance),
    };
  }

  /** The user's subscription that has not ended, with its plan (deleted or not), from the database. */
  async current(userId: number) {
    const row = await this.deps.repo.active(userId);
    if (!row || Number(row.expires_at) <= this.nowSeconds()) return undefined;
    const [plan] = await this.deps.plans.findAny([row.plan_id]);
    return plan ? { row, plan } : undefined;
  }

  /** `GET /api/user/plan`: the caller's recent subscriptions, the active one with its windows. */
  async userPlan(caller: UserRow, usage: BudgetUsageReader): Promise<UserPlanView> {
    const rows = await this.deps.repo.recent(caller.id, RECENT_SUBSCRIPTIONS);
    const plans = new Map(
      (await this.deps.plans.findAny(rows.map((row) => row.plan_id))).map((plan) => [plan.id, plan]),
    );
    const now = this.nowSeconds();
    const subscriptions: SubscriptionView[] = [];
    for (const row of rows) {
      const view = toSubscriptionView(row, plans.get(row.plan_id), now, []);
      const plan = plans.get(row.plan_id);
      if (view.status === 'active' && plan) view.windows = await this.windowsOf(row.id, plan, usage);
      subscriptions.push(view);
    }
    const group = (await this.deps.groups.all()).find((entry) => entry.symbol === caller.group);
    const own = { id: caller.id, budgets: parseStoredBudgets(caller.budgets) };
    return { subscriptions, windows: await usage.windows(userBudgetSubjects(own, group)) };
  }

  private windowsOf(subscriptionId: number, plan: PlanRow, usage: BudgetUsageReader) {
    const budgets = parseStoredBudgets(plan.budgets);
    return usage.windows([{ scope: 'plan', subject: `sub:${subscriptionId}`, budgets }]);
  }

  /**
   * `POST /api/plan/grant`: an administrator gives a user it outranks a plan, or one more period
   * of the plan they hold. A disabled plan may be granted (a plan kept off the shop); a deleted
   * one may not. A user holding another plan is a 409 naming it.
   */
  async grant(caller: UserRow, body: GrantPlanBody, usage: BudgetUsageReader, sourceIp: string) {
    const target = await this.deps.users.findById(body.user_id);
    if (!target) throw AppError.notFound(`user ${body.user_id} not found`, 'user_id');
    assertOutranks(caller, target);
    const plan = await this.deps.plans.findLive(body.plan_id);
    if (!plan) throw AppError.notFound(`plan ${body.plan_id} not found`, 'plan_id');
    const groups = await this.deps.groups.all();
    const activated = await retryOnConflict(() =>
      this.deps.repo.db.transaction().execute(async (transaction) => {
        const now = this.nowSeconds();
        const request = { userId: target.id, plan, source: 'grant' as const, tradeNo: '', now, groups };
        const result = await activate(this.steps, transaction, request);
        await this.deps.logs.insert(transaction, {
          userId: target.id,
          username: target.username,
          type: LogType.system,
          sourceIp,
          content: `管理员${result.renewed ? '续期' : '赠送'}套餐 ${plan.name}，有效期至 ${dateText(result.expiresAt)}，操作者 #${caller.id}`,
          event: { ...subscribedEvent(plan, result, 'grant'), operator_id: caller.id },
        });
        await recordAudit(transaction, {
          resource: 'plan',
          action: 'grant',
          targetId: plan.id,
          targetName: plan.name,
          changes: changedFields(undefined, {
            user_id: target.id,
            username: target.username,
            renewed: result.renewed,
            expires_at: result.expiresAt,
          }),
        });
        return result;
      }),
    );
    this.announce(target.id, activated.groupChanged);
    const row = await this.deps.repo.active(target.id);
    if (!row) throw AppError.conflict('the granted plan ended already');
    return toSubscriptionView(row, plan, this.nowSeconds(), await this.windowsOf(row.id, plan, usage));
  }

  /** `GET /api/plan/subscriptions`: the running subscriptions, each `endable` when the caller outranks its holder. */
  subscribers(caller: UserRow, query: SubscriptionListQuery): Promise<Paged<SubscriberView>> {
    return listSubscribers(this.adminDeps(), caller, query);
  }

  /** `POST /api/plan/subscription/:id/end`: ends it now; the relay's copies drop the plan at once, on every node. */
  async end(caller: UserRow, id: number, sourceIp: string): Promise<SubscriptionView> {
    const ended = await endNow(this.adminDeps(), caller, id, sourceIp);
    this.announce(ended.userId, ended.groupChanged);
    return ended.view;
  }

  private adminDeps(): SubscriptionAdminDeps {
    return { ...this.deps, steps: this.steps, now: this.nowSeconds() };
  }

  /** A paid plan order, inside the transaction that settled it (api/payment/notify-service.ts). */
  async activate(executor: Executor, paid: PaidPlanOrder): Promise<() => void> {
    const { order, user } = paid;
    const plan = await executor.selectFrom('plans').selectAll().where('id', '=', order.plan_id).executeTakeFirst();
    // Bought while it was on sale: a plan deleted since is still delivered.
    if (!plan) throw new Error(`order ${order.trade_no} buys plan ${order.plan_id}, which does not exist`);
    const now = this.nowSeconds();
    const request = {
      userId: user.id,
      plan,
      source: 'order' as const,
      tradeNo: order.trade_no,
      now,
      groups: paid.groups,
    };
    const result = await activate(this.steps, executor, request);
    await this.deps.logs.insert(executor, {
      userId: user.id,
      username: user.username,
      type: LogType.topup,
      sourceIp: paid.sourceIp,
      content:
        `在线${result.renewed ? '续费' : '购买'}套餐 ${plan.name}，有效期至 ${dateText(result.expiresAt)}，` +
        `支付 ${paid.paid} ${order.order_currency}，订单 ${order.trade_no}`,
      event: {
        ...subscribedEvent(plan, result, 'order'),
        trade_no: order.trade_no,
        paid: paid.paid,
        currency: order.order_currency,
      },
    });
    return () => this.announce(user.id, result.groupChanged);
  }

  /**
   * Ends every subscription past its end (the master node's job, every minute): the user goes
   * back to their group and the relay's copies drop the plan. Returns how many ended.
   */
  async expireDue(): Promise<number> {
    let ended = 0;
    for (;;) {
      const due = await this.deps.repo.due(this.nowSeconds(), EXPIRY_BATCH);
      if (due.length === 0) return ended;
      const groups = await this.deps.groups.all();
      for (const row of due) {
        const result = await this.deps.repo.db
          .transaction()
          .execute((transaction) => endSubscription(this.steps, transaction, row, groups, this.nowSeconds()));
        if (result.ended) ended++;
        this.announce(row.user_id, result.returnedTo !== undefined);
      }
      if (due.length < EXPIRY_BATCH) return ended;
    }
  }

  /** A plan's allowance, models or fallback changed: every cached active plan is read again. */
  plansChanged(): void {
    void this.deps.changes.publish('subscriptions', {});
  }

  /** The relay's copies follow at once, on every node: the user's plan, and their group when it moved. */
  private announce(userId: number, groupChanged: boolean): void {
    void this.deps.changes.publish('subscriptions', { userId });
    if (groupChanged) void this.deps.changes.publish('users', { id: userId });
  }
}

function subscribedEvent(plan: PlanRow, result: Activated, source: 'order' | 'grant') {
  return {
    event: 'plan_subscribed' as const,
    plan_id: plan.id,
    plan_name: plan.name,
    expires_at: result.expiresAt,
    renewed: result.renewed,
    source,
  };
}

/** Two activations for one user that collide (its one active slot, a deadlock): the loser runs again and renews. */
async function retryOnConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= 2 || !isTransactionConflict(error)) throw error;
    }
  }
}
