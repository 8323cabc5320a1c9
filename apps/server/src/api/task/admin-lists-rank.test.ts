import { OrderStatus } from '@one-hub/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRankLadder, useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';
import { nowSeconds } from '../../platform/clock.js';

/** What root, the peer admin, the admin and the user each paid, in that order. */
const PAID = [1000, 100, 10, 1];

interface Owned {
  user_id: number;
}

/**
 * Issue 29 item 9: an admin's lists of async tasks, Midjourney tasks and payment orders, and the
 * order figures of its analytics, hold only itself and the users it outranks; root's hold all.
 */
describe.each(availableDialects)('task and order lists by rank on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  let admin: { cookie: string; id: number };
  let rootId: number;
  let peerId: number;
  let userId: number;

  beforeAll(async () => {
    ({ admin, peerId, userId, rootId } = await createRankLadder(s.t, s.root, 'lists'));
    const db = s.t.database.db;
    const now = nowSeconds();
    const owners = [rootId, peerId, admin.id, userId];
    await db
      .insertInto('tasks')
      .values(
        owners.map((user_id, index) => ({
          ...{ created_at: now, updated_at: now, task_id: `task-${index}`, platform: 'suno', user_id },
          ...{ channel_id: 1, quota: 10, action: 'MUSIC', status: 'SUCCESS', fail_reason: '', submit_time: now },
          ...{ start_time: now, finish_time: now, progress: 100, properties: '{}', data: '[]', notify_hook: '' },
          token_id: 0,
        })),
      )
      .execute();
    await db
      .insertInto('midjourneys')
      .values(
        owners.map((user_id, index) => ({
          ...{ code: 1, user_id, action: 'IMAGINE', mj_id: `mj-${index}`, prompt: `prompt of ${user_id}` },
          ...{ prompt_en: '', description: '', state: '', submit_time: now * 1000, start_time: 0, finish_time: 0 },
          ...{ image_url: '', status: 'SUCCESS', progress: '100%', fail_reason: '', channel_id: 1, quota: 10 },
          ...{ buttons: '[]', properties: '{}', mode: 'fast', token_id: 0 },
        })),
      )
      .execute();
    await db
      .insertInto('orders')
      .values(
        owners.map((user_id, index) => ({
          ...{ user_id, gateway_id: 1, trade_no: `trade-${index}`, gateway_no: '', amount: 1 },
          ...{ order_amount: String(PAID[index]), order_currency: 'USD', quota: PAID[index] ?? 0 },
          ...{ fee: '0', discount: '0', status: OrderStatus.success, created_at: now, updated_at: now },
          deleted_at: null,
        })),
      )
      .execute();
  });

  async function owners(url: string, cookie: string): Promise<number[]> {
    const response = await s.call('GET', url, cookie);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json().data;
    expect(page.total_count).toBe(page.data.length);
    return (page.data as Owned[]).map((row) => row.user_id).sort((left, right) => left - right);
  }

  it('lists to an admin the tasks and orders of itself and lower-ranked users only', async () => {
    for (const url of ['/api/task/?size=100', '/api/mj/?size=100', '/api/payment/order?size=100']) {
      expect(await owners(url, admin.cookie), url).toEqual([admin.id, userId]);
      expect(await owners(url, s.root), url).toEqual([rootId, peerId, admin.id, userId].sort((l, r) => l - r));
    }
    for (const hidden of [rootId, peerId]) {
      expect(await owners(`/api/task/?user_id=${hidden}`, admin.cookie)).toEqual([]);
      expect(await owners(`/api/payment/order?user_id=${hidden}`, admin.cookie)).toEqual([]);
    }
  });

  it("leaves root's and other admins' orders out of an admin's order figures", async () => {
    const range = `start_timestamp=${nowSeconds() - 3600}&end_timestamp=${nowSeconds() + 3600}`;
    const summary = async (cookie: string) =>
      (await s.call('GET', '/api/analytics/statistics', cookie)).json().data.order_statistics;
    expect(await summary(admin.cookie)).toEqual([{ quota: 11, money: 11, order_currency: 'USD' }]);
    expect(await summary(s.root)).toEqual([{ quota: 1111, money: 1111, order_currency: 'USD' }]);
    const days = async (cookie: string) =>
      (await s.call('GET', `/api/analytics/period?${range}&group_type=model`, cookie)).json().data.order_statistics;
    expect((await days(admin.cookie)).map((day: { order_amount: number }) => day.order_amount)).toEqual([11]);
    expect((await days(s.root)).map((day: { order_amount: number }) => day.order_amount)).toEqual([1111]);
  });
});
