import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { type EpaySimulator, startEpaySimulator } from '../../../test/payments/epay/simulator.js';
import { type PaymentTestApp, startPaymentApp } from '../../../test/payments/support.js';

const DAY = 86_400;

describe.each(availableDialects)('buying plans through a gateway on %s', (dialect) => {
  let t: PaymentTestApp;
  let epay: EpaySimulator;
  let gateway: { id: number; uuid: string };
  let now = Date.UTC(2026, 11, 6, 12);
  const nowSeconds = () => Math.floor(now / 1000);

  const createPlan = async (extra: Record<string, unknown>) => {
    const response = await t.call('POST', '/api/plan/', t.root, {
      ...{
        name: 'Plan',
        price: 10,
        currency: 'USD',
        duration_days: 30,
        budgets: [{ period: 'day', quota: 1_000_000 }],
      },
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: number; name: string };
  };

  /** Orders the plan as the user and posts the form to the simulator, as the console's pay dialog does. */
  async function payablePlanOrder(cookie: string, planId: number): Promise<string> {
    const response = await t.call('POST', '/api/user/plan/order', cookie, { plan_id: planId, uuid: gateway.uuid });
    expect(response.statusCode, response.body).toBe(200);
    const { trade_no: tradeNo, type, data } = response.json().data;
    expect(type).toBe(1);
    const submit = await fetch(data.url, { method: 'POST', body: new URLSearchParams(data.params) });
    expect(submit.status).toBe(200);
    return tradeNo;
  }

  const subscriptionsOf = (userId: number) =>
    t.database.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  const groupOf = async (cookie: string) => (await t.call('GET', '/api/user/self', cookie)).json().data.group;
  const eventsOf = async (userId: number) =>
    (
      await t.database.db
        .selectFrom('logs')
        .select(['type', 'metadata'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute()
    ).map((row) => ({ type: row.type, ...JSON.parse(row.metadata) }));

  beforeAll(async () => {
    epay = await startEpaySimulator();
    t = await startPaymentApp(dialect, {}, { clock: () => now });
    gateway = await t.createGateway({
      type: 'epay',
      name: 'Epay',
      currency: 'CNY',
      config: JSON.stringify({ pay_domain: epay.url, partner_id: epay.partnerId, key: epay.key, pay_type: 'alipay' }),
    });
    const planGroup = await t.call('POST', '/api/user_group/', t.root, {
      ...{ symbol: 'plan-vip', name: 'Subscribers', ratio: 0.8, api_rate: 600, public: false },
    });
    expect(planGroup.statusCode, planGroup.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await epay?.close();
  });

  it('activates a bought plan once although the callback comes twice, and renews it by its duration', async () => {
    const plan = await createPlan({ name: 'Coder', price: 10 });
    const user = await t.createUser('plan-buyer');
    const tradeNo = await payablePlanOrder(user.cookie, plan.id);
    // $10 at the default 7.3 CNY a dollar, on a CNY gateway without fees: priced as a $10 top-up is.
    expect(epay.submissions.at(-1)?.params.money).toBe('73.00');
    const order = await t.database.db
      .selectFrom('orders')
      .selectAll()
      .where('trade_no', '=', tradeNo)
      .executeTakeFirstOrThrow();
    expect({ plan_id: order.plan_id, quota: Number(order.quota), amount: order.amount }).toEqual({
      plan_id: plan.id,
      quota: 0,
      amount: 0,
    });

    expect(await epay.notify(tradeNo)).toEqual({ status: 200, body: 'success' });
    expect(await epay.notify(tradeNo)).toEqual({ status: 200, body: 'success' });
    expect((await t.order(tradeNo)).status).toBe('success');
    const start = nowSeconds();
    const [subscription, ...more] = await subscriptionsOf(user.id);
    expect(more).toEqual([]);
    expect(subscription).toMatchObject({
      plan_id: plan.id,
      status: 'active',
      source: 'order',
      order_trade_no: tradeNo,
    });
    expect(Number(subscription?.expires_at)).toBe(start + 30 * DAY);
    expect(await t.quotaOf(user.id)).toBe(0);
    const paid = await t.call('GET', `/api/user/order/status?trade_no=${tradeNo}`, user.cookie);
    expect(paid.json()).toEqual({ success: true, message: '' });
    const listed = await t.call('GET', `/api/payment/order?trade_no=${tradeNo}`, t.root);
    expect(listed.json().data.data[0]).toMatchObject({ plan_id: plan.id, quota: 0, order_amount: 73 });

    // Renewal: the same plan again adds 30 days to the end, whatever is left of the first period.
    now += 10 * DAY * 1000;
    const renewal = await payablePlanOrder(user.cookie, plan.id);
    expect(await epay.notify(renewal)).toEqual({ status: 200, body: 'success' });
    const [renewed] = await subscriptionsOf(user.id);
    expect(Number(renewed?.expires_at)).toBe(start + 60 * DAY);
    expect(await subscriptionsOf(user.id)).toHaveLength(1);
    expect(await eventsOf(user.id)).toEqual([
      expect.objectContaining({ type: 1, event: 'plan_subscribed', renewed: false, trade_no: tradeNo, paid: '73.00' }),
      expect.objectContaining({ type: 1, event: 'plan_subscribed', renewed: true, trade_no: renewal }),
    ]);
  });

  it('activates one subscription when two paid orders of the plan arrive at once, renewing it by the second', async () => {
    const plan = await createPlan({ name: 'Racer', duration_days: 10 });
    const user = await t.createUser('plan-racer');
    const first = await payablePlanOrder(user.cookie, plan.id);
    const second = await payablePlanOrder(user.cookie, plan.id);
    const answers = await Promise.all([epay.notify(first), epay.notify(second), epay.notify(first)]);
    expect(answers.map((answer) => answer.body)).toEqual(['success', 'success', 'success']);
    const rows = await subscriptionsOf(user.id);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]?.expires_at)).toBe(nowSeconds() + 20 * DAY);
    expect((await eventsOf(user.id)).filter((event) => event.event === 'plan_subscribed')).toHaveLength(2);
  });

  it('refuses to order another plan while one is active, naming it, and never activates two', async () => {
    const held = await createPlan({ name: 'Held' });
    const other = await createPlan({ name: 'Other' });
    const user = await t.createUser('plan-switch');
    // Both ordered before either is paid: the order check cannot see the conflict yet.
    const first = await payablePlanOrder(user.cookie, held.id);
    const second = await payablePlanOrder(user.cookie, other.id);
    expect(await epay.notify(first)).toEqual({ status: 200, body: 'success' });

    const refused = await t.call('POST', '/api/user/plan/order', user.cookie, {
      plan_id: other.id,
      uuid: gateway.uuid,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, field: 'plan_id' });
    expect(refused.json().message).toContain("'Held'");

    // The second order's payment arrives anyway: recorded failed with the reason, not activated.
    expect(await epay.notify(second)).toEqual({ status: 200, body: 'success' });
    expect((await t.order(second)).status).toBe('failed');
    expect((await subscriptionsOf(user.id)).map((row) => row.plan_id)).toEqual([held.id]);
    const notCredited = (await eventsOf(user.id)).filter((event) => event.event === 'topup_not_credited');
    expect(notCredited).toEqual([expect.objectContaining({ trade_no: second })]);
    expect(notCredited[0]?.reason).toContain("'Held'");
  });

  it('moves the subscriber into the plan group and back when it expires', async () => {
    const plan = await createPlan({ name: 'VIP week', group: 'plan-vip', duration_days: 7 });
    const user = await t.createUser('plan-vip');
    // The relay's copies of users listen on the change bus: each group move must be announced there.
    const announced: number[] = [];
    const stop = t.services.changes.on('users', ({ id }) => {
      if (id === user.id) announced.push(id);
    });
    const tradeNo = await payablePlanOrder(user.cookie, plan.id);
    expect(await epay.notify(tradeNo)).toEqual({ status: 200, body: 'success' });
    expect(await groupOf(user.cookie)).toBe('plan-vip');
    const [row] = await subscriptionsOf(user.id);
    expect(row).toMatchObject({ group: 'plan-vip', previous_group: 'default' });
    expect(announced).toHaveLength(1);

    // Past its end the plan is over for every read, before the expiry job has run.
    now += 8 * DAY * 1000;
    expect(await t.services.plans.activeFor(user.id)).toBeUndefined();
    const view = (await t.call('GET', '/api/user/plan', user.cookie)).json().data;
    expect(view.subscriptions[0]).toMatchObject({ plan_id: plan.id, status: 'expired', windows: [] });

    expect(await t.services.plans.expireDue()).toBeGreaterThanOrEqual(1);
    expect(await groupOf(user.cookie)).toBe('default');
    expect(announced).toHaveLength(2);
    stop();
    expect((await subscriptionsOf(user.id))[0]?.status).toBe('expired');
    expect((await eventsOf(user.id)).at(-1)).toMatchObject({
      type: 4,
      event: 'plan_expired',
      plan_id: plan.id,
      group: 'default',
    });
    expect(await t.services.plans.expireDue()).toBe(0);

    // The next purchase starts a new subscription and moves the user again.
    const again = await payablePlanOrder(user.cookie, plan.id);
    expect(await epay.notify(again)).toEqual({ status: 200, body: 'success' });
    expect(await groupOf(user.cookie)).toBe('plan-vip');
    expect((await subscriptionsOf(user.id)).map((subscription) => subscription.status)).toEqual(['expired', 'active']);
  });

  it('leaves a user an administrator moved meanwhile in their new group at expiry', async () => {
    const plan = await createPlan({ name: 'VIP day', group: 'plan-vip', duration_days: 1 });
    const user = await t.createUser('plan-moved');
    expect((await t.call('POST', '/api/plan/grant', t.root, { user_id: user.id, plan_id: plan.id })).statusCode).toBe(
      200,
    );
    expect(await groupOf(user.cookie)).toBe('plan-vip');
    const profile = (await t.call('GET', `/api/user/${user.id}`, t.root)).json().data;
    const premium = await t.call('POST', '/api/user_group/', t.root, {
      ...{ symbol: 'premium', name: 'Premium', ratio: 1, api_rate: 600, public: false },
    });
    expect(premium.statusCode).toBe(200);
    const toPremium = await t.call('PUT', '/api/user/', t.root, { ...profile, group: 'premium', password: '' });
    expect(toPremium.statusCode, toPremium.body).toBe(200);

    now += 2 * DAY * 1000;
    await t.services.plans.expireDue();
    expect(await groupOf(user.cookie)).toBe('premium');
    expect((await subscriptionsOf(user.id))[0]?.status).toBe('expired');
  });

  it('neither shows nor sells a disabled plan, and refuses an unknown gateway', async () => {
    const plan = await createPlan({ name: 'Off', enable: false });
    const user = await t.createUser('plan-shopper');
    const available = (await t.call('GET', '/api/plan/available', user.cookie)).json().data as { id: number }[];
    expect(available.map((shown) => shown.id)).not.toContain(plan.id);
    const ordered = await t.call('POST', '/api/user/plan/order', user.cookie, { plan_id: plan.id, uuid: gateway.uuid });
    expect(ordered.statusCode).toBe(404);
    expect(ordered.json().field).toBe('plan_id');
    const on = await createPlan({ name: 'On' });
    const noGateway = await t.call('POST', '/api/user/plan/order', user.cookie, { plan_id: on.id, uuid: 'nope' });
    expect(noGateway.statusCode).toBe(404);
    const noBody = await t.call('POST', '/api/user/plan/order', user.cookie, { uuid: gateway.uuid });
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().field).toBe('plan_id');
    const orders = await t.database.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute();
    expect(orders).toEqual([]);
  });
});
