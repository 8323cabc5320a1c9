import { randomInt } from 'node:crypto';
import {
  type CreateOrderBody,
  ORDER_PENDING_LIFETIME_SECONDS,
  type OrderListQuery,
  type OrderQuote,
  OrderStatus,
  type OrderView,
  type Paged,
  type PayInstruction,
  PaymentAction,
  type PaymentCurrency,
} from '@one-hub/contracts';
import { centsText, discountRateFor, type Price, priceOrder, pricePlan, toQuote } from '../../payments/money.js';
import { nowSeconds } from '../../platform/clock.js';
import type { UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import type { OptionService } from '../option/service.js';
import type { UserRepository } from '../user/repo.js';
import type { GatewayService, UsableGateway } from './gateway-service.js';
import { toOrderView } from './presenter.js';
import type { PaymentRepository } from './repo.js';

export interface OrderServiceDeps {
  repo: PaymentRepository;
  gateways: GatewayService;
  options: OptionService;
  logger: Logger;
  /** Whose orders an admin may not list (root's and other admins'). */
  users: Pick<UserRepository, 'idsNotOutrankedBy'>;
}

/** What an order for a plan needs to know of it. */
export interface PlanToBuy {
  id: number;
  name: string;
  price: number;
  currency: PaymentCurrency;
}

/** What `GET /api/user/order/status` found: paid, still waiting, or over without a payment. */
export type OrderProgress = { state: 'success' } | { state: 'pending' };

/**
 * Orders: priced on the server (payments/money.ts), stored pending, handed to the gateway, and
 * credited only by a verified callback (notify-service.ts).
 */
export class OrderService {
  constructor(private readonly deps: OrderServiceDeps) {}

  async quote(uuid: string, amount: number): Promise<OrderQuote> {
    const usable = await this.requireGateway(uuid);
    return toQuote(this.price(usable, amount));
  }

  async create(caller: UserRow, body: CreateOrderBody, clientIp: string): Promise<PayInstruction> {
    const usable = await this.requireGateway(body.uuid);
    const price = this.price(usable, body.amount);
    return this.startPayment(caller, usable, price, {
      subject: `${this.deps.options.get('SystemName')}-Token充值:${price.amount}`,
      clientIp,
    });
  }

  /**
   * An order buying `plan` (issue 33): its price in the gateway's currency with the gateway's
   * fees, no quota; the paid callback activates the plan instead of crediting a balance.
   */
  async createForPlan(caller: UserRow, plan: PlanToBuy, uuid: string, clientIp: string): Promise<PayInstruction> {
    const usable = await this.requireGateway(uuid);
    const price = pricePlan({
      price: plan.price,
      priceCurrency: plan.currency,
      percentFee: usable.row.percent_fee,
      fixedFee: usable.row.fixed_fee,
      currency: usable.row.currency as PaymentCurrency,
      usdRate: this.deps.options.getNumber('PaymentUSDRate'),
    });
    if (price.payCents <= 0) {
      throw AppError.badRequest('plan_id: this plan is free; an administrator grants it', 'plan_id');
    }
    return this.startPayment(caller, usable, price, {
      subject: `${this.deps.options.get('SystemName')}-套餐:${plan.name}`,
      clientIp,
      planId: plan.id,
    });
  }

  private async startPayment(
    caller: UserRow,
    usable: UsableGateway,
    price: Price,
    order: { subject: string; clientIp: string; planId?: number },
  ): Promise<PayInstruction> {
    await this.closeStaleOrders();
    const tradeNo = newTradeNo();
    const now = nowSeconds();
    // Stored before the vendor hears of it, so a callback can never arrive for an order we do not have.
    await this.deps.repo.insertOrder({
      user_id: caller.id,
      gateway_id: usable.row.id,
      trade_no: tradeNo,
      gateway_no: '',
      amount: price.amount,
      order_amount: centsText(price.payCents),
      order_currency: price.currency,
      quota: price.quota,
      fee: centsText(price.feeCents),
      discount: centsText(price.discountCents),
      status: OrderStatus.pending,
      plan_id: order.planId ?? 0,
      created_at: now,
      updated_at: now,
    });
    const serverAddress = this.deps.options.get('ServerAddress').replace(/\/+$/, '');
    try {
      const payment = await usable.gateway.pay(usable.config, {
        tradeNo,
        amountCents: price.payCents,
        currency: price.currency,
        subject: order.subject,
        notifyUrl: this.deps.gateways.notifyUrl(usable.row),
        gatewayUuid: usable.row.uuid,
        returnUrl: `${serverAddress}/panel/log`,
        user: { id: caller.id, username: caller.username, email: caller.email },
        clientIp: order.clientIp,
      });
      return payment.type === PaymentAction.openUrl
        ? {
            trade_no: tradeNo,
            type: PaymentAction.openUrl,
            data: { url: payment.url, method: payment.method, ...paramsOf(payment) },
          }
        : { trade_no: tradeNo, type: PaymentAction.showQrCode, data: { url: payment.url } };
    } catch (error) {
      await this.deps.repo.settlePending(this.deps.repo.db, tradeNo, OrderStatus.failed, '');
      const reason = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn(
        { tradeNo, gateway: usable.row.uuid, reason },
        'payment gateway refused to start a payment',
      );
      throw new AppError('upstream_error', `the payment gateway could not start the payment: ${reason}`);
    }
  }

  /** The caller's own order only: another user's trade number is answered as unknown. */
  async progress(caller: UserRow, tradeNo: string): Promise<OrderProgress> {
    let order = await this.deps.repo.findOrder(tradeNo);
    if (!order || order.user_id !== caller.id) throw AppError.notFound(`trade_no: order ${tradeNo} not found`);
    // A payer still waiting on an expired order learns it is closed without anyone creating a new order.
    if (order.status === OrderStatus.pending && order.created_at < nowSeconds() - ORDER_PENDING_LIFETIME_SECONDS) {
      await this.closeStaleOrders();
      order = (await this.deps.repo.findOrder(tradeNo)) ?? order;
    }
    if (order.status === OrderStatus.success) return { state: 'success' };
    if (order.status === OrderStatus.pending) return { state: 'pending' };
    if (order.status === OrderStatus.closed) {
      throw AppError.conflict(`trade_no: order ${tradeNo} was closed without a payment`);
    }
    throw AppError.conflict(`trade_no: order ${tradeNo} failed and was not credited; contact the administrator`);
  }

  /** The orders of `caller` and of the users it outranks (every order, for root). */
  async list(caller: UserRow, query: OrderListQuery): Promise<Paged<OrderView>> {
    const page = await this.deps.repo.listOrders(query, await this.deps.users.idsNotOutrankedBy(caller));
    return { ...page, data: page.data.map(toOrderView) };
  }

  /** Pending orders older than 3 h are closed (reference §4.10); returns how many. */
  closeStaleOrders(): Promise<number> {
    return this.deps.repo.closeStaleOrders(nowSeconds() - ORDER_PENDING_LIFETIME_SECONDS);
  }

  private price(usable: UsableGateway, amount: number): Price {
    const minimum = this.deps.options.getNumber('PaymentMinAmount');
    if (amount < minimum) throw AppError.badRequest(`amount must be at least ${minimum}`);
    return priceOrder({
      amount,
      discountRate: discountRateFor(this.deps.options.get('RechargeDiscount'), amount),
      percentFee: usable.row.percent_fee,
      fixedFee: usable.row.fixed_fee,
      currency: usable.row.currency as PaymentCurrency,
      usdRate: this.deps.options.getNumber('PaymentUSDRate'),
      quotaPerUnit: this.deps.options.getNumber('QuotaPerUnit'),
    });
  }

  private async requireGateway(uuid: string): Promise<UsableGateway> {
    const usable = await this.deps.gateways.usable(uuid);
    if (!usable) throw AppError.notFound(`uuid: payment gateway ${uuid} not found or disabled`);
    return usable;
  }
}

function paramsOf(payment: { params?: Record<string, string> }) {
  return payment.params ? { params: payment.params } : {};
}

/** A numeric trade number like the reference's snowflake ids: milliseconds then 6 random digits. */
function newTradeNo(): string {
  return `${Date.now()}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}
