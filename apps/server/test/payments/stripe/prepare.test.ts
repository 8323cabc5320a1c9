import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStripeGateway, type StripeConfig, type StripeGateway } from '../../../src/payments/stripe/index.js';
import { SECRET_FINGERPRINT_KEY, secretFingerprint } from '../../../src/payments/stripe/webhook.js';
import { only, type StripeSimulator, startStripeSimulator } from './simulator.js';

const NOTIFY = 'https://pay.example.com/api/payment/notify/0123456789abcdef0123456789abcdef';

describe('Stripe gateway: prepare registers the webhook', () => {
  let simulator: StripeSimulator;
  let gateway: StripeGateway;
  let config: StripeConfig;

  beforeEach(async () => {
    simulator = await startStripeSimulator();
    gateway = createStripeGateway({ stripeApiBase: simulator.baseUrl });
    config = gateway.configSchema.parse({ secret_key: simulator.secretKey });
  });
  afterEach(() => simulator.close());

  it('creates an endpoint for the Checkout events and stores the secret Stripe returned', async () => {
    const prepared = await gateway.prepare(config, { notifyUrl: NOTIFY });

    const endpoint = only(simulator.webhookEndpoints.values());
    expect(endpoint.url).toBe(NOTIFY);
    expect(endpoint.enabled_events).toEqual([
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
      'checkout.session.async_payment_failed',
    ]);
    expect(endpoint.api_version).toBe(Stripe.API_VERSION);
    expect(prepared.webhook_secret).toBe(endpoint.secret);
    expect(prepared.secret_key).toBe(simulator.secretKey);
    expect(endpoint.metadata[SECRET_FINGERPRINT_KEY]).toBe(secretFingerprint(endpoint.secret));

    const create = simulator.requests.find(
      (request) => request.method === 'POST' && request.path === '/v1/webhook_endpoints',
    );
    expect(create?.headers.authorization).toBe(`Bearer ${simulator.secretKey}`);
    expect(create?.headers['stripe-version']).toBe(Stripe.API_VERSION);
    expect(create?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    // The fingerprint is a hash: the secret itself is never sent back to Stripe.
    expect(JSON.stringify(simulator.requests.map((request) => request.form))).not.toContain(endpoint.secret);
  });

  it('reuses its own endpoint on a later save instead of creating another', async () => {
    const first = await gateway.prepare(config, { notifyUrl: NOTIFY });
    const again = await gateway.prepare(first, { notifyUrl: NOTIFY });

    expect(again.webhook_secret).toBe(first.webhook_secret);
    expect(simulator.webhookEndpoints.size).toBe(1);
    expect(
      simulator.requests.filter((request) => request.method === 'POST' && request.path === '/v1/webhook_endpoints'),
    ).toHaveLength(1);
    expect(simulator.requests.some((request) => request.method === 'DELETE')).toBe(false);
  });

  it('adds the delayed-payment events to its own older endpoint, keeping the endpoint and its secret', async () => {
    const first = await gateway.prepare(config, { notifyUrl: NOTIFY });
    const own = only(simulator.webhookEndpoints.values());
    // As registered before the delayed-payment events were handled, plus one the admin ticked.
    own.enabled_events = ['checkout.session.completed', 'charge.refunded'];

    const again = await gateway.prepare(first, { notifyUrl: NOTIFY });

    expect(again.webhook_secret).toBe(first.webhook_secret);
    expect(only(simulator.webhookEndpoints.values()).id).toBe(own.id);
    expect(own.enabled_events).toEqual([
      'checkout.session.completed',
      'charge.refunded',
      'checkout.session.async_payment_succeeded',
      'checkout.session.async_payment_failed',
    ]);
    const update = simulator.requests.filter(
      (request) => request.method === 'POST' && request.path === `/v1/webhook_endpoints/${own.id}`,
    );
    expect(update.at(-1)?.form.enabled_events).toEqual(own.enabled_events);
    expect(simulator.requests.some((request) => request.method === 'DELETE')).toBe(false);
  });

  it('replaces an endpoint at the notify URL whose secret it does not hold (Stripe shows it only once)', async () => {
    const foreign = simulator.addWebhookEndpoint({ url: NOTIFY });

    const prepared = await gateway.prepare(config, { notifyUrl: NOTIFY });

    expect(simulator.webhookEndpoints.has(foreign.id)).toBe(false);
    const [endpoint] = [...simulator.webhookEndpoints.values()];
    expect(endpoint?.url).toBe(NOTIFY);
    expect(prepared.webhook_secret).toBe(endpoint?.secret);
    expect(prepared.webhook_secret).not.toBe(foreign.secret);
  });

  it('replaces its endpoint when the stored secret is not the one it was created with', async () => {
    const first = await gateway.prepare(config, { notifyUrl: NOTIFY });
    const prepared = await gateway.prepare(
      { ...first, webhook_secret: 'whsec_from_another_account' },
      { notifyUrl: NOTIFY },
    );

    expect(simulator.webhookEndpoints.size).toBe(1);
    const [endpoint] = [...simulator.webhookEndpoints.values()];
    expect(prepared.webhook_secret).toBe(endpoint?.secret);
    expect(prepared.webhook_secret).not.toBe(first.webhook_secret);
  });

  it('replaces a disabled endpoint and one left on an old notify domain, and leaves other URLs alone', async () => {
    const first = await gateway.prepare(config, { notifyUrl: NOTIFY });
    const own = only(simulator.webhookEndpoints.values());
    own.status = 'disabled';
    const oldDomain = simulator.addWebhookEndpoint({ url: NOTIFY.replace('pay.example.com', 'old.example.com') });
    const unrelated = simulator.addWebhookEndpoint({ url: 'https://shop.example.com/stripe/webhook' });

    const prepared = await gateway.prepare(first, { notifyUrl: NOTIFY });

    expect(simulator.webhookEndpoints.has(own.id)).toBe(false);
    expect(simulator.webhookEndpoints.has(oldDomain.id)).toBe(false);
    expect(simulator.webhookEndpoints.has(unrelated.id)).toBe(true);
    const ours = [...simulator.webhookEndpoints.values()].filter((endpoint) => endpoint.url === NOTIFY);
    expect(ours).toHaveLength(1);
    expect(ours[0]?.status).toBe('enabled');
    expect(prepared.webhook_secret).toBe(ours[0]?.secret);
  });

  it('finds its endpoint beyond the first page of the list', async () => {
    const first = await gateway.prepare(config, { notifyUrl: NOTIFY });
    for (let index = 0; index < 120; index++)
      simulator.addWebhookEndpoint({ url: `https://other.example.com/hook/${index}` });
    // Move ours to the end so only the second page holds it.
    const own = [...simulator.webhookEndpoints.values()].find((endpoint) => endpoint.url === NOTIFY);
    if (!own) throw new Error('prepare registered no endpoint');
    simulator.webhookEndpoints.delete(own.id);
    simulator.webhookEndpoints.set(own.id, own);

    const again = await gateway.prepare(first, { notifyUrl: NOTIFY });

    expect(again.webhook_secret).toBe(first.webhook_secret);
    expect(simulator.webhookEndpoints.size).toBe(121);
    expect(simulator.requests.some((request) => request.query.starting_after)).toBe(true);
  });

  it('refuses the save with a message naming secret_key when Stripe rejects the key, without echoing it', async () => {
    const wrongKey = 'sk_test_wrongwrongwrongwrong1234';
    const refused = gateway.prepare({ ...config, secret_key: wrongKey }, { notifyUrl: NOTIFY });

    await expect(refused).rejects.toThrow(/secret_key/);
    await refused.catch((error: Error) => expect(error.message).not.toContain(wrongKey));
    expect(simulator.webhookEndpoints.size).toBe(0);
  });

  it('passes Stripe’s own refusal on, e.g. a notify URL Stripe will not accept', async () => {
    await expect(gateway.prepare(config, { notifyUrl: 'not a url' })).rejects.toThrow(
      /Could not register the Stripe webhook: Invalid url/,
    );
  });
});

describe('Stripe gateway: config', () => {
  const gateway = createStripeGateway({ stripeApiBase: 'https://api.stripe.com' });

  it('names the field when secret_key is missing or not a Stripe secret key', () => {
    const missing = gateway.configSchema.safeParse({});
    expect(missing.error?.issues[0]?.path).toEqual(['secret_key']);
    const publishable = gateway.configSchema.safeParse({ secret_key: 'pk_live_abc' });
    expect(publishable.error?.issues[0]?.message).toMatch(/secret_key must be a Stripe secret key/);
  });

  it('accepts live, test and restricted keys and treats both secrets as write-only', () => {
    for (const key of ['sk_live_abc', 'sk_test_abc', 'rk_live_abc']) {
      expect(gateway.configSchema.parse({ secret_key: ` ${key} ` })).toEqual({ secret_key: key, webhook_secret: '' });
    }
    expect(gateway.secretFields).toEqual(['secret_key', 'webhook_secret']);
  });

  it('answers Stripe with 200 {"received":true} after a handled event and 400 after a refused one', () => {
    expect(gateway.answer('ok')).toMatchObject({ status: 200, body: '{"received":true}' });
    expect(gateway.answer('ok').contentType).toMatch(/^application\/json/);
    expect(gateway.answer('fail').status).toBe(400);
  });
});
