import type { BudgetWindowView } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../../test/databases.js';
import { type MjGateway, startMjGateway } from '../../../../test/midjourney/gateway.js';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Issue 33: a task is counted on its budget windows when it is submitted; when it later fails, the
 * windows give back what it counted (as the balance gets its refund), exactly once, even when the
 * failure is seen after a restart. With the windows in process memory and in Redis.
 */
const IMAGINE_QUOTA = 2000;
const setups = [
  ...availableDialects.map((dialect) => ({ dialect, env: {} as Record<string, string>, name: dialect })),
  ...(redisUrl ? [{ dialect: 'sqlite' as const, env: { REDIS_CONN_STRING: redisUrl }, name: 'sqlite and Redis' }] : []),
];

describe.each(setups)('a failed Midjourney task gives back its budget windows ($name)', ({ dialect, env }) => {
  let g: MjGateway;
  beforeAll(async () => {
    g = await startMjGateway(dialect, env);
  });
  afterAll(async () => {
    await g?.close();
  });

  const imagine = (key: string, prompt: string) => g.mj('/mj/submit/imagine', { prompt }, { 'mj-api-secret': key });
  const submitted = async (key: string, prompt: string) => {
    const answer = await imagine(key, prompt);
    expect(answer.body.code, JSON.stringify(answer.body)).toBe(1);
    return answer.body.result as string;
  };
  const expectRefused = async (key: string) => {
    const answer = await imagine(key, 'one too many');
    expect(answer.status).toBe(429);
    expect(String(answer.body.description)).toContain('requests budget of');
  };
  const newKey = async (cookie: string, fields: Record<string, unknown> = {}) => {
    const payload = { name: 'budget key', expired_time: -1, remain_quota: 0, unlimited_quota: true, ...fields };
    const created = await g.server.app.inject({ method: 'POST', url: '/api/token/', headers: { cookie }, payload });
    expect(created.statusCode, created.body).toBe(200);
    const key = (created.json() as { data: { key: string } }).data.key;
    const listed = await g.server.app.inject({ method: 'GET', url: '/api/token/?size=100', headers: { cookie } });
    const rows = (listed.json() as { data: { data: Array<{ id: number; key: string }> } }).data.data;
    return { key, id: (rows.find((row) => key.endsWith(row.key)) as { id: number }).id };
  };
  const failAndPoll = async (key: string, mjId: string) => {
    g.proxy.settle(mjId, 'FAILURE', 'banned prompt');
    await g.poller().poll();
    const task = await g.mj(`/mj/task/${mjId}/fetch`, undefined, { 'mj-api-secret': key });
    expect(task.body).toMatchObject({ status: 'FAILURE' });
  };
  /** The window's row in `budget_usage`, once the ledgers wrote what they hold. */
  const storedUse = async (subject: string) => {
    await g.server.app.relay.flush();
    const row = await g.server.database.db
      .selectFrom('budget_usage')
      .select(['quota', 'requests'])
      .where('subject', '=', subject)
      .executeTakeFirstOrThrow();
    return { quota: Number(row.quota), requests: Number(row.requests) };
  };

  it('admits the next task on a key’s window of one request once the first failed, also after a restart', async () => {
    const { key, id } = await newKey(g.cookie, { setting: { budgets: [{ period: 'day', requests: 1 }] } });
    const first = await submitted(key, 'first');
    await expectRefused(key);
    expect(await storedUse(`key:${id}`)).toEqual({ quota: IMAGINE_QUOTA, requests: 1 });

    await failAndPoll(key, first);
    // A second report of the same failure gives back nothing more.
    await g.poller().poll();
    const view = await g.server.app.inject({ method: 'GET', url: `/api/token/${id}`, headers: { cookie: g.cookie } });
    const windows = (view.json() as { data: { budget_windows: BudgetWindowView[] } }).data.budget_windows;
    expect(windows).toEqual([expect.objectContaining({ scope: 'key', used_requests: 0, used_quota: 0 })]);
    expect(await storedUse(`key:${id}`)).toEqual({ quota: 0, requests: 0 });

    // The failure is seen by a process that never met the window: it reads it, then gives back.
    const second = await submitted(key, 'second');
    await expectRefused(key);
    await g.restart();
    await failAndPoll(key, second);
    expect(await storedUse(`key:${id}`)).toEqual({ quota: 0, requests: 0 });
    await submitted(key, 'third');
    await expectRefused(key);
  });

  it('gives a plan-paid task’s count back to the plan’s windows, and charges the balance nothing', async () => {
    const plan = await g.admin('POST', '/api/plan/', {
      name: `Images ${dialect}`,
      price: 10,
      duration_days: 30,
      budgets: [{ period: 'day', requests: 1, quota: 10 * IMAGINE_QUOTA }],
      fallback_to_balance: false,
    });
    expect(plan.status).toBe(200);
    const { id: userId, cookie } = await g.server.createUser('planpainter');
    expect((await g.admin('POST', '/api/plan/grant', { user_id: userId, plan_id: plan.body.data.id })).status).toBe(
      200,
    );
    const { key } = await newKey(cookie);
    const balance = async () => Number((await g.server.services.userRepository.findById(userId))?.quota);
    const before = await balance();
    const planWindows = async () => {
      const own = await g.server.app.inject({ method: 'GET', url: '/api/user/plan', headers: { cookie } });
      const data = own.json() as { data: { subscriptions: Array<{ windows: BudgetWindowView[] }> } };
      return data.data.subscriptions[0]?.windows;
    };

    const first = await submitted(key, 'on the plan');
    await expectRefused(key);
    expect(await planWindows()).toEqual([
      expect.objectContaining({ scope: 'plan', used_requests: 1, used_quota: IMAGINE_QUOTA }),
    ]);
    await failAndPoll(key, first);
    expect(await planWindows()).toEqual([expect.objectContaining({ scope: 'plan', used_requests: 0, used_quota: 0 })]);
    await submitted(key, 'again on the plan');
    // The plan paid both, and the failure refunded nothing to the balance.
    await g.server.app.relay.flush();
    expect(await balance()).toBe(before);
  });
});
