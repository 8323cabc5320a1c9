import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createAlipayGateway } from '../../../src/payments/alipay/index.js';
import type { PaymentGateway } from '../../../src/payments/gateway.js';
import { orderFor } from '../gateway-order.js';
import { useNotifyBench } from '../notify-bench.js';
import { startAlipaySimulator } from './simulator.js';
import { publicKeyText, rsaPair } from './vendor.js';

const bench = useNotifyBench(
  startAlipaySimulator,
  (simulator) => createAlipayGateway({ alipayGateway: simulator.gatewayUrl }) as unknown as PaymentGateway,
);

/** An order the simulator knows (precreated through the gateway), for `amountCents` fen. */
async function placed(amountCents = 1234): Promise<string> {
  const order = orderFor(bench.merchant.url, amountCents);
  await bench.gateway.pay(bench.config, order);
  return order.tradeNo;
}

const lastResult = () => bench.merchant.results.at(-1);

describe('Alipay asynchronous notification', () => {
  it('a genuine form POST is paid, in fen and CNY, and answered `success`', async () => {
    const tradeNo = await placed(1234);
    const delivery = await bench.simulator.sendPaid(tradeNo);
    expect(delivery).toMatchObject({ status: 200, answer: 'success' });
    const gatewayNo = bench.simulator.orders.get(tradeNo)?.tradeNo;
    expect(lastResult()).toEqual({ kind: 'paid', tradeNo, gatewayNo, paidCents: 1234, currency: 'CNY' });
  });

  it('the same parameters on a GET query are read the same way', async () => {
    const tradeNo = await placed(99);
    await bench.simulator.sendPaid(tradeNo, { httpMethod: 'GET' });
    expect(lastResult()).toMatchObject({ kind: 'paid', tradeNo, paidCents: 99 });
  });

  it('TRADE_FINISHED is paid too; WAIT_BUYER_PAY and TRADE_CLOSED are acknowledged and ignored', async () => {
    const tradeNo = await placed(500);
    await bench.simulator.sendPaid(tradeNo, { trade_status: 'TRADE_FINISHED' });
    expect(lastResult()).toMatchObject({ kind: 'paid', paidCents: 500 });
    for (const status of ['WAIT_BUYER_PAY', 'TRADE_CLOSED']) {
      const delivery = await bench.simulator.sendPaid(tradeNo, { trade_status: status });
      expect(delivery.answer).toBe('success');
      expect(lastResult()).toEqual({ kind: 'ignored', reason: `trade_status ${status}` });
    }
  });

  it('an under-payment is reported with the amount Alipay says was paid', async () => {
    const tradeNo = await placed(1000);
    await bench.simulator.sendUnderpaid(tradeNo);
    expect(lastResult()).toMatchObject({ kind: 'paid', tradeNo, paidCents: 999 });
    await bench.simulator.sendUnderpaid(tradeNo, '0.5');
    expect(lastResult()).toMatchObject({ kind: 'paid', paidCents: 50 });
  });

  it('a notice about a refund is not a payment', async () => {
    const tradeNo = await placed(1000);
    await bench.simulator.sendPaid(tradeNo, {
      extra: { refund_fee: '1.00', gmt_refund: '2026-01-02 03:04:05.678', out_biz_no: 'R1' },
    });
    expect(lastResult()).toEqual({ kind: 'ignored', reason: 'a refund notice, not a payment' });
  });

  it("Alipay's re-sending of the same notice verifies again (the order service credits once)", async () => {
    const tradeNo = await placed(1000);
    const first = await bench.simulator.sendPaid(tradeNo);
    const again = await bench.simulator.sendDuplicate(first);
    expect(again.answer).toBe('success');
    expect(bench.merchant.results).toHaveLength(2);
    expect(bench.merchant.results[1]).toEqual(bench.merchant.results[0]);
  });
});

describe('Alipay notifications that are refused (`failure`)', () => {
  it('signed with a key that is not Alipay’s', async () => {
    const tradeNo = await placed();
    const delivery = await bench.simulator.sendForged(tradeNo);
    expect(delivery).toMatchObject({ status: 200, answer: 'failure' });
    expect(lastResult()).toEqual({ kind: 'rejected', reason: 'sign does not verify with the Alipay public key' });
  });

  it('verified with the wrong public key (another Alipay key configured)', async () => {
    const tradeNo = await placed();
    bench.config = { ...bench.config, public_key: publicKeyText(rsaPair().publicKey) };
    await bench.simulator.sendPaid(tradeNo);
    expect(lastResult()).toMatchObject({ kind: 'rejected', reason: 'sign does not verify with the Alipay public key' });
  });

  it.each([
    ['the amount raised', (body: string) => body.replace(/total_amount=12.34/, 'total_amount=1234.00')],
    ['the trade number swapped', (body: string) => body.replace(/out_trade_no=\d+/, 'out_trade_no=1')],
    ['a signed parameter removed', (body: string) => body.replace(/&buyer_id=\d+/, '')],
    ['an unsigned parameter added', (body: string) => `${body}&passback_params=x`],
    ['the sign removed', (body: string) => body.replace(/&sign=[^&]*/, '')],
    ['sign_type RSA (SHA1) claimed', (body: string) => body.replace('sign_type=RSA2', 'sign_type=RSA')],
    ['a parameter given twice', (body: string) => `${body}&total_amount=12.34`],
  ])('tampered in transit: %s', async (_name, tamper) => {
    const tradeNo = await placed(1234);
    const delivery = await bench.simulator.sendPaid(tradeNo, { tamper });
    expect(delivery.answer).toBe('failure');
    expect(lastResult()?.kind).toBe('rejected');
  });

  it('genuinely signed by Alipay but for another application', async () => {
    const tradeNo = await placed();
    await bench.simulator.sendPaid(tradeNo, { app_id: '2021000000000000' });
    expect(lastResult()).toEqual({ kind: 'rejected', reason: 'app_id 2021000000000000 is not this application' });
  });

  it('signed but malformed: no trade_status, an amount that is not yuan, no trade_no', async () => {
    const tradeNo = await placed();
    await bench.simulator.sendPaid(tradeNo, { extra: { trade_status: '' } });
    expect(lastResult()).toEqual({ kind: 'rejected', reason: 'no trade_status' });
    await bench.simulator.sendPaid(tradeNo, { total_amount: '12.345' });
    expect(lastResult()).toEqual({ kind: 'rejected', reason: 'total_amount 12.345 is not an amount in yuan' });
    await bench.simulator.sendPaid(tradeNo, { total_amount: '-1.00' });
    expect(lastResult()?.kind).toBe('rejected');
    await bench.simulator.sendPaid(tradeNo, { extra: { trade_no: '' } });
    expect(lastResult()).toEqual({ kind: 'rejected', reason: 'no out_trade_no or trade_no' });
  });

  it('a JSON body, an empty request and garbage never reach the credit, and never throw', async () => {
    const json = await request(bench.merchant.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"trade_status":"TRADE_SUCCESS"}',
    });
    expect(await json.body.text()).toBe('failure');
    expect(lastResult()).toEqual({ kind: 'rejected', reason: 'content type application/json is not a form' });
    const empty = await request(bench.merchant.url, { method: 'POST' });
    expect(await empty.body.text()).toBe('failure');
    expect(lastResult()).toEqual({ kind: 'rejected', reason: 'no sign parameter' });
    const garbage = await request(`${bench.merchant.url}?sign=%%%&sign_type=RSA2&app_id=${bench.config.app_id}`, {
      method: 'GET',
    });
    expect(await garbage.body.text()).toBe('failure');
    expect(lastResult()?.kind).toBe('rejected');
  });

  it('a stored config that no longer parses refuses every notice instead of throwing', async () => {
    const tradeNo = await placed();
    bench.config = { ...bench.config, private_key: 'broken' };
    await bench.simulator.sendPaid(tradeNo);
    expect(lastResult()).toMatchObject({ kind: 'rejected', reason: expect.stringMatching(/^config: private_key/) });
  });
});

describe("the simulator's pay pages", () => {
  it("the QR code's page pays: its button posts the signed notice, and the merchant's answer is shown", async () => {
    const order = orderFor(bench.merchant.url, 4321);
    const payment = await bench.gateway.pay(bench.config, order);
    const page = await request(payment.url);
    expect(await page.body.text()).toContain('<button id="pay"');
    const paid = await request(payment.url.replace('/qr/', '/pay/'), { method: 'POST' });
    expect(await paid.body.text()).toContain('<span id="merchant-answer">success</span>');
    expect(lastResult()).toMatchObject({ kind: 'paid', tradeNo: order.tradeNo, paidCents: 4321, currency: 'CNY' });
  });
});

describe('Alipay answer', () => {
  it('is `success` or `failure` as text/plain with status 200', () => {
    expect(bench.gateway.answer('ok')).toEqual({
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      body: 'success',
    });
    expect(bench.gateway.answer('fail')).toEqual({
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      body: 'failure',
    });
  });
});
