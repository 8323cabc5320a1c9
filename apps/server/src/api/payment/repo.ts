import {
  ORDER_SORT_FIELDS,
  type OrderListQuery,
  OrderStatus,
  PAYMENT_SORT_FIELDS,
  type Paged,
  type PaymentGatewayListQuery,
} from '@one-hub/contracts';
import { sql } from 'kysely';
import { nowSeconds } from '../../platform/clock.js';
import {
  type DatabaseHandle,
  type Executor,
  fetchPage,
  insertReturningId,
  type NewOrderRow,
  type NewPaymentRow,
  type OrderRow,
  type PaymentRow,
  startsWithIgnoringCase,
  whereGiven,
} from '../../platform/db/index.js';

/** Gateways (`payments`) and orders. Deleted rows (`deleted_at` set) are invisible to every query here. */
export class PaymentRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  get db() {
    return this.handle.db;
  }

  listGateways(query: PaymentGatewayListQuery): Promise<Paged<PaymentRow>> {
    let select = this.handle.db.selectFrom('payments').selectAll().where('deleted_at', 'is', null);
    select = whereGiven(select, { type: query.type, uuid: query.uuid, currency: query.currency });
    if (query.name) select = select.where(startsWithIgnoringCase('name', query.name));
    return fetchPage(select, query, PAYMENT_SORT_FIELDS);
  }

  enabledGateways(): Promise<PaymentRow[]> {
    return this.handle.db
      .selectFrom('payments')
      .selectAll()
      .where('deleted_at', 'is', null)
      .where('enable', '=', true)
      .orderBy('sort', 'desc')
      .orderBy('id')
      .execute();
  }

  /** A live gateway by its row id or its public uuid. */
  findGateway(
    key: { id: number } | { uuid: string },
    executor: Executor = this.handle.db,
  ): Promise<PaymentRow | undefined> {
    const select = executor.selectFrom('payments').selectAll().where('deleted_at', 'is', null);
    return ('id' in key ? select.where('id', '=', key.id) : select.where('uuid', '=', key.uuid)).executeTakeFirst();
  }

  insertGateway(row: NewPaymentRow, executor: Executor = this.handle.db): Promise<number> {
    return insertReturningId(this.handle, executor.insertInto('payments').values(row));
  }

  async updateGateway(
    id: number,
    patch: Partial<NewPaymentRow>,
    executor: Executor = this.handle.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('payments')
      .set({ ...patch, updated_at: nowSeconds() })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async deleteGateway(id: number, executor: Executor = this.handle.db): Promise<boolean> {
    const now = nowSeconds();
    const result = await executor
      .updateTable('payments')
      .set({ deleted_at: now, updated_at: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** `hidden`: users whose orders are left out (an admin's view: root and the other admins). */
  listOrders(query: OrderListQuery, hidden: readonly number[] = []): Promise<Paged<OrderRow>> {
    let select = this.handle.db.selectFrom('orders').selectAll().where('deleted_at', 'is', null);
    if (hidden.length > 0) select = select.where('user_id', 'not in', [...hidden]);
    select = whereGiven(select, {
      user_id: query.user_id,
      gateway_id: query.gateway_id,
      trade_no: query.trade_no,
      gateway_no: query.gateway_no,
      status: query.status,
    });
    if (query.start_timestamp) select = select.where('created_at', '>=', query.start_timestamp);
    if (query.end_timestamp) select = select.where('created_at', '<=', query.end_timestamp);
    return fetchPage(select, query, ORDER_SORT_FIELDS);
  }

  insertOrder(row: NewOrderRow): Promise<number> {
    return insertReturningId(this.handle, this.handle.db.insertInto('orders').values(row));
  }

  findOrder(tradeNo: string, executor: Executor = this.handle.db): Promise<OrderRow | undefined> {
    return executor
      .selectFrom('orders')
      .selectAll()
      .where('trade_no', '=', tradeNo)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Pending orders created before `before` become closed (reference: after 3 h); returns how many. */
  async closeStaleOrders(before: number): Promise<number> {
    const result = await this.handle.db
      .updateTable('orders')
      .set({ status: OrderStatus.closed, updated_at: nowSeconds() })
      .where('status', '=', OrderStatus.pending)
      .where('created_at', '<', before)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Moves a pending order to `status` and records the vendor's number, in one conditional
   * statement: of any number of concurrent callbacks for one order exactly one gets true, on
   * every node, because the database serialises updates of one row.
   */
  async settlePending(
    executor: Executor,
    tradeNo: string,
    status: typeof OrderStatus.success | typeof OrderStatus.failed,
    gatewayNo: string,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('orders')
      .set({ status, gateway_no: gatewayNo, updated_at: nowSeconds() })
      .where('trade_no', '=', tradeNo)
      .where('status', '=', OrderStatus.pending)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Successful orders summed per currency (analytics `order_statistics`). */
  async successTotals(
    hidden: readonly number[] = [],
  ): Promise<{ quota: number; money: number | string; order_currency: string }[]> {
    const rows = await this.handle.db
      .selectFrom('orders')
      .select([
        'order_currency',
        sql<number | string>`coalesce(sum(quota), 0)`.as('quota'),
        sql<number | string>`coalesce(sum(order_amount), 0)`.as('money'),
      ])
      .where('status', '=', OrderStatus.success)
      .where('deleted_at', 'is', null)
      .$if(hidden.length > 0, (query) => query.where('user_id', 'not in', [...hidden]))
      .groupBy('order_currency')
      .orderBy('order_currency')
      .execute();
    return rows.map((row) => ({ ...row, quota: Number(row.quota) }));
  }

  /** Successful orders in [start, end] (unix s), for the period view. */
  successfulOrdersBetween(
    start: number,
    end: number,
    hidden: readonly number[] = [],
  ): Promise<{ created_at: number; order_amount: number | string }[]> {
    return this.handle.db
      .selectFrom('orders')
      .select(['created_at', 'order_amount'])
      .where('status', '=', OrderStatus.success)
      .where('deleted_at', 'is', null)
      .where('created_at', '>=', start)
      .where('created_at', '<=', end)
      .$if(hidden.length > 0, (query) => query.where('user_id', 'not in', [...hidden]))
      .execute();
  }
}
