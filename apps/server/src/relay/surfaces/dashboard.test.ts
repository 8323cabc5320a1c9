import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';

const COST = 12 * 1 + 7 * 2;

describe('the dashboard billing endpoints chat apps read balances from', () => {
  let r: RelayTestContext;
  let cookie: string;
  beforeAll(async () => {
    r = await startRelayTest();
    cookie = await r.t.login('relayuser', 'password-123');
  });
  afterAll(() => r?.close());

  const get = async (path: string, key: string) => {
    const response = await fetch(`${r.baseURL.replace(/\/v1$/, '')}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const perUnit = () => r.t.services.options.getNumber('QuotaPerUnit');

  it('reports the owner’s balance and use for an unlimited key, in dollars', async () => {
    await r.t.services.options.update('DisplayInCurrencyEnabled', 'true');
    await r.client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const left = await storedQuota(r);
    const used = Number((await r.t.services.userRepository.findById(r.userId))?.used_quota);
    expect(used).toBe(COST);
    for (const prefix of ['', '/v1']) {
      const subscription = await get(`${prefix}/dashboard/billing/subscription`, r.apiKey);
      expect(subscription.status).toBe(200);
      expect(subscription.body).toMatchObject({
        object: 'billing_subscription',
        hard_limit_usd: (left + used) / perUnit(),
        soft_limit_usd: (left + used) / perUnit(),
        access_until: 0,
      });
      const usage = await get(`${prefix}/dashboard/billing/usage`, r.apiKey);
      expect(usage.body).toEqual({ object: 'list', total_usage: (used / perUnit()) * 100 });
    }
  });

  it('reports a limited key’s own quota and expiry, in quota units when currency display is off', async () => {
    await r.t.services.options.update('DisplayInCurrencyEnabled', 'false');
    const expires = Math.floor(Date.now() / 1000) + 86_400;
    const key = await r.newKey(cookie, {
      name: 'limited',
      unlimited_quota: false,
      remain_quota: 10_000,
      expired_time: expires,
    });
    const subscription = await get('/v1/dashboard/billing/subscription', key);
    expect(subscription.body).toMatchObject({ hard_limit_usd: 10_000, access_until: expires });
    expect((await get('/v1/dashboard/billing/usage', key)).body).toEqual({ object: 'list', total_usage: 0 });
  });

  it('refuses a wrong key in OpenAI’s error format', async () => {
    const refused = await get('/dashboard/billing/subscription', 'sk-wrong');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { type: 'authentication_error' } });
  });
});
