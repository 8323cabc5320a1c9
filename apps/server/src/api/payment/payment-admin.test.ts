import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { type EpaySimulator, startEpaySimulator } from '../../../test/payments/epay/simulator.js';
import { type PaymentTestApp, startPaymentApp } from '../../../test/payments/support.js';

const KEY = 'epay-merchant-key-0123456789';

describe.each(availableDialects)('payment gateways, orders and their limits on %s', (dialect) => {
  let t: PaymentTestApp;
  let epay: EpaySimulator;
  let gateway: { id: number; uuid: string; config: string };
  const epayConfig = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ pay_domain: epay.url, partner_id: epay.partnerId, key: KEY, ...extra });

  beforeAll(async () => {
    epay = await startEpaySimulator({ key: KEY });
    t = await startPaymentApp(dialect);
    gateway = await t.createGateway({
      type: 'epay',
      name: 'Epay USD',
      currency: 'USD',
      percent_fee: 0.03,
      sort: 5,
      config: epayConfig(),
    });
  });
  afterAll(async () => {
    await t?.close();
    await epay?.close();
  });

  it('never returns the merchant key in full, and stores it sealed', async () => {
    expect(gateway.config).not.toContain(KEY);
    expect(JSON.parse(gateway.config).key).toBe('••••6789');
    const read = await t.call('GET', `/api/payment/${gateway.id}`, t.root);
    expect(read.body).not.toContain(KEY);
    const row = await t.database.db
      .selectFrom('payments')
      .select('config')
      .where('id', '=', gateway.id)
      .executeTakeFirstOrThrow();
    expect(row.config).not.toContain(KEY);
    expect(JSON.parse(row.config).pay_domain).toBe(epay.url);
  });

  it('keeps the stored key when an edit sends it back masked, so payments still verify', async () => {
    const view = (await t.call('GET', `/api/payment/${gateway.id}`, t.root)).json().data;
    const edit = await t.call('PUT', '/api/payment/', t.root, { ...view, name: 'Epay renamed' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().data.name).toBe('Epay renamed');
    const user = await t.createUser('pay-masked');
    const order = await t.call('POST', '/api/user/order', user.cookie, { uuid: gateway.uuid, amount: 1 });
    const { trade_no: tradeNo, data } = order.json().data;
    await fetch(data.url, { method: 'POST', body: new URLSearchParams(data.params) });
    expect(epay.submissions.at(-1)?.signatureValid).toBe(true);
    expect(await epay.notify(tradeNo)).toEqual({ status: 200, body: 'success' });
    expect(await t.quotaOf(user.id)).toBe(500_000);
  });

  it('refuses a config missing a field, a config that is not JSON and an unknown type with 400s, storing nothing', async () => {
    const before = await t.database.db.selectFrom('payments').select('id').execute();
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'epay', config: JSON.stringify({ pay_domain: epay.url, key: KEY }) }, 'partner_id'],
      [{ type: 'epay', config: epayConfig({ pay_domain: 'ftp://pay' }) }, 'pay_domain'],
      [{ type: 'epay', config: '{' }, 'config'],
      [{ type: 'paypal', config: '{}' }, 'type'],
    ];
    for (const [fields, named] of cases) {
      const response = await t.call('POST', '/api/payment/', t.root, { name: 'Broken', currency: 'USD', ...fields });
      expect(response.statusCode, named).toBe(400);
      expect(response.json().message).toContain(named);
    }
    expect(await t.database.db.selectFrom('payments').select('id').execute()).toHaveLength(before.length);
  });

  it('changes only the fields a PUT without uuid sends (the list toggles)', async () => {
    const before = (await t.call('GET', `/api/payment/${gateway.id}`, t.root)).json().data;
    const toggled = await t.call('PUT', '/api/payment/', t.root, { id: gateway.id, sort: 7 });
    expect(toggled.statusCode, toggled.body).toBe(200);
    expect(toggled.json().data).toEqual({ ...before, sort: 7, updated_at: toggled.json().data.updated_at });
    const back = await t.call('PUT', '/api/payment/', t.root, { id: gateway.id, sort: 5 });
    expect(back.json().data.sort).toBe(5);
    const missing = await t.call('PUT', '/api/payment/', t.root, { id: 999_999, enable: false });
    expect(missing.statusCode).toBe(404);
  });

  it('lets only administrators manage gateways and read orders', async () => {
    const user = await t.createUser('pay-common');
    for (const url of ['/api/payment/', '/api/payment/order', `/api/payment/${gateway.id}`]) {
      expect((await t.call('GET', url, user.cookie)).statusCode).toBe(403);
    }
    expect((await t.call('POST', '/api/payment/', user.cookie, { type: 'epay' })).statusCode).toBe(403);
    expect((await t.call('DELETE', `/api/payment/${gateway.id}`, user.cookie)).statusCode).toBe(403);
  });

  it('shows users the enabled gateways with public fields only, and prices them on the server', async () => {
    const user = await t.createUser('pay-quote');
    const list = await t.call('GET', '/api/user/payment', user.cookie);
    const mine = list.json().data.find((entry: { uuid: string }) => entry.uuid === gateway.uuid);
    expect(mine).toEqual({
      uuid: gateway.uuid,
      name: 'Epay renamed',
      icon: '',
      type: 'epay',
      fixed_fee: 0,
      percent_fee: 0.03,
      currency: 'USD',
      sort: 5,
    });
    await t.services.options.update('RechargeDiscount', '{"10":0.95}');
    const quote = await t.call('GET', `/api/user/order/quote?uuid=${gateway.uuid}&amount=10`, user.cookie);
    expect(quote.json().data).toEqual({
      amount: 10,
      discount_rate: 0.95,
      fee: 0.29,
      discount: 0.5,
      order_amount: 9.79,
      currency: 'USD',
      quota: 5_000_000,
    });
    await t.services.options.update('RechargeDiscount', '{}');
  });

  it('enforces PaymentMinAmount, the maximum and whole dollars with 400s naming amount', async () => {
    const user = await t.createUser('pay-limits');
    await t.services.options.update('PaymentMinAmount', '5');
    for (const amount of [4, 1_000_001, 2.5, 0, '10']) {
      const response = await t.call('POST', '/api/user/order', user.cookie, { uuid: gateway.uuid, amount });
      expect(response.statusCode, String(amount)).toBe(400);
      expect(response.json().message).toContain('amount');
    }
    await t.services.options.update('PaymentMinAmount', '1');
    const ok = await t.call('POST', '/api/user/order', user.cookie, { uuid: gateway.uuid, amount: 1_000_000 });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('hides a disabled gateway from users, refuses orders on it and its callbacks', async () => {
    const spare = await t.createGateway({ type: 'epay', name: 'Spare', currency: 'CNY', config: epayConfig() });
    const user = await t.createUser('pay-disabled');
    const order = await t.call('POST', '/api/user/order', user.cookie, { uuid: spare.uuid, amount: 2 });
    const { trade_no: tradeNo, data } = order.json().data;
    await fetch(data.url, { method: 'POST', body: new URLSearchParams(data.params) });
    expect((await t.call('PUT', '/api/payment/', t.root, { id: spare.id, enable: false })).statusCode).toBe(200);
    const list = (await t.call('GET', '/api/user/payment', user.cookie)).json().data as { uuid: string }[];
    expect(list.map((entry) => entry.uuid)).not.toContain(spare.uuid);
    const refused = await t.call('POST', '/api/user/order', user.cookie, { uuid: spare.uuid, amount: 2 });
    expect(refused.statusCode).toBe(404);
    const callback = await fetch(`${t.base}/api/payment/notify/${spare.uuid}?out_trade_no=${tradeNo}`);
    expect(callback.status).toBe(404);
    expect(await callback.json()).toEqual({ success: false, message: 'payment not found' });
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.call('DELETE', `/api/payment/${spare.id}`, t.root)).statusCode).toBe(200);
    expect((await t.call('GET', `/api/payment/${spare.id}`, t.root)).statusCode).toBe(404);
  });

  it('finds an order by trade number in the admin list and counts paid orders in analytics', async () => {
    const user = await t.createUser('pay-stats');
    const order = await t.call('POST', '/api/user/order', user.cookie, { uuid: gateway.uuid, amount: 2 });
    const { trade_no: tradeNo, data } = order.json().data;
    await fetch(data.url, { method: 'POST', body: new URLSearchParams(data.params) });
    await epay.notify(tradeNo);
    const found = await t.call('GET', `/api/payment/order?trade_no=${tradeNo}`, t.root);
    expect(found.json().data.total_count).toBe(1);
    expect(found.json().data.data[0]).toMatchObject({
      trade_no: tradeNo,
      user_id: user.id,
      status: 'success',
      amount: 2,
      order_amount: 2.06,
      fee: 0.06,
      order_currency: 'USD',
    });
    const byStatus = await t.call('GET', `/api/payment/order?status=success&user_id=${user.id}`, t.root);
    expect(byStatus.json().data.total_count).toBe(1);
    const summary = (await t.call('GET', '/api/analytics/statistics', t.root)).json().data;
    // Paid so far on this gateway: $1.03 (masked-key test) + $2.06 here.
    expect(summary.order_statistics).toEqual([{ quota: 1_500_000, money: 3.09, order_currency: 'USD' }]);
    const now = Math.floor(Date.now() / 1000);
    const period = (
      await t.call('GET', `/api/analytics/period?start_timestamp=${now - 3600}&end_timestamp=${now + 60}`, t.root)
    ).json().data;
    expect(period.order_statistics).toHaveLength(1);
    expect(period.order_statistics[0].order_amount).toBe(3.09);
  });
});
