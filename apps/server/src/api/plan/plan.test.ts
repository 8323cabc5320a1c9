import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../../test/api/root-and-plain.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

const DAY = 86_400;

/** A valid plan body; tests change one field at a time. */
const planBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Pro',
  description: 'For daily coding',
  price: 9.99,
  currency: 'USD',
  duration_days: 30,
  budgets: [
    { period: '5h', quota: 2_500_000 },
    { period: 'week', quota: 25_000_000, requests: 5000 },
  ],
  models: ['gpt-4o-mini'],
  fallback_to_balance: false,
  ...extra,
});

describe.each(availableDialects)('plans and their grants through the API on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  const now = Date.UTC(2026, 11, 6, 12);

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const create = async (extra: Record<string, unknown> = {}) => {
    const response = await call('POST', '/api/plan/', root, planBody(extra));
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: number; name: string };
  };
  const planCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('plans')
          .select((select) => select.fn.countAll().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );

  beforeAll(async () => {
    t = await startTestApp({ dialect, clock: () => now });
    root = await t.login('root', ROOT_PASSWORD);
  });
  afterAll(() => t?.close());

  it('creates, reads, lists, updates and deletes a plan', async () => {
    const created = await create();
    expect(created).toMatchObject({
      ...planBody(),
      group: '',
      enable: true,
      sort: 0,
      budgets: [
        { period: '5h', quota: 2_500_000 },
        { period: 'week', quota: 25_000_000, requests: 5000 },
      ],
    });
    const read = await call('GET', `/api/plan/${created.id}`, root);
    expect(read.json().data).toEqual(created);

    const list = await call('GET', '/api/plan/?keyword=pr', root);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toMatchObject({ page: 1, total_count: 1 });
    expect(list.json().data.data[0].id).toBe(created.id);

    const edit = await call('PUT', '/api/plan/', root, planBody({ id: created.id, name: 'Pro+', price: 12, sort: 3 }));
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().data).toMatchObject({ id: created.id, name: 'Pro+', price: 12, sort: 3 });

    expect((await call('DELETE', `/api/plan/${created.id}`, root)).statusCode).toBe(200);
    expect((await call('GET', `/api/plan/${created.id}`, root)).statusCode).toBe(404);
    expect((await call('GET', '/api/plan/', root)).json().data.total_count).toBe(0);
    expect((await call('DELETE', `/api/plan/${created.id}`, root)).statusCode).toBe(404);
  });

  it('refuses a bad body with a 400 naming the field, and stores nothing', async () => {
    const before = await planCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ price: 1.234 }, 'price'],
      [{ currency: 'EUR' }, 'currency'],
      [{ duration_days: 0 }, 'duration_days'],
      [{ budgets: [] }, 'budgets'],
      [{ budgets: [{ period: 'day' }] }, 'budgets.0'],
      [{ budgets: [{ period: 'year', quota: 1 }] }, 'budgets.0.period'],
      [
        {
          budgets: [
            { period: 'day', quota: 1 },
            { period: 'day', tokens: 5 },
          ],
        },
        'budgets.1.period',
      ],
    ];
    for (const [extra, field] of cases) {
      const response = await call('POST', '/api/plan/', root, planBody(extra));
      expect(response.statusCode, JSON.stringify(extra)).toBe(400);
      expect(response.json()).toMatchObject({ success: false, field });
      expect(response.json().message).toContain(field);
    }
    const unknownGroup = await call('POST', '/api/plan/', root, planBody({ group: 'nowhere' }));
    expect(unknownGroup.statusCode).toBe(400);
    expect(unknownGroup.json().message).toBe("group: user group 'nowhere' does not exist");
    const missing = await call('PUT', '/api/plan/', root, planBody({ id: 999_999 }));
    expect(missing.statusCode).toBe(404);
    expect(await planCount()).toBe(before);
  });

  it('lets only administrators manage plans, and shows users the enabled ones', async () => {
    const user = await t.createUser('plan-reader');
    expect((await call('GET', '/api/plan/', user.cookie)).statusCode).toBe(403);
    expect((await call('POST', '/api/plan/', user.cookie, planBody())).statusCode).toBe(403);
    expect((await call('POST', '/api/plan/grant', user.cookie, { user_id: user.id, plan_id: 1 })).statusCode).toBe(403);
    const shown = await create({ name: 'Shown', sort: 1 });
    const first = await create({ name: 'First', sort: 9 });
    const hidden = await create({ name: 'Hidden', enable: false });
    const available = await call('GET', '/api/plan/available', user.cookie);
    expect(available.statusCode).toBe(200);
    const ids = (available.json().data as { id: number }[]).map((plan) => plan.id);
    expect(ids).toEqual([first.id, shown.id]);
    expect(ids).not.toContain(hidden.id);
  });

  it('grants only to users the administrator outranks', async () => {
    const plan = await create({ name: 'Granted' });
    const admin = await createAdmin(t, root, 'plan-admin');
    const peer = await createAdmin(t, root, 'plan-peer');
    const user = await t.createUser('plan-grantee');
    const toPeer = await call('POST', '/api/plan/grant', admin.cookie, { user_id: peer.id, plan_id: plan.id });
    expect(toPeer.statusCode).toBe(403);
    const toRoot = await call('POST', '/api/plan/grant', admin.cookie, { user_id: 1, plan_id: plan.id });
    expect(toRoot.statusCode).toBe(403);
    const toNobody = await call('POST', '/api/plan/grant', admin.cookie, { user_id: 999_999, plan_id: plan.id });
    expect(toNobody.statusCode).toBe(404);
    expect(toNobody.json().field).toBe('user_id');
    const noPlan = await call('POST', '/api/plan/grant', admin.cookie, { user_id: user.id, plan_id: 999_999 });
    expect(noPlan.statusCode).toBe(404);
    const badBody = await call('POST', '/api/plan/grant', admin.cookie, { user_id: user.id });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json().field).toBe('plan_id');
    expect(await t.services.plans.activeFor(peer.id)).toBeUndefined();

    const granted = await call('POST', '/api/plan/grant', admin.cookie, { user_id: user.id, plan_id: plan.id });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json().data).toMatchObject({ plan_id: plan.id, status: 'active', source: 'grant' });
  });

  it('renews a granted plan by its duration, refuses another one with 409, and keeps the relay view current', async () => {
    const plan = await create({ name: 'Monthly', duration_days: 30 });
    const other = await create({ name: 'Other' });
    const user = await t.createUser('plan-renewer');
    // Read (and cached) before the grant: the grant must replace the cached "no plan".
    expect(await t.services.plans.activeFor(user.id)).toBeUndefined();

    const start = Math.floor(now / 1000);
    expect((await call('POST', '/api/plan/grant', root, { user_id: user.id, plan_id: plan.id })).statusCode).toBe(200);
    const active = await t.services.plans.activeFor(user.id);
    expect(active).toMatchObject({
      planId: plan.id,
      expiresAt: (start + 30 * DAY) * 1000,
      budgets: planBody().budgets,
      models: ['gpt-4o-mini'],
      fallbackToBalance: false,
    });

    const again = await call('POST', '/api/plan/grant', root, { user_id: user.id, plan_id: plan.id });
    expect(again.json().data.expires_at).toBe(start + 60 * DAY);
    expect((await t.services.plans.activeFor(user.id))?.expiresAt).toBe((start + 60 * DAY) * 1000);

    const refused = await call('POST', '/api/plan/grant', root, { user_id: user.id, plan_id: other.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain("'Monthly'");

    const mine = await call('GET', '/api/user/plan', user.cookie);
    expect(mine.statusCode).toBe(200);
    const view = mine.json().data;
    expect(view.windows).toEqual([]);
    expect(view.subscriptions).toHaveLength(1);
    expect(view.subscriptions[0]).toMatchObject({
      plan_name: 'Monthly',
      status: 'active',
      started_at: start,
      expires_at: start + 60 * DAY,
      source: 'grant',
      fallback_to_balance: false,
    });
    expect(view.subscriptions[0].windows).toEqual([
      expect.objectContaining({ scope: 'plan', period: '5h', quota: 2_500_000, used_quota: 0, requests: null }),
      expect.objectContaining({ scope: 'plan', period: 'week', quota: 25_000_000, requests: 5000 }),
    ]);
    const logs = await t.database.db
      .selectFrom('logs')
      .select(['type', 'metadata'])
      .where('user_id', '=', user.id)
      .where('type', '=', 4)
      .orderBy('id')
      .execute();
    expect(logs.map((row) => JSON.parse(row.metadata))).toEqual([
      expect.objectContaining({ event: 'plan_subscribed', renewed: false, source: 'grant', operator_id: 1 }),
      expect.objectContaining({ event: 'plan_subscribed', renewed: true, expires_at: start + 60 * DAY }),
    ]);

    // A plan edit reaches subscribers at once; deleting it lets the subscription run to its end.
    await call('PUT', '/api/plan/', root, planBody({ id: plan.id, name: 'Monthly', fallback_to_balance: true }));
    expect((await t.services.plans.activeFor(user.id))?.fallbackToBalance).toBe(true);
    expect((await call('DELETE', `/api/plan/${plan.id}`, root)).statusCode).toBe(200);
    expect((await t.services.plans.activeFor(user.id))?.planId).toBe(plan.id);
  });
});
