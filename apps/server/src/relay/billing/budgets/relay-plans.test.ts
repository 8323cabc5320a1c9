import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../../test/databases.js';
import { type EpaySimulator, startEpaySimulator } from '../../../../test/payments/epay/simulator.js';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../../test/relay-setup.js';

/**
 * Issue 33: a plan bought through a (simulated) payment gateway pays for requests from its
 * allowance before the balance, is used up, and then refuses — or, when the plan says so, hands
 * over to the balance. Log rows say who paid.
 */
const USAGE = { prompt_tokens: 10, completion_tokens: 6 };
// gpt-4o-mini is priced 1 in, 2 out in startRelayTest.
const COST = USAGE.prompt_tokens + USAGE.completion_tokens * 2;
const chat = { model: 'gpt-4o-mini', max_tokens: USAGE.completion_tokens, messages: [{ role: 'user', content: 'Hi' }] };

describe.each(availableDialects)('subscription plans on the relay (%s)', (dialect) => {
  let r: RelayTestContext;
  let epay: EpaySimulator;
  let gateway: { uuid: string };

  beforeAll(async () => {
    epay = await startEpaySimulator();
    r = await startRelayTest({ dialect });
    r.upstream.behaviour.usage = USAGE;
    await r.t.services.options.update('ServerAddress', r.baseURL.replace(/\/v1$/, ''));
    const created = await r.admin('POST', '/api/payment/', {
      type: 'epay',
      name: 'Epay',
      currency: 'CNY',
      config: JSON.stringify({ pay_domain: epay.url, partner_id: epay.partnerId, key: epay.key, pay_type: 'alipay' }),
    });
    expect(created.status).toBe(201);
    gateway = created.body.data as { uuid: string };
  });
  afterAll(async () => {
    await r?.close();
    await epay?.close();
  });

  const createPlan = async (name: string, extra: Record<string, unknown>) => {
    const response = await r.admin('POST', '/api/plan/', {
      name,
      price: 10,
      duration_days: 30,
      budgets: [{ period: 'day', requests: 2 }],
      ...extra,
    });
    expect(response.status).toBe(200);
    return (response.body.data as { id: number }).id;
  };
  const post = (key: string) =>
    fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chat),
    });
  const paidBy = async (userId: number) => {
    await r.t.app.relay.flush();
    const rows = await r.t.database.db
      .selectFrom('logs')
      .select(['quota', 'metadata'])
      .where('user_id', '=', userId)
      .where('type', '=', 2)
      .orderBy('id')
      .execute();
    return rows.map((row) => {
      const metadata = JSON.parse(row.metadata) as { paid_by?: string; plan_quota?: number };
      return { quota: Number(row.quota), paid_by: metadata.paid_by, plan_quota: metadata.plan_quota };
    });
  };

  it('pays from a bought plan’s allowance, not the balance, until it is used up', async () => {
    const planId = await createPlan('Coder', { fallback_to_balance: false });
    const { id, cookie } = await r.t.createUser(`buyer${dialect.slice(0, 3)}`);
    const ordered = await r.t.app.inject({
      method: 'POST',
      url: '/api/user/plan/order',
      headers: { cookie },
      payload: { plan_id: planId, uuid: gateway.uuid },
    });
    expect(ordered.statusCode, ordered.body).toBe(200);
    const { trade_no: tradeNo, data } = (
      ordered.json() as { data: { trade_no: string; data: { url: string; params: Record<string, string> } } }
    ).data;
    expect((await fetch(data.url, { method: 'POST', body: new URLSearchParams(data.params) })).status).toBe(200);
    expect(await epay.notify(tradeNo)).toEqual({ status: 200, body: 'success' });

    // The buyer has no balance at all: only the plan can pay.
    expect(await storedQuota(r, id)).toBe(0);
    const key = await r.newKey(cookie);
    expect((await post(key)).status).toBe(200);
    expect((await post(key)).status).toBe(200);
    const refused = await post(key);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('budget_exceeded');
    expect(body.error.message).toContain('daily requests budget of your plan (2 requests)');
    expect(await storedQuota(r, id)).toBe(0);
    expect(await paidBy(id)).toEqual([
      { quota: 0, paid_by: 'plan', plan_quota: COST },
      { quota: 0, paid_by: 'plan', plan_quota: COST },
    ]);

    const self = await r.t.app.inject({ method: 'GET', url: '/api/user/plan', headers: { cookie } });
    const [subscription] = (self.json() as { data: { subscriptions: Array<{ windows: unknown[] }> } }).data
      .subscriptions;
    expect(subscription?.windows).toEqual([
      expect.objectContaining({ scope: 'plan', period: 'day', requests: 2, used_requests: 2, used_quota: 2 * COST }),
    ]);
  });

  it('hands over to the balance once the allowance is used up, when the plan allows it', async () => {
    const planId = await createPlan('Flexible', { fallback_to_balance: true });
    const { id, cookie } = await r.t.createUser(`flex${dialect.slice(0, 3)}`);
    expect((await r.admin('POST', '/api/plan/grant', { user_id: id, plan_id: planId })).status).toBe(200);
    expect((await r.admin('POST', `/api/user/quota/${id}`, { quota: 1000 })).status).toBe(200);
    const key = await r.newKey(cookie);
    for (let request = 0; request < 3; request++) expect((await post(key)).status).toBe(200);
    expect(await storedQuota(r, id)).toBe(1000 - COST);
    expect(await paidBy(id)).toEqual([
      { quota: 0, paid_by: 'plan', plan_quota: COST },
      { quota: 0, paid_by: 'plan', plan_quota: COST },
      { quota: COST, paid_by: 'balance', plan_quota: undefined },
    ]);
  });

  it('leaves models outside the plan’s list to the balance', async () => {
    const planId = await createPlan('Embeddings only', { models: ['text-embedding-3-small'] });
    const { id, cookie } = await r.t.createUser(`models${dialect.slice(0, 3)}`);
    expect((await r.admin('POST', '/api/plan/grant', { user_id: id, plan_id: planId })).status).toBe(200);
    expect((await r.admin('POST', `/api/user/quota/${id}`, { quota: 1000 })).status).toBe(200);
    const key = await r.newKey(cookie);
    expect((await post(key)).status).toBe(200);
    expect(await storedQuota(r, id)).toBe(1000 - COST);
    expect(await paidBy(id)).toEqual([{ quota: COST, paid_by: undefined, plan_quota: undefined }]);
  });
});
