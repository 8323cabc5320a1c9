import { LogType } from '@one-hub/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { daysAgo } from '../../../test/api/days.js';
import { createRankLadder, useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';
import { logRow } from '../../../test/log-rows.js';
import { LogWriter } from '../log/writer.js';

interface Named {
  username: string;
}

const today = daysAgo(0).date;

/**
 * Issue 29 item 9: an admin's analytics (top users, the user comparison and its CSV, the period's
 * usage, the summary) cover itself and the users it outranks, never root or another admin.
 */
describe.each(availableDialects)('analytics by rank on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  let admin: { cookie: string; id: number };
  let rootId: number;

  beforeAll(async () => {
    const ladder = await createRankLadder(s.t, s.root, 'stat');
    ({ admin, rootId } = ladder);
    const { peerId } = ladder;
    const user = { id: ladder.userId, cookie: ladder.userCookie };
    // Through the writer, so the daily roll-up (what analytics reads) holds them.
    const writer = new LogWriter(s.t.database, { flushIntervalMs: 60_000 });
    const usage = (user_id: number, quota: number, model_name = 'gpt-4o') =>
      logRow({ user_id, quota, model_name, channel_id: 1, created_at: daysAgo(0).at, type: LogType.consume });
    writer.push(usage(rootId, 1_000));
    writer.push(usage(rootId, 500, 'root-only-model'));
    writer.push(usage(peerId, 200));
    writer.push(usage(admin.id, 30));
    writer.push(usage(user.id, 4));
    await writer.close();
    // A code root made and one the admin made, each redeemed by the plain user.
    for (const [cookie, quota] of [
      [s.root, 700],
      [admin.cookie, 60],
    ] as const) {
      const created = await s.call('POST', '/api/redemption/', cookie, { name: 'gift', quota, count: 1 });
      expect(created.statusCode, created.body).toBe(200);
      const redeemed = await s.call('POST', '/api/user/topup', user.cookie, { key: created.json().data[0] });
      expect(redeemed.statusCode, redeemed.body).toBe(200);
    }
  });

  // Through the next hour: the users, codes and redemptions made in `beforeAll` fall inside it.
  const range = `start_timestamp=${daysAgo(1).at}&end_timestamp=${Math.floor(Date.now() / 1000) + 3600}`;

  it('ranks for an admin only itself and lower-ranked users, totals over them alone', async () => {
    const top = async (cookie: string) => {
      const response = await s.call('GET', `/api/analytics/top_users?${range}`, cookie);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data;
    };
    const seen = await top(admin.cookie);
    expect((seen.users as Named[]).map((user) => user.username)).toEqual(['stat_adm', 'stat_user']);
    expect(seen).toMatchObject({ active_users: 2, total_quota: 34, total_request_count: 2 });
    const all = await top(s.root);
    expect((all.users as Named[]).map((user) => user.username)).toEqual(['root', 'stat_peer', 'stat_adm', 'stat_user']);
    expect(all).toMatchObject({ active_users: 4, total_quota: 1_734, total_request_count: 5 });
  });

  it('compares and exports for an admin no root or admin row, as if the names were unknown', async () => {
    const query = `usernames=root,stat_peer,stat_adm,stat_user&start_time=${today}&end_time=${today}`;
    const compared = (await s.call('GET', `/api/analytics/multi_user_stats?${query}`, admin.cookie)).json();
    expect((compared.data as Named[]).map((row) => row.username)).toEqual(['stat_adm', 'stat_user']);
    expect(new Set((compared.model_usage as Named[]).map((row) => row.username))).toEqual(
      new Set(['stat_adm', 'stat_user']),
    );
    const csv = await s.call('GET', `/api/analytics/multi_user_stats/export?${query}`, admin.cookie);
    expect(csv.statusCode).toBe(200);
    const names = csv.body
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(names).toEqual(['stat_adm', 'stat_user']);
    const rootCsv = await s.call('GET', `/api/analytics/multi_user_stats/export?${query}`, s.root);
    expect(rootCsv.body).toContain('\r\nroot,2,1500,');
    expect(rootCsv.body).toContain('\r\nstat_peer,1,200,');
  });

  function usageOf(body: { data: { channel_statistics: Array<Record<string, string | number>> } }) {
    return body.data.channel_statistics.map((row) => [row.Channel, row.RequestCount, row.Quota]);
  }

  it("leaves root's and other admins' usage out of an admin's period figures", async () => {
    const period = (cookie: string, extra = '') =>
      s.call('GET', `/api/analytics/period?${range}&group_type=model${extra}`, cookie).then((r) => r.json());
    expect(usageOf(await period(admin.cookie))).toEqual([['gpt-4o', 2, 34]]);
    expect(usageOf(await period(admin.cookie, `&user_id=${rootId}`))).toEqual([]);
    expect(usageOf(await period(admin.cookie, `&user_id=${admin.id}`))).toEqual([['gpt-4o', 1, 30]]);
    expect(usageOf(await period(s.root))).toEqual([
      ['gpt-4o', 4, 1_234],
      ['root-only-model', 1, 500],
    ]);
    expect(usageOf(await period(s.root, `&user_id=${rootId}`))).toEqual([
      ['gpt-4o', 1, 1_000],
      ['root-only-model', 1, 500],
    ]);
    // Registrations and redemptions count the same people and codes the admin's lists show.
    const adminDays = (await period(admin.cookie)).data;
    expect(adminDays.redemption_statistics).toEqual([{ date: today, quota: 60, user_count: 1 }]);
    const rootDays = (await period(s.root)).data;
    expect(rootDays.redemption_statistics).toEqual([{ date: today, quota: 760, user_count: 1 }]);
    const registered = (days: typeof adminDays) =>
      (days.user_statistics as Array<{ user_count: number }>).reduce((sum, day) => sum + day.user_count, 0);
    expect(registered(rootDays) - registered(adminDays)).toBe(2);
  });

  it("leaves root's and other admins' balances and codes out of an admin's summary", async () => {
    const summary = async (cookie: string) => (await s.call('GET', '/api/analytics/statistics', cookie)).json().data;
    const users = await s.t.database.db.selectFrom('users').select(['id', 'role', 'quota']).execute();
    const visible = users.filter((user) => user.role < 10 || user.id === admin.id);
    const seen = await summary(admin.cookie);
    expect(seen.user_statistics).toMatchObject({
      total_user: visible.length,
      total_quota: visible.reduce((sum, user) => sum + Number(user.quota), 0),
    });
    expect(seen.redemption_statistic).toEqual([{ count: 1, quota: 60, status: 3 }]);
    const all = await summary(s.root);
    expect(all.user_statistics.total_user).toBe(users.length);
    expect(all.redemption_statistic).toEqual([{ count: 2, quota: 760, status: 3 }]);
  });
});
