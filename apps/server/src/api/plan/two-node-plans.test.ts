import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type PaymentTestApp, startPaymentApp } from '../../../test/payments/support.js';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * The relay's view of a user's plan is held in memory on every node: a grant or a plan edit on
 * one node must reach the other through Redis. SQLite only: what is under test is the change
 * bus, not the database (the three databases run the same writes in plan-orders.test.ts).
 */
describe.skipIf(!redisUrl)('a subscription change reaches the other node', () => {
  let first: PaymentTestApp;
  let second: PaymentTestApp;

  beforeAll(async () => {
    const env = { REDIS_CONN_STRING: String(redisUrl) };
    first = await startPaymentApp('sqlite', env, { cache: 'configured' });
    second = await startPaymentApp('sqlite', env, { cache: 'configured', database: first.testDatabase });
    await Promise.all([first.services.changes.ready(), second.services.changes.ready()]);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('drops the other node’s cached “no plan” on a grant, its cached allowance on a plan edit, and the plan on an end', async () => {
    const created = await first.call('POST', '/api/plan/', first.root, {
      ...{ name: 'Shared', price: 5, duration_days: 30, budgets: [{ period: 'day', requests: 100 }] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const plan = created.json().data;
    const user = await first.createUser('plan-2node');
    expect(await second.services.plans.activeFor(user.id)).toBeUndefined();

    const granted = await first.call('POST', '/api/plan/grant', first.root, { user_id: user.id, plan_id: plan.id });
    expect(granted.statusCode, granted.body).toBe(200);
    await vi.waitFor(async () => expect((await second.services.plans.activeFor(user.id))?.planId).toBe(plan.id));

    const edited = await first.call('PUT', '/api/plan/', first.root, {
      ...plan,
      budgets: [{ period: 'day', requests: 500 }],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await vi.waitFor(async () =>
      expect((await second.services.plans.activeFor(user.id))?.budgets).toEqual([{ period: 'day', requests: 500 }]),
    );

    // An administrator ends it on the first node: the second stops seeing the plan.
    const ended = await first.call('POST', `/api/plan/subscription/${granted.json().data.id}/end`, first.root);
    expect(ended.statusCode, ended.body).toBe(200);
    await vi.waitFor(async () => expect(await second.services.plans.activeFor(user.id)).toBeUndefined());
  });
});
