import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayCallback } from '../../../src/payments/gateway.js';
import { createStripeGateway, type StripeConfig } from '../../../src/payments/stripe/index.js';
import { type NotifyReceiver, startNotifyReceiver } from '../notify-receiver.js';
import { stripeSignatureHeader } from './signing.js';
import { only, type StripeSimulator, startStripeSimulator } from './simulator.js';

const SECRET = 'whsec_test_0123456789abcdefghijklmnop';
const gateway = createStripeGateway({ stripeApiBase: 'http://127.0.0.1:9' });
const config: StripeConfig = { secret_key: 'sk_test_verify', webhook_secret: SECRET };
const GATEWAY = 'b'.repeat(32);
/** As the notify route calls it for the gateway `GATEWAY`. */
const verify = (stored: StripeConfig, input: GatewayCallback) => gateway.verify(stored, input, { uuid: GATEWAY });

const session = (overrides: Record<string, unknown> = {}) => ({
  id: 'cs_test_abc',
  object: 'checkout.session',
  amount_total: 1050,
  currency: 'usd',
  client_reference_id: 'USR1NO42',
  payment_intent: 'pi_123',
  payment_status: 'paid',
  status: 'complete',
  metadata: { user_id: '7', one_hub_gateway: GATEWAY },
  ...overrides,
});
const event = (object: unknown, type = 'checkout.session.completed') =>
  JSON.stringify({ id: 'evt_1', object: 'event', type, data: { object } }, null, 2);

/** `signature: null` sends no Stripe-Signature header at all. */
function callback(body: string, signature: string | null = stripeSignatureHeader(body, SECRET)): GatewayCallback {
  return {
    method: 'POST',
    query: {},
    headers: { 'stripe-signature': signature ?? undefined },
    rawBody: Buffer.from(body),
  };
}

describe('Stripe gateway: verify', () => {
  it('signs exactly as the official SDK’s test helper does', () => {
    const payload = event(session());
    const timestamp = 1_764_300_000;
    expect(stripeSignatureHeader(payload, SECRET, timestamp)).toBe(
      Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, timestamp }),
    );
  });

  it('reads a paid checkout.session.completed in minor units with the currency upper-cased', async () => {
    expect(await verify(config, callback(event(session())))).toEqual({
      kind: 'paid',
      tradeNo: 'USR1NO42',
      gatewayNo: 'pi_123',
      paidCents: 1050,
      currency: 'USD',
    });
    expect(await verify(config, callback(event(session({ currency: 'cny', amount_total: 73_00 }))))).toMatchObject({
      paidCents: 7300,
      currency: 'CNY',
    });
  });

  it('takes the PaymentIntent id when expanded, and the session id when there is none', async () => {
    expect(await verify(config, callback(event(session({ payment_intent: { id: 'pi_expanded' } }))))).toMatchObject({
      gatewayNo: 'pi_expanded',
    });
    expect(await verify(config, callback(event(session({ payment_intent: null }))))).toMatchObject({
      gatewayNo: 'cs_test_abc',
    });
  });

  it('ignores other genuine events and sessions not yet paid, instead of failing on them', async () => {
    expect(
      await verify(config, callback(event({ id: 'pi_1', object: 'payment_intent' }, 'payment_intent.created'))),
    ).toEqual({
      kind: 'ignored',
      reason: 'event type payment_intent.created',
    });
    // A delayed method (bank debit) completes the session unpaid: its async_payment_* event decides.
    expect(await verify(config, callback(event(session({ payment_status: 'unpaid' }))))).toEqual({
      kind: 'ignored',
      reason: 'checkout.session.completed with payment_status unpaid',
    });
  });

  it('reads async_payment_succeeded as the payment and async_payment_failed as a failed order', async () => {
    const succeeded = event(session(), 'checkout.session.async_payment_succeeded');
    expect(await verify(config, callback(succeeded))).toEqual({
      kind: 'paid',
      tradeNo: 'USR1NO42',
      gatewayNo: 'pi_123',
      paidCents: 1050,
      currency: 'USD',
    });
    const failed = event(session({ payment_status: 'unpaid' }), 'checkout.session.async_payment_failed');
    expect(await verify(config, callback(failed))).toEqual({
      kind: 'failed',
      tradeNo: 'USR1NO42',
      gatewayNo: 'pi_123',
      reason: 'the delayed payment failed at Stripe',
    });
    // Never a payment without Stripe saying paid, whatever the event is called.
    const unpaidSuccess = event(session({ payment_status: 'unpaid' }), 'checkout.session.async_payment_succeeded');
    expect(await verify(config, callback(unpaidSuccess))).toMatchObject({ kind: 'ignored' });
    // A failure must be genuine too: signed with another secret it changes nothing.
    const forged = callback(failed, stripeSignatureHeader(failed, 'whsec_other'));
    expect(await verify(config, forged)).toMatchObject({ kind: 'rejected' });
    const noReference = event(session({ client_reference_id: null }), 'checkout.session.async_payment_failed');
    expect(await verify(config, callback(noReference))).toMatchObject({ kind: 'rejected' });
  });

  it.each([
    ['no signature header', callback(event(session()), null), /no Stripe-Signature header/],
    ['a header without v1', callback(event(session()), `t=${Math.floor(Date.now() / 1000)}`), /signature check failed/],
    ['a garbage header', callback(event(session()), 'garbage'), /signature check failed/],
    [
      'another secret',
      callback(event(session()), stripeSignatureHeader(event(session()), 'whsec_other')),
      /signature check failed/,
    ],
    [
      'a tampered amount',
      { ...callback(event(session())), rawBody: Buffer.from(event(session({ amount_total: 999_999 }))) },
      /signature check failed/,
    ],
    [
      'a signature older than five minutes',
      callback(event(session()), stripeSignatureHeader(event(session()), SECRET, Math.floor(Date.now() / 1000) - 600)),
      /tolerance/,
    ],
    ['an empty body', callback(''), /signature check failed/],
    ['signed bytes that are not JSON', callback('{"id": "evt_1", "type": '), /signature check failed/],
    ['signed JSON that is not an event', callback('{"hello":"world"}'), /not a Stripe event/],
    [
      'a session without client_reference_id',
      callback(event(session({ client_reference_id: null }))),
      /client_reference_id/,
    ],
    ['a fractional amount', callback(event(session({ amount_total: 10.5 }))), /amount_total/],
    ['a currency it never charges in', callback(event(session({ currency: 'eur' }))), /currency EUR/],
  ])('rejects %s without throwing', async (_name, input, reason) => {
    const result = await verify(config, input);
    expect(result.kind).toBe('rejected');
    expect(result.kind === 'rejected' && result.reason).toMatch(reason);
  });

  it('acknowledges, crediting nothing, a session tagged for another gateway or made by another app', async () => {
    const other = session({ metadata: { user_id: '7', one_hub_gateway: 'c'.repeat(32) } });
    expect(await verify(config, callback(event(other)))).toEqual({
      kind: 'ignored',
      reason: `checkout.session.completed for another gateway (${'c'.repeat(32)})`,
    });
    for (const metadata of [{}, null, undefined]) {
      const failed = event(session({ metadata }), 'checkout.session.async_payment_failed');
      expect(await verify(config, callback(failed))).toEqual({
        kind: 'ignored',
        reason: 'checkout.session.async_payment_failed not made by a One Hub gateway',
      });
    }
    // The tag is signed like the rest: a forged one is still refused.
    expect(await verify(config, callback(event(other), stripeSignatureHeader(event(other), 'whsec_x')))).toMatchObject({
      kind: 'rejected',
    });
  });

  it('rejects everything while no webhook secret is stored', async () => {
    expect(await verify({ ...config, webhook_secret: '' }, callback(event(session())))).toEqual({
      kind: 'rejected',
      reason: expect.stringMatching(/webhook_secret is empty/),
    });
  });
});

describe('Stripe gateway: verify over the wire from the simulator', () => {
  let simulator: StripeSimulator;
  let receiver: NotifyReceiver;
  let wired: StripeConfig;

  beforeAll(async () => {
    simulator = await startStripeSimulator();
    const live = createStripeGateway({ stripeApiBase: simulator.baseUrl });
    receiver = await startNotifyReceiver(live, () => wired);
    wired = await live.prepare(live.configSchema.parse({ secret_key: simulator.secretKey }), {
      notifyUrl: receiver.url,
    });
    await live.pay(wired, {
      tradeNo: 'T1',
      amountCents: 500,
      currency: 'USD',
      subject: 'top-up',
      notifyUrl: receiver.url,
      gatewayUuid: 'a'.repeat(32),
      returnUrl: 'https://console.example.com/',
      user: { id: 1, username: 'a', email: '' },
      clientIp: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await receiver.close();
    await simulator.close();
  });
  const sessionId = () => only(simulator.sessions.keys());

  it('accepts the genuine delivery, then refuses it altered in transit or replayed later, with 400', async () => {
    const genuine = only(await simulator.pay(sessionId()));
    expect(genuine.status).toBe(200);

    const [tampered] = await simulator.resend(genuine.eventId, {
      tamper: (payload) => payload.replace('"amount_total": 500', '"amount_total": 50000'),
    });
    expect(tampered?.payload).toContain('"amount_total": 50000');
    expect(tampered?.status).toBe(400);

    // A captured delivery posted again an hour later still carries its old signing time.
    const [replayed] = await simulator.resend(genuine.eventId, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(replayed?.status).toBe(400);
    expect(receiver.results.map((result) => result.kind)).toEqual(['paid', 'rejected', 'rejected']);
  });

  it('acknowledges an unrelated event with 200 so Stripe stops retrying it', async () => {
    // As if the administrator had ticked one more event on our endpoint in the dashboard.
    only(simulator.webhookEndpoints.values()).enabled_events.push('charge.succeeded');
    const delivery = only(await simulator.sendEvent('charge.succeeded', { id: 'ch_1', object: 'charge', amount: 500 }));
    expect(delivery).toMatchObject({ status: 200, body: '{"received":true}' });
    expect(receiver.results.at(-1)).toEqual({ kind: 'ignored', reason: 'event type charge.succeeded' });
  });
});
