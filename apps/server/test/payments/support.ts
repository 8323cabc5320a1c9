import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { DialectName } from '../../src/platform/db/index.js';
import { listenOnLoopback, ROOT_PASSWORD, startTestApp, type TestApp, type TestAppOptions } from '../app.js';

/**
 * A test app listening on loopback, so a simulated vendor can call its notify URL over HTTP the
 * way the real one does; ServerAddress points there. Shared by every gateway's tests.
 */
export interface PaymentTestApp extends TestApp {
  base: string;
  root: string;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    cookie: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  /** Creates a gateway as root and returns its view (secrets masked). */
  createGateway(body: Record<string, unknown>): Promise<{ id: number; uuid: string; config: string }>;
  quotaOf(userId: number): Promise<number>;
  order(tradeNo: string): Promise<{ status: string; gateway_no: string; order_amount: number | string }>;
  topUpLogs(userId: number): Promise<unknown[]>;
  /** Moves an order's creation `hours` into the past (past 3 h, the next order or status poll closes it). */
  ageOrder(tradeNo: string, hours: number): Promise<void>;
}

export async function startPaymentApp(
  dialect: DialectName,
  env: Record<string, string> = {},
  node: Pick<TestAppOptions, 'cache' | 'database' | 'clock'> = {},
): Promise<PaymentTestApp> {
  const t = await startTestApp({ dialect, env, ...node });
  const base = await listenOnLoopback(t);
  await t.services.options.update('ServerAddress', base);
  const root = await t.login('root', ROOT_PASSWORD);
  const call: PaymentTestApp['call'] = (method, url, cookie, payload) =>
    t.app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    ...t,
    base,
    root,
    call,
    async createGateway(body) {
      const response = await call('POST', '/api/payment/', root, body);
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data;
    },
    async quotaOf(userId) {
      const row = await t.database.db
        .selectFrom('users')
        .select('quota')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.quota);
    },
    order(tradeNo) {
      return t.database.db
        .selectFrom('orders')
        .select(['status', 'gateway_no', 'order_amount'])
        .where('trade_no', '=', tradeNo)
        .executeTakeFirstOrThrow();
    },
    async ageOrder(tradeNo, hours) {
      const createdAt = Math.floor(Date.now() / 1000) - hours * 3600;
      await t.database.db
        .updateTable('orders')
        .set({ created_at: createdAt })
        .where('trade_no', '=', tradeNo)
        .execute();
    },
    topUpLogs(userId) {
      return t.database.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', 1).execute();
    },
  };
}
