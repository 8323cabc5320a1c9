import { LogType } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysAgo } from '../../../test/api/days.js';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import type { NewLogRow } from '../../platform/db/index.js';
import { LogWriter } from '../log/writer.js';
import { multiUserCsv } from './user-usage.js';

const HEADER = 'Username,Request Count,Quota,Prompt Tokens,Completion Tokens,Request Time (ms)';

describe('CSV of the user comparison', () => {
  it('writes the reference header, then one line per user', () => {
    const row = {
      username: 'ann',
      request_count: 2,
      quota: 30,
      prompt_tokens: 4,
      completion_tokens: 5,
      request_time: 60,
    };
    expect(multiUserCsv([row])).toBe(`${HEADER}\r\nann,2,30,4,5,60\r\n`);
    expect(multiUserCsv([])).toBe(`${HEADER}\r\n`);
    // Names go through the shared csvField (contracts/csv.ts): quoted and defused.
    expect(multiUserCsv([{ ...row, username: '=ann, admin' }])).toBe(`${HEADER}\r\n"'=ann, admin",2,30,4,5,60\r\n`);
  });
});

describe.each(availableDialects)('usage by user on %s', (dialect) => {
  let t: TestApp;
  let plain: string;
  const ids: Record<'alice' | 'bob' | 'carol' | 'dave', number> = { alice: 0, bob: 0, carol: 0, dave: 0 };

  const get = (url: string, cookie?: string) =>
    t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : { authorization: ROOT_TOKEN } });

  function usage(userId: number, days: number, model: string, quota: number, tokens = 1): NewLogRow {
    return {
      ...{ user_id: userId, username: 'ignored', created_at: daysAgo(days).at, type: LogType.consume, content: '' },
      ...{ quota, source_ip: '', token_name: '', model_name: model, prompt_tokens: tokens, completion_tokens: 2 },
      ...{ channel_id: 1, request_time: 100, is_stream: false, metadata: '{}', token_id: 0, request_id: '' },
    };
  }

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    for (const name of ['alice', 'bob', 'carol', 'dave'] as const) {
      const user = await t.createUser(name);
      ids[name] = user.id;
      if (name === 'alice') plain = user.cookie;
    }
    const writer = new LogWriter(t.database, { flushIntervalMs: 60_000 });
    // alice: 3 requests, 60 quota, over two models and two days; and one request long ago.
    writer.push(usage(ids.alice, 0, 'gpt-4o', 10, 5));
    writer.push(usage(ids.alice, 0, 'gpt-4o', 10, 5));
    writer.push(usage(ids.alice, 1, 'claude-3-haiku', 40, 7));
    writer.push(usage(ids.alice, 30, 'gpt-4o', 9000));
    // bob: 1 request but the most quota.
    writer.push(usage(ids.bob, 1, 'gpt-4o', 500, 3));
    // dave: 2 requests, little quota; then deleted.
    writer.push(usage(ids.dave, 0, 'gpt-4o-mini', 1));
    writer.push(usage(ids.dave, 0, 'gpt-4o-mini', 1));
    // A log that is not a consume log never counts.
    writer.push({ ...usage(ids.carol, 0, 'gpt-4o', 777), type: LogType.topup });
    await writer.close();
    await t.database.db
      .updateTable('users')
      .set({ deleted_at: daysAgo(0).at })
      .where('id', '=', ids.dave)
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  const range = `start_time=${daysAgo(7).date}&end_time=${daysAgo(0).date}`;

  it('compares the named users in the order asked, with zeros for no usage and unknown names left out', async () => {
    const response = await get(
      `/api/analytics/multi_user_stats?usernames=bob,%20alice,nobody,carol,ALICE,bob&${range}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.success).toBe(true);
    expect(body.data).toEqual([
      { username: 'bob', request_count: 1, quota: 500, prompt_tokens: 3, completion_tokens: 2, request_time: 100 },
      { username: 'alice', request_count: 3, quota: 60, prompt_tokens: 17, completion_tokens: 6, request_time: 300 },
      { username: 'carol', request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0 },
    ]);
    expect(body.model_usage).toEqual([
      { username: 'bob', model_name: 'gpt-4o', request_count: 1 },
      { username: 'alice', model_name: 'gpt-4o', request_count: 2 },
      { username: 'alice', model_name: 'claude-3-haiku', request_count: 1 },
    ]);
  });

  it('counts only the days asked for, both ends included, deleted users too', async () => {
    const today = daysAgo(0).date;
    const one = await get(`/api/analytics/multi_user_stats?usernames=alice,dave&start_time=${today}&end_time=${today}`);
    expect(one.json().data.map((row: { username: string; quota: number }) => [row.username, row.quota])).toEqual([
      ['alice', 20],
      ['dave', 2],
    ]);
    const old = daysAgo(30).date;
    const past = await get(`/api/analytics/multi_user_stats?usernames=alice&start_time=${old}&end_time=${old}`);
    expect(past.json().data[0].quota).toBe(9000);
  });

  it('exports the comparison as a CSV file named after the range', async () => {
    const response = await get(`/api/analytics/multi_user_stats/export?usernames=alice,bob&${range}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="multi_user_stats_${daysAgo(7).date}_${daysAgo(0).date}.csv"`,
    );
    expect(response.body.split('\r\n')).toEqual([HEADER, 'alice,3,60,17,6,300', 'bob,1,500,3,2,100', '']);
  });

  it('ranks the users of a period by quota or by requests, with the totals of everyone', async () => {
    const from = daysAgo(7).at;
    const to = Math.floor(Date.now() / 1000);
    const byQuota = await get(`/api/analytics/top_users?start_timestamp=${from}&end_timestamp=${to}`);
    expect(byQuota.statusCode, byQuota.body).toBe(200);
    const data = byQuota.json().data;
    expect(data).toMatchObject({ active_users: 3, total_quota: 562, total_request_count: 6 });
    expect(data.users.map((row: { username: string; quota: number }) => [row.username, row.quota])).toEqual([
      ['bob', 500],
      ['alice', 60],
      ['dave', 2],
    ]);
    expect(data.users[0]).toEqual({
      ...{ user_id: ids.bob, username: 'bob', display_name: expect.any(String) },
      ...{ request_count: 1, quota: 500, prompt_tokens: 3, completion_tokens: 2, request_time: 100 },
    });

    const byRequests = await get(
      `/api/analytics/top_users?start_timestamp=${from}&end_timestamp=${to}&order=request_count&limit=2`,
    );
    const top = byRequests.json().data.users as Array<{ username: string; request_count: number }>;
    expect(top.map((row) => [row.username, row.request_count])).toEqual([
      ['alice', 3],
      ['dave', 2],
    ]);
  });

  it('reports an empty period as no users', async () => {
    const from = daysAgo(20).at;
    const to = daysAgo(15).at;
    const response = await get(`/api/analytics/top_users?start_timestamp=${from}&end_timestamp=${to}`);
    expect(response.json().data).toEqual({ active_users: 0, total_quota: 0, total_request_count: 0, users: [] });
  });

  it('refuses plain users', async () => {
    for (const url of [
      `/api/analytics/multi_user_stats?usernames=alice&${range}`,
      `/api/analytics/multi_user_stats/export?usernames=alice&${range}`,
      '/api/analytics/top_users?start_timestamp=1&end_timestamp=2',
    ]) {
      expect((await get(url, plain)).statusCode, url).toBe(403);
    }
  });

  it.each([
    ['multi_user_stats', `start_time=2024-01-01&end_time=2024-01-02`, 'usernames'],
    ['multi_user_stats', `usernames=%20,%20&start_time=2024-01-01&end_time=2024-01-02`, 'usernames'],
    ['multi_user_stats', `usernames=alice&end_time=2024-01-02`, 'start_time'],
    ['multi_user_stats', `usernames=alice&start_time=2024-01-01`, 'end_time'],
    ['multi_user_stats', `usernames=alice&start_time=2024-02-30&end_time=2024-03-02`, 'start_time'],
    ['multi_user_stats', `usernames=alice&start_time=1704067200&end_time=2024-03-02`, 'start_time'],
    ['multi_user_stats', `usernames=alice&start_time=2024-03-02&end_time=2024-03-01`, 'end_time'],
    ['multi_user_stats', `usernames=alice&start_time=2022-01-01&end_time=2024-03-01`, 'end_time'],
    ['multi_user_stats/export', `usernames=alice&start_time=2024-01-01`, 'end_time'],
    ['top_users', 'end_timestamp=100', 'start_timestamp'],
    ['top_users', 'start_timestamp=200&end_timestamp=100', 'end_timestamp'],
    ['top_users', 'start_timestamp=1&end_timestamp=2&order=tokens', 'order'],
    ['top_users', 'start_timestamp=1&end_timestamp=2&limit=0', 'limit'],
    ['top_users', 'start_timestamp=1&end_timestamp=2&limit=101', 'limit'],
  ])('answers 400 naming the field for %s?%s', async (path, query, field) => {
    const response = await get(`/api/analytics/${path}?${query}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().success).toBe(false);
    expect(response.json().message).toContain(field);
  });
});
