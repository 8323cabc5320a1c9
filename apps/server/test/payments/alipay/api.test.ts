import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../databases.js';
import { type PaymentTestApp, startPaymentApp } from '../support.js';
import { type AlipaySimulator, startAlipaySimulator } from './simulator.js';

const QUOTA_PER_UNIT = 500_000;

/** Alipay through the whole server: orders, the notify route and crediting, on every database. */
describe.each(availableDialects)('paying through Alipay on %s', (dialect) => {
  let t: PaymentTestApp;
  let alipay: AlipaySimulator;
  let facepay: { id: number; uuid: string; config: string };

  /** An order as the user; answers its trade number and how the console is told to pay. */
  async function order(cookie: string, amount: number, uuid = facepay.uuid) {
    const response = await t.call('POST', '/api/user/order', cookie, { uuid, amount });
    expect(response.statusCode, response.body).toBe(200);
    expect(alipay.received.at(-1)?.refusal).toBeUndefined();
    const { trade_no: tradeNo, type, data } = response.json().data;
    return {
      tradeNo: tradeNo as string,
      type: type as number,
      url: data.url as string,
      method: data.method as string | undefined,
    };
  }

  beforeAll(async () => {
    alipay = await startAlipaySimulator();
    t = await startPaymentApp(dialect, { PAYMENT_ALIPAY_GATEWAY: alipay.gatewayUrl });
    facepay = await t.createGateway({
      type: 'alipay',
      name: 'Alipay',
      currency: 'CNY',
      config: JSON.stringify(alipay.config()),
    });
  });
  afterAll(async () => {
    await t?.close();
    await alipay?.close();
  });

  it('keeps the private key out of what the administrator sees', () => {
    const shown = JSON.parse(facepay.config);
    expect(shown.private_key).not.toBe(alipay.config().private_key);
    expect(shown.private_key).toContain('••••');
    expect(shown.public_key).toBe(alipay.config().public_key);
  });

  it('charges in CNY, credits once when the QR page is paid, and answers a re-sent notice `success`', async () => {
    const user = await t.createUser('ali-payer');
    const { tradeNo, type, url } = await order(user.cookie, 10);
    expect(type).toBe(2);
    const call = alipay.received.at(-1);
    expect(JSON.parse(call?.params.biz_content ?? '{}')).toMatchObject({
      out_trade_no: tradeNo,
      total_amount: '73.00',
    });
    expect(call?.params.notify_url).toBe(`${t.base}/api/payment/notify/${facepay.uuid}`);

    const clicked = await request(url.replace('/qr/', '/pay/'), { method: 'POST' });
    expect(await clicked.body.text()).toContain('<span id="merchant-answer">success</span>');
    expect(await t.quotaOf(user.id)).toBe(10 * QUOTA_PER_UNIT);
    expect(await t.order(tradeNo)).toMatchObject({
      status: 'success',
      gateway_no: alipay.orders.get(tradeNo)?.tradeNo,
    });

    const first = alipay.deliveries.at(-1);
    if (!first) throw new Error('no notification was sent');
    expect(await alipay.sendDuplicate(first)).toMatchObject({ status: 200, answer: 'success' });
    expect(await t.quotaOf(user.id)).toBe(10 * QUOTA_PER_UNIT);
    expect(await t.topUpLogs(user.id)).toHaveLength(1);
  });

  it('credits once when 10 notices arrive at the same moment', async () => {
    const user = await t.createUser('ali-racer');
    const { tradeNo } = await order(user.cookie, 3);
    const answers = await Promise.all(Array.from({ length: 10 }, () => alipay.sendPaid(tradeNo)));
    expect(answers.map((answer) => answer.answer)).toEqual(Array(10).fill('success'));
    expect(await t.quotaOf(user.id)).toBe(3 * QUOTA_PER_UNIT);
    expect(await t.topUpLogs(user.id)).toHaveLength(1);
  });

  it('refuses forged and tampered notices with `failure`, crediting nothing', async () => {
    const user = await t.createUser('ali-forger');
    const { tradeNo } = await order(user.cookie, 5);
    const forged = await alipay.sendForged(tradeNo);
    const tampered = await alipay.sendPaid(tradeNo, {
      tamper: (body) => body.replace('trade_status=TRADE_CLOSED', 'trade_status=TRADE_SUCCESS'),
      trade_status: 'TRADE_CLOSED',
    });
    for (const delivery of [forged, tampered]) expect(delivery).toMatchObject({ status: 200, answer: 'failure' });
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.order(tradeNo)).status).toBe('pending');
  });

  it('records an under-payment as failed and credits nothing, even when the full amount follows', async () => {
    const user = await t.createUser('ali-short');
    const { tradeNo } = await order(user.cookie, 2);
    expect((await alipay.sendUnderpaid(tradeNo)).answer).toBe('success');
    expect((await t.order(tradeNo)).status).toBe('failed');
    await alipay.sendPaid(tradeNo);
    expect(await t.quotaOf(user.id)).toBe(0);
  });

  it('acknowledges WAIT_BUYER_PAY and leaves the order pending', async () => {
    const user = await t.createUser('ali-waiting');
    const { tradeNo } = await order(user.cookie, 2);
    expect((await alipay.sendPaid(tradeNo, { trade_status: 'WAIT_BUYER_PAY' })).answer).toBe('success');
    expect((await t.order(tradeNo)).status).toBe('pending');
  });

  it("refuses a genuine notice delivered to another gateway's notify URL with `failure`", async () => {
    const other = await t.createGateway({
      type: 'alipay',
      name: 'Alipay two',
      currency: 'CNY',
      config: JSON.stringify(alipay.config()),
    });
    const user = await t.createUser('ali-crossed');
    const { tradeNo } = await order(user.cookie, 2);
    const crossed = await alipay.sendPaid(tradeNo, { url: `${t.base}/api/payment/notify/${other.uuid}` });
    expect(crossed).toMatchObject({ status: 200, answer: 'failure' });
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.order(tradeNo)).status).toBe('pending');
  });

  it('closes an order pending for over 3 hours and refuses its notice', async () => {
    const user = await t.createUser('ali-late');
    const { tradeNo } = await order(user.cookie, 4);
    await t.ageOrder(tradeNo, 4);
    await order(user.cookie, 1);
    expect((await t.order(tradeNo)).status).toBe('closed');
    expect((await alipay.sendPaid(tradeNo)).answer).toBe('failure');
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.order(tradeNo)).status).toBe('closed');
  });

  it('page pay sends the browser to a signed GET URL whose pay page credits the order', async () => {
    const pagepay = await t.createGateway({
      type: 'alipay',
      name: 'Alipay PC',
      currency: 'CNY',
      config: JSON.stringify(alipay.config({ payType: 'pagepay' })),
    });
    const user = await t.createUser('ali-desktop');
    const { tradeNo, type, url, method } = await order(user.cookie, 1, pagepay.uuid);
    expect({ type, method }).toEqual({ type: 1, method: 'GET' });
    const page = await request(url);
    expect(await page.body.text()).toContain('<button id="pay"');
    expect(alipay.received.at(-1)?.params.notify_url).toBe(`${t.base}/api/payment/notify/${pagepay.uuid}`);
    const token = alipay.orders.get(tradeNo)?.token;
    await request(`${alipay.url}/pay/${token}`, { method: 'POST' });
    expect(await t.quotaOf(user.id)).toBe(QUOTA_PER_UNIT);
  });

  it('refuses to start a payment on a gateway set to USD, naming CNY', async () => {
    const usd = await t.createGateway({
      type: 'alipay',
      name: 'Alipay USD',
      currency: 'USD',
      config: JSON.stringify(alipay.config()),
    });
    const user = await t.createUser('ali-dollar');
    const response = await t.call('POST', '/api/user/order', user.cookie, { uuid: usd.uuid, amount: 1 });
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toMatch(/Alipay charges in CNY only/);
  });

  it("refuses a config holding the application's own public key with a 400 naming the field", async () => {
    const config = {
      ...alipay.config(),
      public_key: alipay.keys.merchantPublicKey.export({ format: 'pem', type: 'spki' }).toString(),
    };
    const response = await t.call('POST', '/api/payment/', t.root, {
      type: 'alipay',
      name: 'Broken',
      currency: 'CNY',
      config: JSON.stringify(config),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/public_key is your application's own public key/);
  });
});
