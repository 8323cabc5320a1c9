import { ORDER_PENDING_LIFETIME_SECONDS } from '@one-hub/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayOrder } from '../../../src/payments/gateway.js';
import { createStripeGateway, type StripeConfig } from '../../../src/payments/stripe/index.js';
import { type NotifyReceiver, startNotifyReceiver } from '../notify-receiver.js';
import { only, type StripeSimulator, startStripeSimulator } from './simulator.js';

const order = (overrides: Partial<GatewayOrder> = {}): GatewayOrder => ({
  tradeNo: 'USR7NO1732780000123456',
  amountCents: 1234,
  currency: 'USD',
  subject: 'One Hub-Token充值:10',
  notifyUrl: 'unused: Stripe calls the registered webhook',
  gatewayUuid: 'a'.repeat(32),
  returnUrl: 'https://console.example.com/panel/topup?show_history=true',
  user: { id: 7, username: 'alice', email: 'alice@example.com' },
  clientIp: '203.0.113.9',
  ...overrides,
});

describe('Stripe gateway: pay and the webhook it leads to', () => {
  let simulator: StripeSimulator;
  let receiver: NotifyReceiver;
  let gateway: ReturnType<typeof createStripeGateway>;
  let config: StripeConfig;

  beforeEach(async () => {
    simulator = await startStripeSimulator();
    gateway = createStripeGateway({ stripeApiBase: simulator.baseUrl });
    receiver = await startNotifyReceiver(gateway, () => config);
    config = await gateway.prepare(gateway.configSchema.parse({ secret_key: simulator.secretKey }), {
      notifyUrl: receiver.url,
    });
  });
  afterEach(async () => {
    await receiver.close();
    await simulator.close();
  });

  const lastSessionRequest = () =>
    simulator.requests.filter((request) => request.path === '/v1/checkout/sessions').at(-1);

  it('creates a payment-mode Checkout Session with one line item in minor units and sends the payer to it', async () => {
    const before = Math.floor(Date.now() / 1000);
    const payment = await gateway.pay(config, order());

    const request = lastSessionRequest();
    expect(request?.status).toBe(200);
    expect(request?.headers.authorization).toBe(`Bearer ${simulator.secretKey}`);
    expect(request?.form).toMatchObject({
      mode: 'payment',
      line_items: [
        {
          quantity: '1',
          price_data: { currency: 'usd', unit_amount: '1234', product_data: { name: 'One Hub-Token充值:10' } },
        },
      ],
      success_url: order().returnUrl,
      cancel_url: order().returnUrl,
      client_reference_id: 'USR7NO1732780000123456',
      metadata: { user_id: '7', one_hub_gateway: 'a'.repeat(32) },
      customer_email: 'alice@example.com',
    });
    const expiresAt = Number(request?.form.expires_at);
    expect(expiresAt).toBeGreaterThan(before + 30 * 60);
    expect(expiresAt).toBeLessThan(before + ORDER_PENDING_LIFETIME_SECONDS);

    const [session] = [...simulator.sessions.values()];
    expect(payment).toEqual({ type: 1, url: session?.url, method: 'GET' });
    expect(session?.amount_total).toBe(1234);
  });

  it('charges CNY in fen and leaves customer_email out when the user has none', async () => {
    await gateway.pay(
      config,
      order({ currency: 'CNY', amountCents: 7300, user: { id: 9, username: 'bob', email: '' } }),
    );

    const form = lastSessionRequest()?.form;
    expect(form?.line_items).toEqual([
      {
        quantity: '1',
        price_data: { currency: 'cny', unit_amount: '7300', product_data: { name: 'One Hub-Token充值:10' } },
      },
    ]);
    expect(form).not.toHaveProperty('customer_email');
  });

  it('leaves out an email Stripe would refuse, so the payer is asked for one instead of failing', async () => {
    await gateway.pay(config, order({ user: { id: 1, username: 'x', email: 'not-an-email' } }));
    expect(lastSessionRequest()?.status).toBe(200);
    expect(lastSessionRequest()?.form).not.toHaveProperty('customer_email');
  });

  it('throws a readable error naming secret_key when Stripe refuses the key', async () => {
    const refused = gateway.pay({ ...config, secret_key: 'sk_test_revoked0000' }, order());
    await expect(refused).rejects.toThrow(/Stripe refused the checkout session: Stripe rejected secret_key/);
    expect(lastSessionRequest()?.status).toBe(401);
  });

  it('the checkout page shows the order and its Pay button delivers a signed event the gateway accepts', async () => {
    const payment = await gateway.pay(config, order({ amountCents: 2599 }));
    const page = await fetch(payment.url).then((response) => response.text());
    expect(page).toContain('USD 25.99');
    expect(page).toContain('id="pay"');

    const paid = await fetch(payment.url, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(order().returnUrl);

    const [session] = [...simulator.sessions.values()];
    expect(receiver.results).toEqual([
      { kind: 'paid', tradeNo: order().tradeNo, gatewayNo: session?.payment_intent, paidCents: 2599, currency: 'USD' },
    ]);
    expect(session?.payment_intent).toMatch(/^pi_/);
    expect(simulator.deliveries.map((delivery) => [delivery.status, delivery.body])).toEqual([
      [200, '{"received":true}'],
    ]);
    expect(await fetch(payment.url).then((response) => response.text())).toContain('This checkout session is complete');
  });

  it('a bank debit on the checkout page completes unpaid, and its later outcome is what the gateway reads', async () => {
    const payment = await gateway.pay(config, order({ amountCents: 4200 }));
    expect(await fetch(payment.url).then((response) => response.text())).toContain('id="pay-delayed"');
    const debited = await fetch(payment.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'method=bank_debit',
      redirect: 'manual',
    });
    expect(debited.status).toBe(303);
    const session = only(simulator.sessions.values());
    expect(session).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
    expect(receiver.results).toEqual([
      { kind: 'ignored', reason: 'checkout.session.completed with payment_status unpaid' },
    ]);

    const settled = only(await simulator.settleDelayed(session.id, 'succeeded'));
    expect(settled).toMatchObject({ eventType: 'checkout.session.async_payment_succeeded', status: 200 });
    expect(receiver.results.at(-1)).toEqual({
      kind: 'paid',
      tradeNo: order().tradeNo,
      gatewayNo: session.payment_intent,
      paidCents: 4200,
      currency: 'USD',
    });
  });

  it('a bank debit that bounces is read as a failed payment of that order', async () => {
    await gateway.pay(config, order());
    const session = only(simulator.sessions.values());
    await simulator.payDelayed(session.id);
    const bounced = only(await simulator.settleDelayed(session.id, 'failed'));

    expect(bounced).toMatchObject({ eventType: 'checkout.session.async_payment_failed', status: 200 });
    expect(JSON.parse(bounced.payload).data.object.payment_status).toBe('unpaid');
    expect(receiver.results.at(-1)).toEqual({
      kind: 'failed',
      tradeNo: order().tradeNo,
      gatewayNo: session.payment_intent,
      reason: 'the delayed payment failed at Stripe',
    });
  });

  it('reads an under-payment as what was actually paid, so the order service can refuse to credit it', async () => {
    await gateway.pay(config, order({ currency: 'CNY', amountCents: 7300 }));
    const session = only(simulator.sessions.values());

    await simulator.pay(session.id, { amountTotal: 730 });

    expect(receiver.results).toEqual([
      { kind: 'paid', tradeNo: order().tradeNo, gatewayNo: session?.payment_intent, paidCents: 730, currency: 'CNY' },
    ]);
  });

  it('a duplicate delivery reads the same payment again (crediting once is the order service’s job)', async () => {
    await gateway.pay(config, order());
    const first = only(await simulator.pay(only(simulator.sessions.keys())));
    const second = only(await simulator.resend(first.eventId));

    expect(second?.signature).not.toBe('');
    expect(receiver.results).toHaveLength(2);
    expect(receiver.results[1]).toEqual(receiver.results[0]);
    expect(second?.status).toBe(200);
  });

  it('a forged delivery is refused with 400 and nothing is read as paid', async () => {
    await gateway.pay(config, order());
    const delivery = only(await simulator.sendForged(only(simulator.sessions.keys())));

    expect(delivery?.status).toBe(400);
    expect(receiver.results).toEqual([{ kind: 'rejected', reason: expect.stringMatching(/signature check failed/) }]);
  });
});
