import type { PaymentGatewayType } from '@one-hub/contracts';
import type { Kysely } from 'kysely';
import { GatewayConfigs } from '../../api/payment/gateway-config.js';
import { createGatewayRegistry } from '../../payments/registry.js';
import type { Database } from '../../platform/db/index.js';
import type { LegacyOrder, LegacyPayment, Skipped } from '../legacy.js';
import { type BatchResult, chunked, clip, insertedId, type WriteContext } from './context.js';
import { lookupIds, recordIds } from './id-map.js';

/**
 * Payment gateways and their orders. A gateway keeps its uuid, so the callback address the vendor
 * was given (`/api/payment/notify/<uuid>`) reaches it here; its secret settings are sealed as the
 * payment API seals them. A pending order stays pending: a payment the vendor confirms after the
 * move is credited here, once, like any other.
 */

// Only the gateways' static facts are read here (type, secret fields, config check): no vendor is called.
const gateways = createGatewayRegistry({ alipayGateway: '', wxpayApiBase: '', stripeApiBase: '' });
const ORDER_STATUSES = new Set(['pending', 'success', 'failed', 'closed']);

function parsedConfig(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export async function writePayments(
  executor: Kysely<Database>,
  context: WriteContext,
  payments: readonly LegacyPayment[],
): Promise<BatchResult> {
  const configs = new GatewayConfigs(context.secrets.payments);
  const skipped: Skipped[] = [];
  const skip = (payment: LegacyPayment, reason: string) => skipped.push({ table: 'payments', row: payment.id, reason });
  const present = new Map(
    (await executor.selectFrom('payments').select(['id', 'uuid']).execute()).map((row) => [row.uuid, row.id]),
  );
  const idPairs: Array<[number, number]> = [];
  let written = 0;
  for (const payment of payments) {
    const gateway = gateways.get(payment.type as PaymentGatewayType);
    const config = parsedConfig(payment.config);
    const existing = present.get(payment.uuid);
    if (existing !== undefined) {
      // The same gateway (a merge of a database that was imported before): its orders point to the target's row.
      skip(payment, 'the target already has a gateway with this uuid; its orders are linked to that one');
      idPairs.push([payment.id, existing]);
      continue;
    }
    if (!gateway || !config || !/^[\da-zA-Z]{1,32}$/.test(payment.uuid)) {
      skip(payment, !gateway ? `gateway type '${payment.type}' is not known here` : 'its uuid or config is unreadable');
      idPairs.push([payment.id, 0]);
      continue;
    }
    const valid = gateway.configSchema.safeParse(config).success;
    if (!valid && payment.enable && payment.deleted_at === null) {
      skipped.push({
        table: 'payments',
        row: payment.id,
        reason: 'imported disabled: its settings do not pass this server’s check; complete them in Payments',
        count: 0,
      });
    }
    const row = {
      type: payment.type,
      uuid: payment.uuid,
      name: clip(payment.name, 255),
      icon: clip(payment.icon, 300),
      notify_domain: clip(payment.notify_domain, 300),
      fixed_fee: payment.fixed_fee,
      percent_fee: payment.percent_fee,
      currency: payment.currency === 'CNY' ? 'CNY' : 'USD',
      config: configs.seal(gateway, config),
      sort: payment.sort,
      enable: payment.enable && valid,
      created_at: payment.created_at,
      updated_at: payment.updated_at,
      deleted_at: payment.deleted_at,
    };
    const query =
      context.mode === 'fresh'
        ? executor.insertInto('payments').values({ ...row, id: payment.id })
        : executor.insertInto('payments').values(row);
    if (context.mode === 'fresh') {
      await query.execute();
      idPairs.push([payment.id, payment.id]);
    } else {
      idPairs.push([payment.id, await insertedId(context, query)]);
    }
    present.set(payment.uuid, idPairs[idPairs.length - 1]?.[1] ?? 0);
    written++;
  }
  await recordIds(executor, context, 'payments', idPairs);
  return { written, skipped };
}

export async function writeOrders(
  executor: Kysely<Database>,
  context: WriteContext,
  orders: readonly LegacyOrder[],
): Promise<BatchResult> {
  const skipped: Skipped[] = [];
  const skip = (order: LegacyOrder, reason: string) => skipped.push({ table: 'orders', row: order.id, reason });
  const users = await lookupIds(
    executor,
    context,
    'users',
    orders.map((order) => order.user_id),
  );
  const payments = await lookupIds(
    executor,
    context,
    'payments',
    orders.map((order) => order.gateway_id),
  );
  const tradeNumbers = new Set<string>();
  for (const chunk of chunked(
    orders.map((order) => order.trade_no),
    500,
  )) {
    const rows = await executor.selectFrom('orders').select('trade_no').where('trade_no', 'in', chunk).execute();
    for (const row of rows) tradeNumbers.add(row.trade_no);
  }
  const rows = [];
  for (const order of orders) {
    const userId = users.resolve(order.user_id);
    const gatewayId = payments.resolve(order.gateway_id);
    if (!order.trade_no) skip(order, 'it has no trade number');
    else if (tradeNumbers.has(order.trade_no)) skip(order, 'the target already has an order with this trade number');
    else if (!ORDER_STATUSES.has(order.status)) skip(order, `status '${order.status}' is not an order status`);
    else if (userId === undefined) skip(order, 'its user was not imported');
    else if (gatewayId === undefined) skip(order, 'its gateway was not imported');
    else {
      tradeNumbers.add(order.trade_no);
      rows.push({
        ...(context.mode === 'fresh' ? { id: order.id } : {}),
        user_id: userId,
        gateway_id: gatewayId,
        trade_no: clip(order.trade_no, 50),
        gateway_no: clip(order.gateway_no, 100),
        amount: order.amount,
        order_amount: order.order_amount,
        order_currency: clip(order.order_currency, 16),
        quota: order.quota,
        fee: order.fee,
        discount: order.discount,
        status: order.status,
        created_at: order.created_at,
        updated_at: order.updated_at,
        deleted_at: order.deleted_at,
      });
    }
  }
  for (const chunk of chunked(rows)) await executor.insertInto('orders').values(chunk).execute();
  return { written: rows.length, skipped };
}
