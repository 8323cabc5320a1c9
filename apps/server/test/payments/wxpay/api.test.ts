import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../databases.js';
import { type PaymentTestApp, startPaymentApp } from '../support.js';
import { PLATFORM_CERTIFICATE, PLATFORM_CERTIFICATE_SERIAL } from './platform-certificate.js';
import { startWxpaySimulator, type WxpaySimulator } from './simulator.js';

const QUOTA_PER_UNIT = 500_000;
const FAIL = JSON.stringify({ code: 'FAIL', message: 'the notification was refused' });

/** WeChat Pay through the whole server: orders, the notify route and crediting, on every database. */
describe.each(availableDialects)('paying through WeChat Pay on %s', (dialect) => {
  let t: PaymentTestApp;
  let wxpay: WxpaySimulator;
  let gateway: { id: number; uuid: string; config: string };

  /** Creates an order as the user: the answer is a QR code of the simulator's pay page. */
  async function payableOrder(
    cookie: string,
    amount: number,
    uuid = gateway.uuid,
  ): Promise<{ tradeNo: string; url: string }> {
    const response = await t.call('POST', '/api/user/order', cookie, { uuid, amount });
    expect(response.statusCode, response.body).toBe(200);
    const { trade_no: tradeNo, type, data } = response.json().data;
    expect(type).toBe(2);
    expect(wxpay.received.at(-1)?.authorization.ok).toBe(true);
    return { tradeNo, url: data.url };
  }

  const addGateway = (name: string, currency: 'CNY' | 'USD') =>
    t.createGateway({ type: 'wxpay', name, currency, config: JSON.stringify(wxpay.config()) });

  beforeAll(async () => {
    wxpay = await startWxpaySimulator();
    t = await startPaymentApp(dialect, { PAYMENT_WXPAY_API_BASE: wxpay.url });
    gateway = await addGateway('WeChat Pay', 'CNY');
  });
  afterAll(async () => {
    await t?.close();
    await wxpay?.close();
  });

  it('keeps the APIv3 key and the private key out of what the administrator sees', () => {
    const shown = JSON.parse(gateway.config);
    expect(shown.mch_apiv3_key).not.toBe(wxpay.keys.apiV3Key);
    expect(shown.mch_private_key).not.toContain('PRIVATE KEY-----\n');
    expect(shown.wechatpay_public_key_id).toBe(wxpay.keys.wechatpayPublicKeyId);
  });

  it('charges in fen, credits once when paid on the pay page, and acknowledges a retry', async () => {
    const user = await t.createUser('wx-payer');
    const { tradeNo, url } = await payableOrder(user.cookie, 10);
    const prepay = JSON.parse(wxpay.received.at(-1)?.body ?? '{}');
    expect(prepay).toMatchObject({ out_trade_no: tradeNo, amount: { total: 7300, currency: 'CNY' } });
    expect(prepay.notify_url).toBe(`${t.base}/api/payment/notify/${gateway.uuid}`);

    const clicked = await request(url, { method: 'POST', body: '' });
    expect(await clicked.body.text()).toContain('data-status="204"');
    expect(await t.quotaOf(user.id)).toBe(10 * QUOTA_PER_UNIT);
    const order = await t.order(tradeNo);
    expect(order.status).toBe('success');
    expect(order.gateway_no).toBe(wxpay.orders.get(tradeNo)?.transactionId);
    expect(await t.topUpLogs(user.id)).toHaveLength(1);

    const first = wxpay.deliveries.at(-1);
    if (!first) throw new Error('no notification was sent');
    expect(await wxpay.sendDuplicate(first, prepay.notify_url)).toMatchObject({ status: 204, answer: '' });
    expect(await t.quotaOf(user.id)).toBe(10 * QUOTA_PER_UNIT);
    expect(await t.topUpLogs(user.id)).toHaveLength(1);
  });

  it('credits once when 12 notifications arrive at the same moment', async () => {
    const user = await t.createUser('wx-racer');
    const { tradeNo } = await payableOrder(user.cookie, 3);
    const answers = await Promise.all(Array.from({ length: 12 }, () => wxpay.sendPaid(tradeNo)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(204));
    expect(await t.quotaOf(user.id)).toBe(3 * QUOTA_PER_UNIT);
    expect(await t.topUpLogs(user.id)).toHaveLength(1);
  });

  it('refuses forged, expired and undecryptable notifications with FAIL, crediting nothing', async () => {
    const user = await t.createUser('wx-forger');
    const { tradeNo } = await payableOrder(user.cookie, 5);
    const forged = await wxpay.sendForged(tradeNo);
    const expired = await wxpay.sendPaid(tradeNo, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    const wrongKey = await wxpay.sendPaid(tradeNo, { apiV3Key: 'k'.repeat(32) });
    for (const delivery of [forged, expired, wrongKey]) expect(delivery).toMatchObject({ status: 400, answer: FAIL });
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.order(tradeNo)).status).toBe('pending');
  });

  it('records an under-payment as failed and credits nothing', async () => {
    const user = await t.createUser('wx-short');
    const { tradeNo } = await payableOrder(user.cookie, 2);
    await wxpay.sendUnderpaid(tradeNo);
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.order(tradeNo)).status).toBe('failed');
    expect((await wxpay.sendPaid(tradeNo)).status).toBe(400);
    expect(await t.quotaOf(user.id)).toBe(0);
  });

  it('acknowledges a transaction that is not paid and leaves the order pending', async () => {
    const user = await t.createUser('wx-waiting');
    const { tradeNo } = await payableOrder(user.cookie, 2);
    expect((await wxpay.sendPaid(tradeNo, { tradeState: 'NOTPAY' })).status).toBe(204);
    expect((await t.order(tradeNo)).status).toBe('pending');
  });

  it("refuses a genuine notification delivered to another gateway's notify URL", async () => {
    const other = await addGateway('WeChat Pay two', 'CNY');
    const user = await t.createUser('wx-crossed');
    const { tradeNo } = await payableOrder(user.cookie, 2);
    const crossed = await wxpay.sendPaid(tradeNo, { url: `${t.base}/api/payment/notify/${other.uuid}` });
    expect(crossed).toMatchObject({ status: 400, answer: FAIL });
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.order(tradeNo)).status).toBe('pending');
  });

  it('closes an order pending for over 3 hours and refuses its notification', async () => {
    const user = await t.createUser('wx-late');
    const { tradeNo } = await payableOrder(user.cookie, 4);
    await t.ageOrder(tradeNo, 4);
    await payableOrder(user.cookie, 1);
    expect((await t.order(tradeNo)).status).toBe('closed');
    expect((await wxpay.sendPaid(tradeNo)).status).toBe(400);
    expect(await t.quotaOf(user.id)).toBe(0);
  });

  it('refuses to start a payment on a gateway set to USD, naming CNY', async () => {
    const usd = await addGateway('WeChat Pay USD', 'USD');
    const user = await t.createUser('wx-dollar');
    const response = await t.call('POST', '/api/user/order', user.cookie, { uuid: usd.uuid, amount: 1 });
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toMatch(/CNY only/);
  });

  it('takes a platform certificate without an id (its serial is the id), but a public key only with its id', async () => {
    const certified = await t.createGateway({
      type: 'wxpay',
      name: 'WeChat Pay (certificate)',
      currency: 'CNY',
      config: JSON.stringify(wxpay.config({ wechatpay_public_key: PLATFORM_CERTIFICATE, wechatpay_public_key_id: '' })),
    });
    expect(JSON.parse(certified.config).wechatpay_public_key_id).toBe(PLATFORM_CERTIFICATE_SERIAL);

    const response = await t.call('POST', '/api/payment/', t.root, {
      type: 'wxpay',
      name: 'WeChat Pay (no id)',
      currency: 'CNY',
      config: JSON.stringify(wxpay.config({ wechatpay_public_key_id: '' })),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^config: wechatpay_public_key_id is required/);
  });

  it('refuses a config with a bad APIv3 key with a 400 naming the field', async () => {
    const response = await t.call('POST', '/api/payment/', t.root, {
      type: 'wxpay',
      name: 'Broken',
      currency: 'CNY',
      config: JSON.stringify(wxpay.config({ mch_apiv3_key: 'short' })),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/mch_apiv3_key must be exactly 32/);
  });
});
