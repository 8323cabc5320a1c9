import { LogType, OrderStatus, type UserGroupView } from '@one-hub/contracts';
import type { GatewayAnswer, GatewayCallback, GatewayCallbackResult } from '../../payments/gateway.js';
import { centsOf, centsText } from '../../payments/money.js';
import { type Executor, isTransactionConflict, type OrderRow, type UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import { logQuota } from '../log/format.js';
import type { LogEntry } from '../log/repo.js';
import { announceTopUp, creditTopUp, type TopUpCreditDeps } from '../redemption/credit.js';
import type { GatewayService, UsableGateway } from './gateway-service.js';
import type { PaymentRepository } from './repo.js';

/** A paid order for a plan, handed to the plan side inside the transaction that settled it. */
export interface PaidPlanOrder {
  order: OrderRow;
  user: Pick<UserRow, 'id' | 'username'>;
  /** "10.00", in the order's currency. */
  paid: string;
  sourceIp: string;
  /** Read before the transaction (SQLite's one connection). */
  groups: readonly UserGroupView[];
}

/** Activates what a paid plan order bought (api/plan); the composition root wires it. */
export interface PlanOrders {
  /**
   * In the caller's transaction: activates or renews the plan and writes the log row; throws a
   * 409 AppError when the user holds another plan. Answers what to announce after the commit.
   */
  activate(executor: Executor, paid: PaidPlanOrder): Promise<() => void>;
}

export interface NotifyServiceDeps extends TopUpCreditDeps {
  repo: PaymentRepository;
  /** Orders with a plan_id activate it instead of crediting quota. */
  plans?: PlanOrders | undefined;
  gateways: GatewayService;
  groups: { all(): Promise<UserGroupView[]> };
  logger: Logger;
}

type Paid = Extract<GatewayCallbackResult, { kind: 'paid' }>;
type Failed = Extract<GatewayCallbackResult, { kind: 'failed' }>;

/**
 * Vendor callbacks (`ANY /api/payment/notify/:uuid`). An order is credited only by a verified
 * `paid` result whose amount (and currency, when the vendor names one) equals the order's, through
 * one conditional pending → success update in the transaction that credits the balance: duplicate
 * and concurrent callbacks, on any number of nodes, credit once. Every attempt is logged.
 */
export class NotifyService {
  constructor(private readonly deps: NotifyServiceDeps) {}

  /** Undefined when the uuid names no enabled gateway this server handles ("payment not found"). */
  async handle(uuid: string, callback: GatewayCallback, clientIp: string): Promise<GatewayAnswer | undefined> {
    const usable = await this.deps.gateways.usable(uuid);
    if (!usable) {
      this.deps.logger.warn({ uuid, ip: clientIp }, 'payment callback for an unknown or disabled gateway');
      return undefined;
    }
    const context = { gateway: uuid, type: usable.row.type, ip: clientIp };
    let result: GatewayCallbackResult;
    try {
      result = await usable.gateway.verify(usable.config, callback, { uuid });
    } catch (error) {
      result = { kind: 'rejected', reason: error instanceof Error ? error.message : 'verification failed' };
    }
    if (result.kind === 'rejected') {
      this.deps.logger.warn({ ...context, reason: result.reason }, 'payment callback rejected');
      return usable.gateway.answer('fail');
    }
    if (result.kind === 'ignored') {
      this.deps.logger.info({ ...context, reason: result.reason }, 'payment callback acknowledged, nothing to credit');
      return usable.gateway.answer('ok');
    }
    const outcome =
      result.kind === 'failed' ? await this.recordFailure(usable, result) : await this.settle(usable, result, clientIp);
    this.deps.logger[outcome.level](
      { ...context, tradeNo: result.tradeNo, reason: outcome.reason },
      'payment callback',
    );
    return usable.gateway.answer(outcome.answer);
  }

  private async settle(usable: UsableGateway, paid: Paid, clientIp: string): Promise<Outcome> {
    const order = await this.deps.repo.findOrder(paid.tradeNo);
    if (!order) return refuse(`no order ${paid.tradeNo}`);
    if (order.gateway_id !== usable.row.id) return this.refuseOrder(order, 'the notice reached another gateway');
    if (order.status !== OrderStatus.pending) return this.notPending(order, paid);
    const mismatch = mismatchOf(order, paid);
    if (mismatch) return this.recordMismatch(order, paid, mismatch);
    const user = await this.deps.users.findById(order.user_id);
    if (!user) return refuse(`the account of order ${paid.tradeNo} no longer exists`);
    const groups = await this.deps.groups.all();
    let credited: Credited | false | undefined;
    // Two activations for one user can collide (its one active slot, or a deadlock): the retry renews.
    for (let attempt = 0; credited === undefined; attempt++) {
      try {
        credited = await this.deps.repo.db.transaction().execute(async (transaction) => {
          if (!(await this.deps.repo.settlePending(transaction, order.trade_no, OrderStatus.success, paid.gatewayNo))) {
            return false;
          }
          return this.credit(transaction, { order, user, paid: centsText(paid.paidCents), sourceIp: clientIp, groups });
        });
      } catch (error) {
        if (attempt < 2 && isTransactionConflict(error)) continue;
        if (order.plan_id > 0 && error instanceof AppError && error.status === 409) {
          return this.recordMismatch(order, paid, error.message);
        }
        // Rolled back: the order is still pending and the vendor will call again.
        return { level: 'error', answer: 'fail', reason: error instanceof Error ? error.message : String(error) };
      }
    }
    if (credited === false) return this.notPending((await this.deps.repo.findOrder(order.trade_no)) ?? order, paid);
    credited.announce();
    return { level: 'info', answer: 'ok', reason: credited.reason };
  }

  /** A top-up's quota, or the plan an order buys; inside the transaction that settled the order. */
  private async credit(transaction: Executor, paid: PaidPlanOrder): Promise<Credited> {
    const { order, user } = paid;
    if (order.plan_id > 0) {
      if (!this.deps.plans) throw new Error(`order ${order.trade_no} buys a plan and no plan service is wired`);
      const announce = await this.deps.plans.activate(transaction, paid);
      return { announce, reason: `activated plan ${order.plan_id} for user ${user.id}` };
    }
    const quota = Number(order.quota);
    const reward = await creditTopUp(this.deps, transaction, {
      user,
      quota,
      sourceIp: paid.sourceIp,
      content: `在线充值 ${logQuota(quota, this.deps.options)}，支付 ${paid.paid} ${order.order_currency}，订单 ${order.trade_no}`,
      event: {
        event: 'online_topup',
        quota,
        paid: paid.paid,
        currency: order.order_currency,
        trade_no: order.trade_no,
      },
      groups: paid.groups,
      refusal: 'the order stays pending',
    });
    return {
      announce: () => announceTopUp(this.deps, user.id, quota, reward),
      reason: `credited ${quota} quota to user ${user.id}`,
    };
  }

  /**
   * The vendor says the payment failed for good (Stripe's delayed debit bounced): a pending order
   * becomes `failed` with the vendor's number, nothing is credited, and the payer's log says why.
   * A repeat, or a failure for an order no longer pending, is acknowledged and changes nothing.
   */
  private async recordFailure(usable: UsableGateway, failed: Failed): Promise<Outcome> {
    const order = await this.deps.repo.findOrder(failed.tradeNo);
    if (!order) return refuse(`no order ${failed.tradeNo}`);
    if (order.gateway_id !== usable.row.id) return this.refuseOrder(order, 'the notice reached another gateway');
    if (!(await this.failPending(order, failed.gatewayNo, failed.reason))) {
      const status = (await this.deps.repo.findOrder(order.trade_no))?.status ?? order.status;
      return { level: 'info', answer: 'ok', reason: `payment failed, nothing to change: the order is ${status}` };
    }
    return { level: 'warn', answer: 'ok', reason: `not credited, order failed: ${failed.reason}` };
  }

  /** A repeat of the callback that credited the order is acknowledged, so the vendor stops; anything else is refused. */
  private async notPending(order: OrderRow, paid: Paid): Promise<Outcome> {
    if (order.status === OrderStatus.success && order.gateway_no === paid.gatewayNo) {
      return { level: 'info', answer: 'ok', reason: 'already credited (duplicate callback)' };
    }
    return this.refuseOrder(order, `a payment ${paid.gatewayNo} arrived for an order already ${order.status}`);
  }

  /**
   * Refuses a verified notice about a known order (sent to another gateway's notify URL, or paying
   * an order no longer pending), leaving a system row in the payer's log so the refusal is not only
   * in the server log. The row names the order and the reason, never a key or the notice itself. A
   * notice whose signature fails is refused before any order is trusted, so it writes no row.
   */
  private async refuseOrder(order: OrderRow, reason: string): Promise<Outcome> {
    try {
      const user = await this.deps.users.findById(order.user_id);
      await this.deps.logs.insert(this.deps.repo.db, notCreditedRow(order, user?.username ?? '', reason));
    } catch (error) {
      this.deps.logger.error({ tradeNo: order.trade_no, error }, 'could not log a refused payment callback');
    }
    return refuse(`order ${order.trade_no}: ${reason}`);
  }

  /**
   * A genuine payment of the wrong amount or currency: the order becomes `failed` with the vendor's
   * number, nothing is credited, and the payer's log says why (an administrator settles it by hand).
   * Acknowledged, since the vendor repeating it would change nothing.
   */
  private async recordMismatch(order: OrderRow, paid: Paid, mismatch: string): Promise<Outcome> {
    if (!(await this.failPending(order, paid.gatewayNo, mismatch))) {
      return this.notPending((await this.deps.repo.findOrder(order.trade_no)) ?? order, paid);
    }
    return { level: 'warn', answer: 'ok', reason: `not credited, order failed: ${mismatch}` };
  }

  /**
   * A pending order becomes `failed` with the vendor's number and the payer's log says why, in one
   * transaction; false, changing nothing, when the order is no longer pending.
   */
  private async failPending(order: OrderRow, gatewayNo: string, reason: string): Promise<boolean> {
    const user = await this.deps.users.findById(order.user_id);
    return this.deps.repo.db.transaction().execute(async (transaction) => {
      if (!(await this.deps.repo.settlePending(transaction, order.trade_no, OrderStatus.failed, gatewayNo))) {
        return false;
      }
      await this.deps.logs.insert(transaction, notCreditedRow(order, user?.username ?? '', reason));
      return true;
    });
  }
}

/** The payer's system log row saying an order was not credited, and why (never a key or the notice itself). */
function notCreditedRow(order: OrderRow, username: string, reason: string): LogEntry {
  return {
    userId: order.user_id,
    username,
    type: LogType.system,
    content: `在线充值订单 ${order.trade_no} 未入账：${reason}`,
    event: { event: 'topup_not_credited', trade_no: order.trade_no, reason },
  };
}

/** What a committed credit announces (cached balances, groups, plans) and how the server log words it. */
interface Credited {
  announce: () => void;
  reason: string;
}

interface Outcome {
  level: 'info' | 'warn' | 'error';
  answer: 'ok' | 'fail';
  reason: string;
}

const refuse = (reason: string): Outcome => ({ level: 'warn', answer: 'fail', reason });

function mismatchOf(order: OrderRow, paid: Paid): string | undefined {
  const expected = centsOf(order.order_amount);
  if (paid.currency !== undefined && paid.currency !== order.order_currency) {
    return `paid in ${paid.currency}, the order is in ${order.order_currency}`;
  }
  if (paid.paidCents !== expected) {
    return `paid ${centsText(paid.paidCents)} ${order.order_currency}, the order is ${centsText(expected)}`;
  }
  return undefined;
}
