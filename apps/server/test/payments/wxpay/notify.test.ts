import { createPrivateKey, randomBytes } from 'node:crypto';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { PaymentGateway } from '../../../src/payments/gateway.js';
import { createWxpayGateway } from '../../../src/payments/wxpay/index.js';
import { orderFor } from '../gateway-order.js';
import { useNotifyBench } from '../notify-bench.js';
import { PLATFORM_CERTIFICATE, PLATFORM_CERTIFICATE_KEY, PLATFORM_CERTIFICATE_SERIAL } from './platform-certificate.js';
import { startWxpaySimulator } from './simulator.js';
import { wechatpayHeaders } from './vendor.js';

const bench = useNotifyBench(
  startWxpaySimulator,
  (simulator) => createWxpayGateway({ wxpayApiBase: simulator.url }) as unknown as PaymentGateway,
);

/** An order placed at the simulator through the gateway, as the order service does. */
async function placeOrder(amountCents = 7312) {
  const order = orderFor(bench.merchant.url, amountCents);
  const payment = await bench.gateway.pay(bench.config, order);
  return { order, payment };
}

const FAIL_ANSWER = { status: 400, answer: JSON.stringify({ code: 'FAIL', message: 'the notification was refused' }) };

describe('WeChat Pay notifications', () => {
  it('reads a genuine notification as paid, in fen and CNY, and answers 204 with no body', async () => {
    const { order } = await placeOrder(7312);
    const delivery = await bench.simulator.sendPaid(order.tradeNo);
    const transactionId = bench.simulator.orders.get(order.tradeNo)?.transactionId;
    expect(bench.merchant.results).toEqual([
      { kind: 'paid', tradeNo: order.tradeNo, gatewayNo: transactionId, paidCents: 7312, currency: 'CNY' },
    ]);
    expect(delivery).toMatchObject({ status: 204, answer: '' });
  });

  it("is paid through the simulator's pay page, which the QR code opens", async () => {
    const { order, payment } = await placeOrder(1999);
    const page = await request(payment.url);
    const html = await page.body.text();
    expect(html).toContain('¥19.99');
    expect(html).toContain('<button type="submit" id="pay">Pay</button>');

    const result = await request(payment.url, { method: 'POST', body: '' });
    expect(await result.body.text()).toContain('data-status="204"');
    expect(bench.merchant.results).toEqual([
      expect.objectContaining({ kind: 'paid', tradeNo: order.tradeNo, paidCents: 1999 }),
    ]);
  });

  it('reports what an under-payment says was paid, so the order service can refuse it', async () => {
    const { order } = await placeOrder(7312);
    await bench.simulator.sendUnderpaid(order.tradeNo);
    expect(bench.merchant.results).toEqual([
      expect.objectContaining({ kind: 'paid', paidCents: 7311, currency: 'CNY' }),
    ]);
  });

  it("reads WeChat Pay's retry of the same notification the same way (the order service credits once)", async () => {
    const { order } = await placeOrder();
    const first = await bench.simulator.sendPaid(order.tradeNo);
    const retry = await bench.simulator.sendDuplicate(first, bench.merchant.url);
    expect(retry.headers['wechatpay-signature']).not.toBe(first.headers['wechatpay-signature']);
    expect(bench.merchant.results).toHaveLength(2);
    expect(bench.merchant.results[1]).toEqual(bench.merchant.results[0]);
  });

  it('reads a captured notification replayed within five minutes as the same payment, and one older as expired', async () => {
    const { order } = await placeOrder();
    const stale = await bench.simulator.sendPaid(order.tradeNo, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    const fresh = await bench.simulator.sendPaid(order.tradeNo);
    await bench.simulator.replay(fresh, bench.merchant.url);
    await bench.simulator.replay(stale, bench.merchant.url);
    expect(bench.merchant.results.map((result) => result.kind)).toEqual(['rejected', 'paid', 'paid', 'rejected']);
    expect(bench.merchant.results[2]).toEqual(bench.merchant.results[1]);
  });

  it('rejects a notification signed with a key that is not WeChat Pay’s, and answers FAIL', async () => {
    const { order } = await placeOrder();
    const delivery = await bench.simulator.sendForged(order.tradeNo);
    expect(bench.merchant.results).toEqual([
      { kind: 'rejected', reason: 'Wechatpay-Signature does not match the body' },
    ]);
    expect(delivery).toMatchObject(FAIL_ANSWER);
  });

  it('rejects a body altered after it was signed', async () => {
    const { order } = await placeOrder();
    await bench.simulator.sendPaid(order.tradeNo, {
      tamper: (body) => body.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" '),
    });
    expect(bench.merchant.results[0]).toEqual({
      kind: 'rejected',
      reason: 'Wechatpay-Signature does not match the body',
    });
  });

  it.each([
    ['expired', -301],
    ['from the future', 301],
  ])('rejects a notification timestamped %s (more than five minutes off)', async (_label, offset) => {
    const { order } = await placeOrder();
    await bench.simulator.sendPaid(order.tradeNo, { timestamp: Math.floor(Date.now() / 1000) + offset });
    expect(bench.merchant.results[0]).toMatchObject({
      kind: 'rejected',
      reason: expect.stringMatching(/more than five minutes/),
    });
  });

  it('accepts one signed just within five minutes', async () => {
    const { order } = await placeOrder();
    await bench.simulator.sendPaid(order.tradeNo, { timestamp: Math.floor(Date.now() / 1000) - 290 });
    expect(bench.merchant.results[0]?.kind).toBe('paid');
  });

  it('rejects a notification naming another WeChat Pay key id', async () => {
    const { order } = await placeOrder();
    await bench.simulator.sendPaid(order.tradeNo, { serial: 'PUB_KEY_ID_0199999999999999999999999999' });
    expect(bench.merchant.results[0]).toMatchObject({
      kind: 'rejected',
      reason: expect.stringMatching(/Wechatpay-Serial/),
    });
  });

  it('rejects a genuine signature over a resource sealed with another APIv3 key', async () => {
    const { order } = await placeOrder();
    await bench.simulator.sendPaid(order.tradeNo, { apiV3Key: randomBytes(16).toString('hex') });
    expect(bench.merchant.results[0]).toMatchObject({
      kind: 'rejected',
      reason: expect.stringMatching(/does not decrypt/),
    });
  });

  it('rejects a notification for another merchant or app', async () => {
    const { order } = await placeOrder();
    await bench.simulator.sendPaid(order.tradeNo, { mchid: '1600000001' });
    await bench.simulator.sendPaid(order.tradeNo, { appid: 'wx0000000000000000' });
    expect(bench.merchant.results.map((result) => result.kind)).toEqual(['rejected', 'rejected']);
    expect(JSON.stringify(bench.merchant.results)).toMatch(
      /mchid 1600000001 is not this merchant.*appid wx0000000000000000/,
    );
  });

  it.each([
    ['an event that is not a payment', { eventType: 'REFUND.SUCCESS' }, 'event_type REFUND.SUCCESS'],
    ['a transaction not paid', { tradeState: 'NOTPAY' }, 'trade_state NOTPAY'],
  ])('acknowledges and ignores %s', async (_label, options, reason) => {
    const { order } = await placeOrder();
    const delivery = await bench.simulator.sendPaid(order.tradeNo, options);
    expect(bench.merchant.results[0]).toEqual({ kind: 'ignored', reason });
    expect(delivery.status).toBe(204);
  });

  it('passes on a reported currency for the order service to compare, and rejects one it cannot charge in', async () => {
    const { order } = await placeOrder();
    await bench.simulator.sendPaid(order.tradeNo, { currency: 'USD' });
    await bench.simulator.sendPaid(order.tradeNo, { currency: 'HKD' });
    expect(bench.merchant.results[0]).toMatchObject({ kind: 'paid', currency: 'USD' });
    expect(bench.merchant.results[1]).toMatchObject({
      kind: 'rejected',
      reason: expect.stringMatching(/currency HKD/),
    });
  });

  it('rejects an algorithm other than AEAD_AES_256_GCM', async () => {
    const { order } = await placeOrder();
    await bench.simulator.sendPaid(order.tradeNo, { algorithm: 'AEAD_AES_128_GCM' });
    expect(bench.merchant.results[0]).toMatchObject({
      kind: 'rejected',
      reason: expect.stringMatching(/AEAD_AES_128_GCM/),
    });
  });
});

describe('WeChat Pay notifications that are not even well formed', () => {
  const keys = () => bench.simulator.keys;
  const signed = (body: string) =>
    wechatpayHeaders(body, keys().wechatpayPrivateKey, keys().wechatpayPublicKeyId, Math.floor(Date.now() / 1000));
  const verify = (body: string, headers: Record<string, string>, method = 'POST') =>
    bench.gateway.verify(
      bench.config,
      { method, query: {}, headers, rawBody: Buffer.from(body, 'utf8') },
      { uuid: 'a'.repeat(32) },
    );

  it.each([
    ['not JSON', 'not json', /not a WeChat Pay notification/],
    ['without a resource', JSON.stringify({ id: 'EV-1', event_type: 'TRANSACTION.SUCCESS' }), /bad resource/],
    ['empty', '', /not a WeChat Pay notification/],
  ])('rejects a signed body that is %s', async (_label, body, reason) => {
    expect(await verify(body, signed(body))).toMatchObject({ kind: 'rejected', reason: expect.stringMatching(reason) });
  });

  it('rejects a notification without signature headers, or not posted', async () => {
    const body = JSON.stringify({ id: 'EV-1' });
    expect(await verify(body, {})).toMatchObject({
      kind: 'rejected',
      reason: expect.stringMatching(/missing Wechatpay-Timestamp/),
    });
    expect(await verify(body, signed(body), 'GET')).toMatchObject({
      kind: 'rejected',
      reason: expect.stringMatching(/by POST/),
    });
  });

  it("rejects WeChat Pay's signature probes (a signature that is not one)", async () => {
    const body = JSON.stringify({ id: 'EV-1' });
    const headers = {
      ...signed(body),
      'wechatpay-signature': `WECHATPAY/SIGNTEST/${randomBytes(32).toString('base64')}`,
    };
    expect(await verify(body, headers)).toEqual({
      kind: 'rejected',
      reason: 'Wechatpay-Signature does not match the body',
    });
  });

  it('rejects instead of throwing when the stored config is unusable', async () => {
    const body = JSON.stringify({ id: 'EV-1' });
    bench.config = { ...bench.simulator.config(), mch_private_key: 'garbage' };
    expect(await verify(body, signed(body))).toMatchObject({
      kind: 'rejected',
      reason: expect.stringMatching(/mch_private_key/),
    });
  });
});

describe('WeChat Pay platform certificates (before the WeChat Pay public key)', () => {
  it('takes the certificate in place of the public key, its serial number as the id', async () => {
    const parsed = bench.gateway.configSchema.parse({
      ...bench.simulator.config(),
      wechatpay_public_key: PLATFORM_CERTIFICATE,
      wechatpay_public_key_id: '',
    });
    expect(parsed.wechatpay_public_key_id).toBe(PLATFORM_CERTIFICATE_SERIAL);

    const { order } = await placeOrder(500);
    bench.config = parsed as Record<string, string>;
    const signingKey = createPrivateKey(PLATFORM_CERTIFICATE_KEY);
    await bench.simulator.sendPaid(order.tradeNo, { signingKey, serial: PLATFORM_CERTIFICATE_SERIAL });
    await bench.simulator.sendPaid(order.tradeNo);
    expect(bench.merchant.results[0]).toMatchObject({ kind: 'paid', paidCents: 500 });
    // WeChat Pay's public key no longer verifies once the certificate is configured.
    expect(bench.merchant.results[1]).toMatchObject({
      kind: 'rejected',
      reason: expect.stringMatching(/Wechatpay-Serial/),
    });
  });
});
