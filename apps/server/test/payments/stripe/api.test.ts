import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../databases.js';
import { type PaymentTestApp, startPaymentApp } from '../support.js';
import { sessionView } from './api-routes.js';
import { only, type StripeSimulator, startStripeSimulator } from './simulator.js';

const QUOTA_PER_UNIT = 500_000;

/** Stripe through the whole server: the webhook it registers, orders, the notify route and crediting, on every database. */
describe.each(availableDialects)('paying through Stripe on %s', (dialect) => {
  let t: PaymentTestApp;
  let stripe: StripeSimulator;
  let gateway: { id: number; uuid: string; config: string };

  /** Creates an order as the user; answers its trade number and its Checkout Session id. */
  async function checkout(
    cookie: string,
    amount: number,
    uuid = gateway.uuid,
  ): Promise<{ tradeNo: string; sessionId: string }> {
    const response = await t.call('POST', '/api/user/order', cookie, { uuid, amount });
    expect(response.statusCode, response.body).toBe(200);
    const { trade_no: tradeNo, type, data } = response.json().data;
    expect(type).toBe(1);
    const session = [...stripe.sessions.values()].find((candidate) => candidate.client_reference_id === tradeNo);
    if (!session) throw new Error(`no checkout session for ${tradeNo}`);
    expect(data.url).toBe(session.url);
    return { tradeNo, sessionId: session.id };
  }

  const status = async (cookie: string, tradeNo: string) =>
    (await t.call('GET', `/api/user/order/status?trade_no=${tradeNo}`, cookie)).statusCode;

  const systemLogs = (userId: number) =>
    t.database.db.selectFrom('logs').select('content').where('user_id', '=', userId).where('type', '=', 4).execute();

  beforeAll(async () => {
    stripe = await startStripeSimulator();
    t = await startPaymentApp(dialect, { PAYMENT_STRIPE_API_BASE: stripe.baseUrl });
    gateway = await t.createGateway({
      type: 'stripe',
      name: 'Stripe',
      currency: 'USD',
      config: JSON.stringify({ secret_key: stripe.secretKey }),
    });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  it('registers one webhook endpoint for the checkout events at the gateway’s notify URL', () => {
    const endpoint = only(stripe.webhookEndpoints.values());
    expect(endpoint.url).toBe(`${t.base}/api/payment/notify/${gateway.uuid}`);
    expect(endpoint.enabled_events).toEqual([
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
      'checkout.session.async_payment_failed',
    ]);
    const shown = JSON.parse(gateway.config);
    expect(shown.secret_key).not.toBe(stripe.secretKey);
    expect(shown.webhook_secret).not.toBe(endpoint.secret);
  });

  it('credits a card payment once, however often Stripe delivers it', async () => {
    const user = await t.createUser('st-card');
    const { tradeNo, sessionId } = await checkout(user.cookie, 10);
    const paid = only(await stripe.pay(sessionId));
    expect(paid.status).toBe(200);
    expect(await t.quotaOf(user.id)).toBe(10 * QUOTA_PER_UNIT);
    expect(await t.order(tradeNo)).toMatchObject({
      status: 'success',
      gateway_no: stripe.sessions.get(sessionId)?.payment_intent,
    });
    expect(only(await stripe.resend(paid.eventId)).status).toBe(200);
    expect(await t.quotaOf(user.id)).toBe(10 * QUOTA_PER_UNIT);
    expect(await t.topUpLogs(user.id)).toHaveLength(1);
  });

  it('credits nothing while a bank debit settles, then credits once when it succeeds', async () => {
    const user = await t.createUser('st-debit');
    const { tradeNo, sessionId } = await checkout(user.cookie, 4);

    // checkout.session.completed with payment_status unpaid: acknowledged, still waiting.
    expect(only(await stripe.payDelayed(sessionId)).status).toBe(200);
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.order(tradeNo)).status).toBe('pending');
    expect(await status(user.cookie, tradeNo)).toBe(200);

    const succeeded = only(await stripe.settleDelayed(sessionId, 'succeeded'));
    expect(succeeded).toMatchObject({ eventType: 'checkout.session.async_payment_succeeded', status: 200 });
    expect(await t.quotaOf(user.id)).toBe(4 * QUOTA_PER_UNIT);
    expect((await t.order(tradeNo)).status).toBe('success');

    // Stripe's retries of either event change nothing.
    for (const event of stripe.events.filter((candidate) => candidate.data.object.id === sessionId)) {
      expect(only(await stripe.resend(event.id)).status).toBe(200);
    }
    expect(await t.quotaOf(user.id)).toBe(4 * QUOTA_PER_UNIT);
    expect(await t.topUpLogs(user.id)).toHaveLength(1);
  });

  it('fails the order and credits nothing when the bank debit bounces', async () => {
    const user = await t.createUser('st-bounce');
    const { tradeNo, sessionId } = await checkout(user.cookie, 3);
    await stripe.payDelayed(sessionId);
    const failed = only(await stripe.settleDelayed(sessionId, 'failed'));

    expect(failed).toMatchObject({ eventType: 'checkout.session.async_payment_failed', status: 200 });
    expect(await t.order(tradeNo)).toMatchObject({
      status: 'failed',
      gateway_no: stripe.sessions.get(sessionId)?.payment_intent,
    });
    expect(await t.quotaOf(user.id)).toBe(0);
    expect(await t.topUpLogs(user.id)).toHaveLength(0);
    expect(await status(user.cookie, tradeNo)).toBe(409);
    expect((await systemLogs(user.id)).map((row) => row.content)).toEqual([
      expect.stringContaining(`${tradeNo} 未入账：the delayed payment failed at Stripe`),
    ]);

    // A retry of the failure is acknowledged; a later "paid" for the failed order is refused, crediting nothing.
    expect(only(await stripe.resend(failed.eventId)).status).toBe(200);
    expect(await systemLogs(user.id)).toHaveLength(1);
    const session = stripe.sessions.get(sessionId);
    if (!session) throw new Error('the session is gone');
    session.payment_status = 'paid';
    const late = only(await stripe.sendEvent('checkout.session.async_payment_succeeded', sessionView(session)));
    expect(late.status).toBe(400);
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.order(tradeNo)).status).toBe('failed');
  });

  it('a bounce reported for an order already paid changes nothing', async () => {
    const user = await t.createUser('st-paid');
    const { tradeNo, sessionId } = await checkout(user.cookie, 2);
    await stripe.pay(sessionId);
    const session = stripe.sessions.get(sessionId);
    if (!session) throw new Error('the session is gone');
    const bounce = only(await stripe.sendEvent('checkout.session.async_payment_failed', sessionView(session)));
    expect(bounce.status).toBe(200);
    expect((await t.order(tradeNo)).status).toBe('success');
    expect(await t.quotaOf(user.id)).toBe(2 * QUOTA_PER_UNIT);
  });

  it('refuses a forged failure: the order stays payable', async () => {
    const user = await t.createUser('st-forged');
    const { tradeNo, sessionId } = await checkout(user.cookie, 2);
    const session = stripe.sessions.get(sessionId);
    if (!session) throw new Error('the session is gone');
    const forged = only(
      await stripe.sendEvent('checkout.session.async_payment_failed', sessionView(session), {
        secret: 'whsec_forged_secret_0123456789',
      }),
    );
    expect(forged.status).toBe(400);
    expect((await t.order(tradeNo)).status).toBe('pending');
    expect(only(await stripe.pay(sessionId)).status).toBe(200);
    expect(await t.quotaOf(user.id)).toBe(2 * QUOTA_PER_UNIT);
  });

  it('credits once when 10 deliveries of the paid event arrive at the same moment', async () => {
    const user = await t.createUser('st-racer2');
    const { tradeNo, sessionId } = await checkout(user.cookie, 2);
    const session = stripe.sessions.get(sessionId);
    if (!session) throw new Error('the session is gone');
    session.status = 'complete';
    session.payment_status = 'paid';
    session.payment_intent = 'pi_race_0123456789';
    const event = sessionView(session);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => stripe.sendEvent('checkout.session.completed', event)),
    );
    expect(answers.flat().map((delivery) => delivery.status)).toEqual(Array(10).fill(200));
    expect(await t.quotaOf(user.id)).toBe(2 * QUOTA_PER_UNIT);
    expect(await t.topUpLogs(user.id)).toHaveLength(1);
    expect(await t.order(tradeNo)).toMatchObject({ status: 'success', gateway_no: 'pi_race_0123456789' });
  });

  it('records an under-payment as failed, credits nothing and tells the payer why', async () => {
    const user = await t.createUser('st-short');
    const { tradeNo, sessionId } = await checkout(user.cookie, 2);
    expect(only(await stripe.pay(sessionId, { amountTotal: 100 })).status).toBe(200);
    expect((await t.order(tradeNo)).status).toBe('failed');
    expect(await t.quotaOf(user.id)).toBe(0);
    expect(await t.topUpLogs(user.id)).toHaveLength(0);
    expect((await systemLogs(user.id)).map((row) => row.content)).toEqual([
      expect.stringContaining(`${tradeNo} 未入账：paid 1.00 USD, the order is 2.00`),
    ]);
  });

  it('closes an order pending for over 3 hours and credits nothing when it is paid', async () => {
    const user = await t.createUser('st-late');
    const { tradeNo, sessionId } = await checkout(user.cookie, 4);
    await t.ageOrder(tradeNo, 4);
    await checkout(user.cookie, 1);
    expect((await t.order(tradeNo)).status).toBe('closed');
    expect(only(await stripe.pay(sessionId)).status).toBe(400);
    expect(await t.quotaOf(user.id)).toBe(0);
    expect((await t.order(tradeNo)).status).toBe('closed');
    expect((await systemLogs(user.id)).map((row) => row.content)).toEqual([
      expect.stringContaining(`${tradeNo} 未入账：a payment pi_`),
    ]);
  });

  // Last: from here on the account has two endpoints, so every event is delivered twice.
  it('with two gateways on one account, credits each payment once and answers every delivery 2xx', async () => {
    const second = await t.createGateway({
      type: 'stripe',
      name: 'Stripe two',
      currency: 'USD',
      config: JSON.stringify({ secret_key: stripe.secretKey }),
    });
    expect(stripe.webhookEndpoints.size).toBe(2);
    const user = await t.createUser('st-twin');

    for (const [uuid, amount] of [
      [gateway.uuid, 1],
      [second.uuid, 2],
    ] as const) {
      const { tradeNo, sessionId } = await checkout(user.cookie, amount, uuid);
      const deliveries = await stripe.pay(sessionId);
      expect(deliveries.map((delivery) => delivery.url).sort()).toEqual(
        [gateway.uuid, second.uuid].map((id) => `${t.base}/api/payment/notify/${id}`).sort(),
      );
      expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200]);
      expect((await t.order(tradeNo)).status).toBe('success');
      const [replay] = deliveries;
      if (!replay) throw new Error('no delivery');
      expect((await stripe.resend(replay.eventId)).map((delivery) => delivery.status)).toEqual([200, 200]);
    }
    expect(await t.quotaOf(user.id)).toBe(3 * QUOTA_PER_UNIT);
    expect(await t.topUpLogs(user.id)).toHaveLength(2);

    // A Checkout Session of another app on the account (no gateway tag) is acknowledged by both.
    const foreign = await stripe.sendEvent('checkout.session.completed', {
      id: 'cs_test_foreign',
      object: 'checkout.session',
      amount_total: 500,
      currency: 'usd',
      client_reference_id: 'another-app-42',
      payment_intent: 'pi_foreign',
      payment_status: 'paid',
      status: 'complete',
      metadata: {},
    });
    expect(foreign.map((delivery) => delivery.status)).toEqual([200, 200]);
    expect(
      stripe.deliveries.filter((delivery) => delivery.url.includes(second.uuid)).map((d) => d.status),
    ).not.toContain(400);
    expect([...stripe.webhookEndpoints.values()].map((endpoint) => endpoint.status)).toEqual(['enabled', 'enabled']);
  });
});
