import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { type EpaySimulator, startEpaySimulator } from '../../../test/payments/epay/simulator.js';
import { type PaymentTestApp, startPaymentApp } from '../../../test/payments/support.js';

const QUOTA_PER_UNIT = 500_000;

describe.each(availableDialects)('paying through Epay and its callbacks on %s', (dialect) => {
  let t: PaymentTestApp;
  let epay: EpaySimulator;
  let gateway: { id: number; uuid: string };

  /** Creates an order as the user and posts its form to the simulator, as the console's browser does. */
  async function payableOrder(cookie: string, amount: number): Promise<string> {
    const response = await t.call('POST', '/api/user/order', cookie, { uuid: gateway.uuid, amount });
    expect(response.statusCode, response.body).toBe(200);
    const { trade_no: tradeNo, type, data } = response.json().data;
    expect(type).toBe(1);
    expect(data.method).toBe('POST');
    const submit = await fetch(data.url, { method: 'POST', body: new URLSearchParams(data.params) });
    expect(submit.status).toBe(200);
    expect(epay.submissions.at(-1)?.signatureValid).toBe(true);
    return tradeNo;
  }

  /** The system rows of the user's log (type 4): why an order was not credited. */
  const systemLogs = async (userId: number) =>
    (
      await t.database.db
        .selectFrom('logs')
        .select('content')
        .where('user_id', '=', userId)
        .where('type', '=', 4)
        .execute()
    ).map((row) => row.content);

  beforeAll(async () => {
    epay = await startEpaySimulator();
    t = await startPaymentApp(dialect);
    gateway = await t.createGateway({
      type: 'epay',
      name: 'Epay',
      currency: 'CNY',
      config: JSON.stringify({ pay_domain: epay.url, partner_id: epay.partnerId, key: epay.key, pay_type: 'alipay' }),
    });
  });
  afterAll(async () => {
    await t?.close();
    await epay?.close();
  });

  it('posts a correctly signed form, credits a paid order once, and reports it paid', async () => {
    const user = await t.createUser('epay-payer');
    const tradeNo = await payableOrder(user.cookie, 10);
    const submitted = epay.submissions.at(-1)?.params ?? {};
    expect(submitted).toMatchObject({ pid: epay.partnerId, type: 'alipay', out_trade_no: tradeNo, money: '73.00' });
    expect(submitted.notify_url).toBe(`${t.base}/api/payment/notify/${gateway.uuid}`);
    expect(submitted.return_url).toBe(`${t.base}/panel/log`);

    const waiting = await t.call('GET', `/api/user/order/status?trade_no=${tradeNo}`, user.cookie);
    expect(waiting.statusCode).toBe(200);
    expect(waiting.json().success).toBe(false);

    expect(await epay.notify(tradeNo)).toEqual({ status: 200, body: 'success' });
    expect(await t.quotaOf(user.id)).toBe(10 * QUOTA_PER_UNIT);
    const order = await t.order(tradeNo);
    expect(order.status).toBe('success');
    expect(order.gateway_no).toBe(`EP${tradeNo}`);
    const logs = (await t.topUpLogs(user.id)) as { quota: number; source_ip: string; metadata: string }[];
    expect(logs).toHaveLength(1);
    expect(Number(logs[0]?.quota)).toBe(10 * QUOTA_PER_UNIT);
    // The console words the row from its event in the reader's language (issue 31).
    const { order_currency: currency } = await t.database.db
      .selectFrom('orders')
      .select('order_currency')
      .where('trade_no', '=', tradeNo)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(logs[0]?.metadata ?? '')).toEqual({
      event: 'online_topup',
      quota: 10 * QUOTA_PER_UNIT,
      paid: Number(order.order_amount).toFixed(2),
      currency,
      trade_no: tradeNo,
    });
    expect(logs[0]?.source_ip).toBe('127.0.0.1');

    const paid = await t.call('GET', `/api/user/order/status?trade_no=${tradeNo}`, user.cookie);
    expect(paid.json()).toEqual({ success: true, message: '' });
    const stranger = await t.createUser('ep-stranger');
    const other = await t.call('GET', `/api/user/order/status?trade_no=${tradeNo}`, stranger.cookie);
    expect(other.statusCode).toBe(404);

    // The vendor repeats a callback it already had answered: acknowledged, nothing more credited.
    expect(await epay.notify(tradeNo)).toEqual({ status: 200, body: 'success' });
    expect(await t.quotaOf(user.id)).toBe(10 * QUOTA_PER_UNIT);
    expect(await t.topUpLogs(user.id)).toHaveLength(1);
  });

  it('credits once when 12 identical callbacks arrive at the same moment', async () => {
    const user = await t.createUser('epay-racer');
    const tradeNo = await payableOrder(user.cookie, 3);
    const answers = await Promise.all(Array.from({ length: 12 }, () => epay.notify(tradeNo)));
    // Each answer is `success` (the winner, or a duplicate of the credited payment).
    expect(answers.every((answer) => answer.body === 'success')).toBe(true);
    expect(await t.quotaOf(user.id)).toBe(3 * QUOTA_PER_UNIT);
    expect(await t.topUpLogs(user.id)).toHaveLength(1);
  });

  it('refuses a forged signature: nothing credited, the order stays pending, Epay gets fail', async () => {
    const user = await t.createUser('epay-forger');
    const tradeNo = await payableOrder(user.cookie, 5);
    expect(await epay.notify(tradeNo, { key: 'not-the-merchant-key' })).toEqual({ status: 200, body: 'fail' });
    expect(await epay.notify(tradeNo, { sign: '' })).toEqual({ status: 200, body: 'fail' });
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.order(tradeNo)).status).toBe('pending');
    // An unverified notice cannot be trusted to name the order: it is in the server log only.
    expect(await systemLogs(user.id)).toEqual([]);
  });

  it('records an under-payment as failed, credits nothing and tells the payer why', async () => {
    const user = await t.createUser('epay-short');
    const tradeNo = await payableOrder(user.cookie, 2);
    expect(await epay.notify(tradeNo, { money: '14.59' })).toEqual({ status: 200, body: 'success' });
    expect(await t.quotaOf(user.id)).toBe(0);
    expect(await t.topUpLogs(user.id)).toHaveLength(0);
    expect((await t.order(tradeNo)).status).toBe('failed');
    const notes = await t.database.db
      .selectFrom('logs')
      .select('content')
      .where('user_id', '=', user.id)
      .where('type', '=', 4)
      .execute();
    expect(notes.map((note) => note.content).join()).toContain('14.59');
    const status = await t.call('GET', `/api/user/order/status?trade_no=${tradeNo}`, user.cookie);
    expect(status.statusCode).toBe(409);
    // A correct payment arriving afterwards cannot credit a failed order either.
    expect(await epay.notify(tradeNo)).toEqual({ status: 200, body: 'fail' });
    expect(await t.quotaOf(user.id)).toBe(0);
  });

  it('ignores a trade that is not completed and acknowledges it', async () => {
    const user = await t.createUser('epay-waiting');
    const tradeNo = await payableOrder(user.cookie, 2);
    expect(await epay.notify(tradeNo, { trade_status: 'WAIT_BUYER_PAY' })).toEqual({ status: 200, body: 'success' });
    expect((await t.order(tradeNo)).status).toBe('pending');
    expect(await t.quotaOf(user.id)).toBe(0);
  });

  it('answers an unknown gateway uuid with 404 "payment not found"', async () => {
    const response = await fetch(`${t.base}/api/payment/notify/${'0'.repeat(32)}?out_trade_no=1&sign=x`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, message: 'payment not found' });
  });

  it('hands the notify route any body unparsed, within a body limit', async () => {
    const url = `${t.base}/api/payment/notify/${gateway.uuid}`;
    // Not JSON at all, yet labelled JSON: read as bytes for the gateway, so no parse error; Epay finds no signature.
    const odd = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(odd.status).toBe(200);
    expect(await odd.text()).toBe('fail');
    const huge = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x'.repeat(200_000),
    });
    expect(huge.status).toBe(413);
  });

  it('refuses a callback for an order of another gateway', async () => {
    const other = await t.createGateway({
      type: 'epay',
      name: 'Epay two',
      currency: 'CNY',
      config: JSON.stringify({ pay_domain: epay.url, partner_id: epay.partnerId, key: epay.key }),
    });
    const user = await t.createUser('epay-crossed');
    const tradeNo = await payableOrder(user.cookie, 2);
    // A correctly signed callback for this order, delivered to the other gateway's notify URL.
    const notifyUrl = `${t.base}/api/payment/notify/${other.uuid}`;
    expect(await epay.notify(tradeNo, { notifyUrl })).toEqual({ status: 200, body: 'fail' });
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.order(tradeNo)).status).toBe('pending');
    expect(await systemLogs(user.id)).toEqual([`在线充值订单 ${tradeNo} 未入账：the notice reached another gateway`]);
  });

  it('closes orders pending for over 3 hours and refuses their callbacks', async () => {
    const user = await t.createUser('epay-late');
    const tradeNo = await payableOrder(user.cookie, 4);
    await t.ageOrder(tradeNo, 4);
    const expired = await payableOrder(user.cookie, 3);
    await t.ageOrder(expired, 4);
    // Polling the status of an expired order closes it.
    expect((await t.call('GET', `/api/user/order/status?trade_no=${expired}`, user.cookie)).statusCode).toBe(409);
    expect((await t.order(tradeNo)).status).toBe('closed');
    // So does creating the next order.
    await t.database.db.updateTable('orders').set({ status: 'pending' }).where('trade_no', '=', tradeNo).execute();
    await payableOrder(user.cookie, 1);
    expect((await t.order(tradeNo)).status).toBe('closed');
    expect(await epay.notify(tradeNo)).toEqual({ status: 200, body: 'fail' });
    expect(await t.quotaOf(user.id)).toBe(0);
    expect(await systemLogs(user.id)).toEqual([
      `在线充值订单 ${tradeNo} 未入账：a payment EP${tradeNo} arrived for an order already closed`,
    ]);
    const status = await t.call('GET', `/api/user/order/status?trade_no=${tradeNo}`, user.cookie);
    expect(status.statusCode).toBe(409);
    expect(status.json().message).toContain('closed');
  });

  // Last: the promotion group it creates applies to every later payer.
  it('moves the payer into a promotion group once the payments reach it, each counted once', async () => {
    const group = await t.call('POST', '/api/user_group/', t.root, {
      ...{ symbol: 'epay-promo', name: 'Promoted by payment', ratio: 0.9, api_rate: 600, public: false },
      ...{ promotion: true, min: 2, max: 0 },
    });
    expect(group.statusCode, group.body).toBe(200);
    const user = await t.createUser('epay-climber');
    const groupOf = async () =>
      (await t.database.db.selectFrom('users').select('group').where('id', '=', user.id).executeTakeFirstOrThrow())
        .group;

    // $1 paid: a payment counted twice would already reach the $2 group.
    const first = await payableOrder(user.cookie, 1);
    expect(await epay.notify(first)).toEqual({ status: 200, body: 'success' });
    expect(await t.quotaOf(user.id)).toBe(QUOTA_PER_UNIT);
    expect(await groupOf()).toBe('default');

    const second = await payableOrder(user.cookie, 1);
    expect(await epay.notify(second)).toEqual({ status: 200, body: 'success' });
    expect(await t.quotaOf(user.id)).toBe(2 * QUOTA_PER_UNIT);
    expect(await groupOf()).toBe('epay-promo');
    expect(await t.topUpLogs(user.id)).toHaveLength(2);
  });
});
