import type { Paged, SubscriberView } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRowsOf, onlyRow } from '../../../test/api/audit-rows.js';
import { createAdmin } from '../../../test/api/root-and-plain.js';
import { ROOT_PASSWORD } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';

const USAGE = { prompt_tokens: 10, completion_tokens: 6 };
// gpt-4o-mini is priced 1 in, 2 out in startRelayTest.
const COST = USAGE.prompt_tokens + USAGE.completion_tokens * 2;
const chat = { model: 'gpt-4o-mini', max_tokens: USAGE.completion_tokens, messages: [{ role: 'user', content: 'Hi' }] };

/** Administrators list who holds a plan and end a subscription now (issue 37 follow-up). */
describe.each(availableDialects)('subscribers of plans and ending a subscription on %s', (dialect) => {
  let r: RelayTestContext;
  let root: string;

  beforeAll(async () => {
    r = await startRelayTest({ dialect });
    r.upstream.behaviour.usage = USAGE;
    root = await r.t.login('root', ROOT_PASSWORD);
    const group = await r.admin('POST', '/api/user_group/', {
      ...{ symbol: 'subs-vip', name: 'Subscribers', ratio: 1, api_rate: 600, public: false },
    });
    expect(group.status).toBe(200);
  });
  afterAll(() => r?.close());

  const call = async (method: 'GET' | 'POST', url: string, cookie: string) => {
    const response = await r.t.app.inject({ method, url, headers: { cookie } });
    return { status: response.statusCode, body: response.json() };
  };
  const createPlan = async (name: string, extra: Record<string, unknown> = {}) => {
    const response = await r.admin('POST', '/api/plan/', {
      ...{ name, price: 10, duration_days: 30, budgets: [{ period: 'day', requests: 100 }] },
      ...extra,
    });
    expect(response.status).toBe(200);
    return (response.body.data as { id: number }).id;
  };
  const grant = async (userId: number, planId: number) => {
    const response = await r.admin('POST', '/api/plan/grant', { user_id: userId, plan_id: planId });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return (response.body.data as { id: number }).id;
  };
  const list = async (query: string, cookie = root) => {
    const response = await call('GET', `/api/plan/subscriptions${query}`, cookie);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data as Paged<SubscriberView>;
  };
  const groupOf = async (userId: number) =>
    (await r.t.database.db.selectFrom('users').select('group').where('id', '=', userId).executeTakeFirstOrThrow())
      .group;
  const systemEvents = async (userId: number) =>
    (
      await r.t.database.db
        .selectFrom('logs')
        .select(['content', 'metadata', 'source_ip'])
        .where('user_id', '=', userId)
        .where('type', '=', 4)
        .orderBy('id')
        .execute()
    ).map((row) => ({ content: row.content, ip: row.source_ip, ...JSON.parse(row.metadata) }));

  it('lists the running subscriptions newest first with their holders, by plan and paged', async () => {
    const first = await createPlan('Listed A');
    const second = await createPlan('Listed B');
    const alice = await r.t.createUser('list-alice');
    await r.t.database.db.updateTable('users').set({ display_name: 'Alice' }).where('id', '=', alice.id).execute();
    const bob = await r.t.createUser('list-bob');
    const carol = await r.t.createUser('list-carol');
    const aliceSub = await grant(alice.id, first);
    const bobSub = await grant(bob.id, first);
    const carolSub = await grant(carol.id, second);

    const ofFirst = await list(`?plan_id=${first}`);
    expect(ofFirst).toMatchObject({ page: 1, size: 10, total_count: 2 });
    expect(ofFirst.data.map((row) => row.id)).toEqual([bobSub, aliceSub]);
    const alicesRow = ofFirst.data[1];
    expect(alicesRow).toMatchObject({
      user_id: alice.id,
      username: 'list-alice',
      display_name: 'Alice',
      plan_id: first,
      plan_name: 'Listed A',
      source: 'grant',
      endable: true,
    });
    expect(alicesRow?.expires_at).toBe((alicesRow?.started_at ?? 0) + 30 * 86_400);

    const paged = await list(`?plan_id=${first}&page=2&size=1`);
    expect(paged).toMatchObject({ page: 2, size: 1, total_count: 2 });
    expect(paged.data.map((row) => row.id)).toEqual([aliceSub]);
    const oldestFirst = await list(`?plan_id=${first}&order=id`);
    expect(oldestFirst.data.map((row) => row.id)).toEqual([aliceSub, bobSub]);
    const every = (await list('?size=100')).data.map((row) => row.id);
    expect(every).toEqual(expect.arrayContaining([aliceSub, bobSub, carolSub]));
    expect(await list('?plan_id=999999')).toMatchObject({ total_count: 0, data: [] });
  });

  it('shows an administrator which subscriptions it may end, and refuses the others with 403', async () => {
    const plan = await createPlan('Ranked');
    const admin = await createAdmin(r.t, root, 'subs-admin');
    const { id: peerId } = await createAdmin(r.t, root, 'subs-peer');
    const user = await r.t.createUser('subs-ranked');
    const peerSub = await grant(peerId, plan);
    const userSub = await grant(user.id, plan);

    const seen = (await list(`?plan_id=${plan}`, admin.cookie)).data;
    expect(seen.map((row) => [row.id, row.endable])).toEqual([
      [userSub, true],
      [peerSub, false],
    ]);
    const rows = await auditRowsOf(r.t.database, async () => {
      const refused = await call('POST', `/api/plan/subscription/${peerSub}/end`, admin.cookie);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toContain('permission denied');
    });
    expect(rows).toEqual([]);
    expect((await r.t.services.plans.activeFor(peerId))?.subscriptionId).toBe(peerSub);

    const plain = await r.t.createUser('subs-plain');
    expect((await call('GET', '/api/plan/subscriptions', plain.cookie)).status).toBe(403);
    expect((await call('POST', `/api/plan/subscription/${userSub}/end`, plain.cookie)).status).toBe(403);
    expect((await r.t.services.plans.activeFor(user.id))?.subscriptionId).toBe(userSub);

    // Root outranks every administrator.
    expect((await call('POST', `/api/plan/subscription/${peerSub}/end`, root)).status).toBe(200);
  });

  it('ends a subscription now: group back, log row and audit row, off the list, 409 the second time', async () => {
    const plan = await createPlan('Ended', { group: 'subs-vip' });
    const user = await r.t.createUser('subs-ended');
    const id = await grant(user.id, plan);
    expect(await groupOf(user.id)).toBe('subs-vip');
    expect((await r.t.services.plans.activeFor(user.id))?.subscriptionId).toBe(id);

    let answer: { status: number; body: { data: Record<string, unknown> } } | undefined;
    const rows = await auditRowsOf(r.t.database, async () => {
      answer = await call('POST', `/api/plan/subscription/${id}/end`, root);
    });
    expect(answer?.status, JSON.stringify(answer?.body)).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    expect(answer?.body.data).toMatchObject({ id, plan_id: plan, status: 'expired', source: 'grant' });
    expect(Number(answer?.body.data.expires_at)).toBeLessThanOrEqual(now);

    expect(await groupOf(user.id)).toBe('default');
    expect(await r.t.services.plans.activeFor(user.id)).toBeUndefined();
    const stored = await r.t.database.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe('expired');
    expect(Number(stored.expires_at)).toBe(answer?.body.data.expires_at);

    const events = await systemEvents(user.id);
    expect(events.map((event) => event.event)).toEqual(['plan_subscribed', 'plan_ended']);
    expect(events[1]).toMatchObject({
      event: 'plan_ended',
      plan_id: plan,
      plan_name: 'Ended',
      operator_id: 1,
      group: 'default',
      content: '管理员提前结束套餐 Ended，分组恢复为 default，操作者 #1',
    });

    const audit = onlyRow(rows, 'plan', 'end');
    expect(audit).toMatchObject({ actor_name: 'root', target_id: String(plan), target_name: 'Ended' });
    expect(audit.changes).toMatchObject({
      subscription_id: { after: id },
      user_id: { after: user.id },
      username: { after: 'subs-ended' },
      status: { before: 'active', after: 'expired' },
      expires_at: { after: answer?.body.data.expires_at },
    });

    expect((await list(`?plan_id=${plan}`)).total_count).toBe(0);
    const again = await auditRowsOf(r.t.database, async () => {
      const twice = await call('POST', `/api/plan/subscription/${id}/end`, root);
      expect(twice.status).toBe(409);
      expect(twice.body).toMatchObject({ success: false });
      expect(twice.body.message).toContain("'Ended' already ended");
    });
    expect(again).toEqual([]);
    expect((await systemEvents(user.id)).length).toBe(2);
    // The expiry job finds nothing left to end.
    expect(
      (await r.t.database.db.selectFrom('subscriptions').selectAll().where('id', '=', id).execute())[0]?.status,
    ).toBe('expired');
    await r.t.services.plans.expireDue();
    expect((await systemEvents(user.id)).length).toBe(2);
  });

  it('answers 404 for an unknown subscription and 400 for bad input, changing nothing', async () => {
    const rows = await auditRowsOf(r.t.database, async () => {
      const unknown = await call('POST', '/api/plan/subscription/999999/end', root);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('subscription 999999 not found');
      expect((await call('POST', '/api/plan/subscription/0/end', root)).status).toBe(400);
      for (const [query, field] of [
        ['?plan_id=abc', 'plan_id'],
        ['?plan_id=-1', 'plan_id'],
        ['?size=1000', 'size'],
      ] as const) {
        const refused = await call('GET', `/api/plan/subscriptions${query}`, root);
        expect(refused.status, query).toBe(400);
        expect(refused.body.message).toContain(field);
      }
      const badOrder = await call('GET', '/api/plan/subscriptions?order=username', root);
      expect(badOrder.status).toBe(400);
      expect(badOrder.body.message).toContain("cannot sort by field 'username'");
    });
    expect(rows).toEqual([]);
  });

  it('lets the relay charge the balance, not the plan, for a request after the end', async () => {
    const plan = await createPlan('Relayed', { fallback_to_balance: false });
    const user = await r.t.createUser('subs-relay');
    const id = await grant(user.id, plan);
    expect((await r.admin('POST', `/api/user/quota/${user.id}`, { quota: 1000 })).status).toBe(200);
    const key = await r.newKey(user.cookie);
    const post = () =>
      fetch(`${r.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(chat),
      });
    expect((await post()).status).toBe(200);
    expect(await storedQuota(r, user.id)).toBe(1000);

    expect((await call('POST', `/api/plan/subscription/${id}/end`, root)).status).toBe(200);
    expect((await post()).status).toBe(200);
    expect(await storedQuota(r, user.id)).toBe(1000 - COST);
    await r.t.app.relay.flush();
    const consumed = await r.t.database.db
      .selectFrom('logs')
      .select(['quota', 'metadata'])
      .where('user_id', '=', user.id)
      .where('type', '=', 2)
      .orderBy('id')
      .execute();
    expect(consumed.map((row) => [Number(row.quota), JSON.parse(row.metadata).paid_by])).toEqual([
      [0, 'plan'],
      [COST, undefined],
    ]);
  });
});
