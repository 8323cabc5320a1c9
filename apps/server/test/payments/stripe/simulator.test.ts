import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeStripeForm } from './form.js';
import { type StripeSimulator, startStripeSimulator } from './simulator.js';

/** The simulator must refuse what Stripe refuses, or the gateway tests would prove nothing. */
describe('Stripe simulator', () => {
  let simulator: StripeSimulator;
  beforeAll(async () => {
    simulator = await startStripeSimulator();
  });
  afterAll(() => simulator.close());

  const post = (path: string, body: string, key = simulator.secretKey) =>
    fetch(`${simulator.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as { error?: { message: string; param?: string } },
    }));

  const item =
    'line_items[0][quantity]=1&line_items[0][price_data][currency]=usd&line_items[0][price_data][unit_amount]=100&line_items[0][price_data][product_data][name]=x';

  it('decodes bracketed form keys into nested objects and arrays', () => {
    expect(decodeStripeForm('a[0]=x&a[1]=y&m[k]=v&line_items[0][price_data][unit_amount]=5')).toEqual({
      a: ['x', 'y'],
      m: { k: 'v' },
      line_items: [{ price_data: { unit_amount: '5' } }],
    });
  });

  it('answers a missing or wrong key with 401', async () => {
    expect((await post('/v1/checkout/sessions', `mode=payment&${item}`, 'sk_test_wrong')).status).toBe(401);
    const anonymous = await fetch(`${simulator.baseUrl}/v1/webhook_endpoints`);
    expect(anonymous.status).toBe(401);
  });

  it.each([
    [`${item}&success_url=https://a.example/`, 'mode'],
    [`mode=payment&success_url=https://a.example/`, 'line_items'],
    [`mode=payment&${item}`, 'success_url'],
    [`mode=payment&${item}&success_url=https://a.example/&client_refrence_id=typo`, 'client_refrence_id'],
    [
      `mode=payment&${item.replace('unit_amount]=100', 'unit_amount]=1.5')}&success_url=https://a.example/`,
      'line_items[0][price_data][unit_amount]',
    ],
    [
      `mode=payment&${item.replace('=usd', '=USD')}&success_url=https://a.example/`,
      'line_items[0][price_data][currency]',
    ],
    [
      `mode=payment&${item}&success_url=https://a.example/&expires_at=${Math.floor(Date.now() / 1000) + 60}`,
      'expires_at',
    ],
  ])('refuses checkout session %s with 400 naming %s', async (body, param) => {
    const answer = await post('/v1/checkout/sessions', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error?.param).toBe(param);
  });

  it('refuses a webhook endpoint without events and hides secrets from the list', async () => {
    expect((await post('/v1/webhook_endpoints', 'url=https://a.example/hook')).body.error?.param).toBe(
      'enabled_events',
    );
    const created = await post(
      '/v1/webhook_endpoints',
      'url=https://a.example/hook&enabled_events[0]=checkout.session.completed',
    );
    expect(created.body).toMatchObject({ secret: expect.stringMatching(/^whsec_/) });
    const list = await fetch(`${simulator.baseUrl}/v1/webhook_endpoints?limit=10`, {
      headers: { authorization: `Bearer ${simulator.secretKey}` },
    });
    const listed = (await list.json()) as { data: Array<Record<string, unknown>> };
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).not.toHaveProperty('secret');
  });
});
