import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAlipayGateway } from '../../../src/payments/alipay/index.js';
import type { PaymentGateway } from '../../../src/payments/gateway.js';
// Gateway-neutral helpers shared by the gateways' own tests.
import { orderFor } from '../gateway-order.js';
import { type AlipaySimulator, startAlipaySimulator } from './simulator.js';
import { privateKeyText, rsaPair } from './vendor.js';

const NOTIFY_URL = 'https://pay.example.com/api/payment/notify/4c1d';

let simulator: AlipaySimulator;
/** Untyped, as the registry hands it out: configs arrive as the administrator saved them. */
let gateway: PaymentGateway;

beforeAll(async () => {
  simulator = await startAlipaySimulator();
  gateway = createAlipayGateway({ alipayGateway: simulator.gatewayUrl }) as unknown as PaymentGateway;
});
afterAll(() => simulator.close());
beforeEach(() => simulator.reset());

const business = (index = 0) => JSON.parse(simulator.received[index]?.params.biz_content ?? '{}');

describe('Alipay face-to-face (alipay.trade.precreate)', () => {
  it('sends a call Alipay accepts and shows the signed qr_code', async () => {
    const order = orderFor(NOTIFY_URL, 7312);
    const payment = await gateway.pay(simulator.config(), order);

    const [call] = simulator.received;
    expect(call?.refusal).toBeUndefined();
    expect(call?.httpMethod).toBe('POST');
    expect(call?.params).toMatchObject({
      app_id: simulator.keys.appId,
      method: 'alipay.trade.precreate',
      charset: 'utf-8',
      sign_type: 'RSA2',
      version: '1.0',
      notify_url: NOTIFY_URL,
    });
    expect(call?.params.return_url).toBeUndefined();
    expect(business()).toEqual({
      out_trade_no: order.tradeNo,
      total_amount: '73.12',
      subject: order.subject,
      timeout_express: '170m',
    });
    const token = simulator.orders.get(order.tradeNo)?.token;
    expect(payment).toEqual({ type: 2, url: `${simulator.url}/qr/${token}` });
  });

  it.each(['bare-pkcs8', 'pem-pkcs1', 'pem-pkcs8'] as const)(
    'signs the same way with the key given as %s',
    async (keyFormat) => {
      await gateway.pay(simulator.config({ keyFormat }), orderFor(NOTIFY_URL, 100));
      expect(simulator.received[0]?.refusal).toBeUndefined();
    },
  );

  it('writes whole yuan and fen exactly', async () => {
    await gateway.pay(simulator.config(), orderFor(NOTIFY_URL, 1));
    await gateway.pay(simulator.config(), orderFor(NOTIFY_URL, 100_000));
    expect([business(0).total_amount, business(1).total_amount]).toEqual(['0.01', '1000.00']);
  });

  it('refuses USD before calling Alipay', async () => {
    await expect(gateway.pay(simulator.config(), orderFor(NOTIFY_URL, 500, { currency: 'USD' }))).rejects.toThrow(
      "Alipay charges in CNY only: set this gateway's currency to CNY (not USD)",
    );
    expect(simulator.received).toHaveLength(0);
  });

  it('refuses an answer signed with another key, an unsigned success and one about another order', async () => {
    simulator.behaviour = 'forged';
    await expect(gateway.pay(simulator.config(), orderFor(NOTIFY_URL, 100))).rejects.toThrow(
      /failed verification.*public_key/,
    );
    simulator.behaviour = 'unsigned';
    await expect(gateway.pay(simulator.config(), orderFor(NOTIFY_URL, 100))).rejects.toThrow(
      "Alipay's answer was not signed",
    );
    simulator.behaviour = 'other-order';
    await expect(gateway.pay(simulator.config(), orderFor(NOTIFY_URL, 100))).rejects.toThrow(/about another order/);
  });

  it("passes on Alipay's refusal of a request signed with a key it does not know, with a hint", async () => {
    const config = { ...simulator.config(), private_key: privateKeyText(rsaPair().privateKey, 'bare-pkcs1') };
    await expect(gateway.pay(config, orderFor(NOTIFY_URL, 100))).rejects.toThrow(
      /Alipay refused the order: 40002 Invalid Arguments isv.invalid-signature .*check private_key/,
    );
    expect(simulator.received[0]?.refusal?.subCode).toBe('isv.invalid-signature');
  });

  it('passes on a signed business refusal (same trade number, another amount)', async () => {
    const order = orderFor(NOTIFY_URL, 100);
    await gateway.pay(simulator.config(), order);
    await expect(gateway.pay(simulator.config(), { ...order, amountCents: 200 })).rejects.toThrow(
      'Alipay refused the order: 40004 Business Failed ACQ.CONTEXT_INCONSISTENT 交易信息被篡改',
    );
  });

  it('cuts a long subject to 256 characters without splitting one', async () => {
    await gateway.pay(simulator.config(), orderFor(NOTIFY_URL, 100, { subject: '充'.repeat(300) }));
    expect(simulator.received[0]?.refusal).toBeUndefined();
    expect(business().subject).toBe('充'.repeat(256));
  });

  it('says when Alipay cannot be reached and refuses a stored config that no longer parses', async () => {
    const closed = createAlipayGateway({ alipayGateway: 'http://127.0.0.1:1/gateway.do' }) as unknown as PaymentGateway;
    await expect(closed.pay(simulator.config(), orderFor(NOTIFY_URL, 100))).rejects.toThrow(
      /Alipay could not be reached/,
    );
    await expect(gateway.pay({ ...simulator.config(), app_id: '' }, orderFor(NOTIFY_URL, 100))).rejects.toThrow(
      /^config: app_id/,
    );
  });
});

describe('Alipay page pay and WAP pay', () => {
  it.each([
    ['pagepay', 'alipay.trade.page.pay', 'FAST_INSTANT_TRADE_PAY'],
    ['wappay', 'alipay.trade.wap.pay', 'QUICK_WAP_WAY'],
  ])('%s opens a signed GET URL that Alipay accepts and shows its pay page', async (payType, method, productCode) => {
    const order = orderFor(NOTIFY_URL, 2599);
    const payment = await gateway.pay(simulator.config({ payType }), order);
    expect(payment).toMatchObject({ type: 1, method: 'GET' });
    expect(payment.url.startsWith(`${simulator.gatewayUrl}?`)).toBe(true);
    expect(simulator.received).toHaveLength(0);

    const page = await request(payment.url);
    const html = await page.body.text();
    expect(page.statusCode, html).toBe(200);
    expect(html).toContain('<span id="amount">25.99</span>');
    const [call] = simulator.received;
    expect(call?.refusal).toBeUndefined();
    expect(call?.params).toMatchObject({ method, return_url: order.returnUrl, notify_url: NOTIFY_URL });
    expect(business()).toMatchObject({ out_trade_no: order.tradeNo, total_amount: '25.99', product_code: productCode });
    if (payType === 'wappay') expect(business().quit_url).toBe(order.returnUrl);
  });

  it('a URL altered after signing is refused by Alipay', async () => {
    const payment = await gateway.pay(simulator.config({ payType: 'pagepay' }), orderFor(NOTIFY_URL, 2599));
    const altered = new URL(payment.url);
    altered.searchParams.set('biz_content', altered.searchParams.get('biz_content')?.replace('25.99', '0.01') ?? '');
    const page = await request(altered);
    expect(page.statusCode).toBe(400);
    expect(await page.body.text()).toContain('isv.invalid-signature');
  });
});
