import { LogType } from '@one-hub/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRankLadder, useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';
import { logRow } from '../../../test/log-rows.js';
import { nowSeconds } from '../../platform/clock.js';
import { localDayOf } from '../statistics/dates.js';

interface Named {
  username: string;
}

/** Issue 29 item 9: an admin's lists of users and logs hold only itself and the users it outranks. */
describe.each(availableDialects)('user and log lists by rank on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  let admin: { cookie: string; id: number };
  let rootId: number;
  let peerId: number;
  let userId: number;

  beforeAll(async () => {
    ({ admin, peerId, userId, rootId } = await createRankLadder(s.t, s.root, 'list'));
    // Off a day's first second, so the sums read these rows rather than the (empty) daily roll-up.
    const now = nowSeconds();
    const at = localDayOf(now - 10).start === now - 10 ? now - 9 : now - 10;
    const usage = (user_id: number, username: string, quota: number) =>
      logRow({ user_id, username, quota, created_at: at, model_name: 'gpt-4o' });
    await s.t.database.db
      .insertInto('logs')
      .values([
        usage(rootId, 'root', 1_000),
        usage(peerId, 'list_peer', 200),
        usage(admin.id, 'list_adm', 30),
        usage(userId, 'list_user', 4),
        { ...usage(rootId, 'root', 0), type: LogType.manage },
      ])
      .execute();
  });

  it('lists to an admin itself and lower-ranked users, never root or another admin', async () => {
    const page = (await s.call('GET', '/api/user/?size=100', admin.cookie)).json().data;
    const names = (page.data as Named[]).map((user) => user.username);
    expect(names).toEqual(expect.arrayContaining(['list_adm', 'list_user', 'plain']));
    expect(names).not.toContain('root');
    expect(names).not.toContain('list_peer');
    expect(page.total_count).toBe(names.length);
    for (const keyword of ['root', 'list_peer', String(rootId), String(peerId)]) {
      const searched = (await s.call('GET', `/api/user/?keyword=${keyword}`, admin.cookie)).json().data;
      expect(searched, keyword).toMatchObject({ data: [], total_count: 0 });
    }
    const everyone = (await s.call('GET', '/api/user/?size=100', s.root)).json().data.data as Named[];
    expect(everyone.map((user) => user.username)).toEqual(expect.arrayContaining(['root', 'list_peer']));
  });

  it('lists to an admin the logs of itself and lower-ranked users only', async () => {
    for (const username of ['root', 'list_peer']) {
      const page = (await s.call('GET', `/api/log/?username=${username}`, admin.cookie)).json().data;
      expect(page, username).toMatchObject({ data: [], total_count: 0 });
    }
    const all = (await s.call('GET', '/api/log/?size=100', admin.cookie)).json().data;
    const names = new Set((all.data as Named[]).map((log) => log.username));
    expect([...names]).toEqual(expect.arrayContaining(['list_adm', 'list_user']));
    expect(names.has('root') || names.has('list_peer')).toBe(false);
    expect(all.total_count).toBe(all.data.length);
    const rootView = (await s.call('GET', '/api/log/?username=root', s.root)).json().data;
    expect(rootView.total_count).toBe(2);
  });

  it('sums for an admin only the usage of itself and lower-ranked users', async () => {
    const stat = (query: string, cookie: string) =>
      s.call('GET', `/api/log/stat?${query}`, cookie).then((response) => response.json().data);
    expect(await stat('', admin.cookie)).toMatchObject({ quota: 34, rpm: 2 });
    expect(await stat('username=root', admin.cookie)).toMatchObject({ quota: 0, rpm: 0 });
    expect(await stat('model_name=gpt-4o', admin.cookie)).toMatchObject({ quota: 34 });
    expect(await stat('', s.root)).toMatchObject({ quota: 1_234, rpm: 4 });
    expect(await stat('username=root', s.root)).toMatchObject({ quota: 1_000 });
  });
});
