import { LogType } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysAgo } from '../../../test/api/days.js';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';
import { insertReturningId, type NewLogRow } from '../../platform/db/index.js';
import { LogWriter } from '../log/writer.js';

const today = daysAgo(0).date;
const twoDaysAgo = daysAgo(2).date;

describe.each(availableDialects)('analytics API on %s', (dialect) => {
  let t: TestApp;
  let plain: string;
  let channels: Record<'alpha' | 'beta' | 'gone', number>;
  let aliceId: number;
  let bobId: number;

  async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, cookie?: string) {
    const headers = cookie ? { cookie } : { authorization: ROOT_TOKEN };
    return t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  }

  async function insertChannel(name: string, status: number, deletedAt: number | null): Promise<number> {
    return insertReturningId(
      t.database,
      t.database.db.insertInto('channels').values({
        ...{
          type: providerType('openai'),
          key: 'secret',
          status,
          name,
          weight: 1,
          created_time: 1,
          test_time: 0,
          response_time: 0,
        },
        ...{ base_url: '', other: '', balance: 0, balance_updated_time: 0, models: 'gpt-4o', group: 'default' },
        ...{ tag: '', used_quota: 0, model_mapping: '{}', model_headers: '{}', custom_parameter: '{}', priority: 0 },
        ...{ proxy: '', test_model: '', only_chat: false, pre_cost: 1, compatible_response: false },
        ...{ allow_extra_body: false, disabled_stream: '[]', plugin: '{}', deleted_at: deletedAt },
      }),
    );
  }

  function usage(userId: number, days: number, model: string, channelId: number, quota: number): NewLogRow {
    return {
      ...{ user_id: userId, username: 'u', created_at: daysAgo(days).at, type: LogType.consume, content: '' },
      ...{ quota, source_ip: '', token_name: '', model_name: model, prompt_tokens: 1, completion_tokens: 2 },
      ...{ channel_id: channelId, request_time: 10, is_stream: false, metadata: '{}', token_id: 0, request_id: '' },
    };
  }

  async function setPrice(model: string, channelType: number): Promise<void> {
    await call('DELETE', `/api/prices/single/${model}`);
    const response = await call('POST', '/api/prices/single', {
      ...{ model, type: 'tokens', channel_type: channelType, input: 1, output: 1, locked: false },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    const alice = await t.createUser('alice');
    const bob = await t.createUser('bob');
    plain = alice.cookie;
    aliceId = alice.id;
    bobId = bob.id;
    const db = t.database.db;
    await db.updateTable('users').set({ inviter_id: 1, used_quota: 500 }).where('id', '=', aliceId).execute();
    await db
      .updateTable('users')
      .set({ created_time: daysAgo(2).at })
      .where('id', '=', bobId)
      .execute();
    await db
      .updateTable('users')
      .set({ created_time: daysAgo(10).at })
      .where('username', '=', 'root')
      .execute();
    channels = {
      alpha: await insertChannel('alpha', 1, null),
      beta: await insertChannel('beta', 2, null),
      gone: await insertChannel('gone', 1, 12345),
    };
    await setPrice('gpt-4o-mini', 1);
    await setPrice('gpt-4o', 1);
    await setPrice('claude-3-5-sonnet-latest', 14);

    const writer = new LogWriter(t.database, { flushIntervalMs: 60_000 });
    writer.push(usage(aliceId, 0, 'gpt-4o-mini', channels.alpha, 10));
    writer.push(usage(aliceId, 0, 'gpt-4o-mini', channels.alpha, 10));
    writer.push(usage(aliceId, 0, 'claude-3-5-sonnet-latest', channels.beta, 30));
    writer.push(usage(bobId, 0, 'mystery-model-x', channels.gone, 5));
    writer.push(usage(aliceId, 2, 'gpt-4o', channels.alpha, 7));
    writer.push(usage(aliceId, 10, 'gpt-4o', channels.alpha, 1000));
    await writer.close();

    const gifts = (await call('POST', '/api/redemption/', { name: 'gift', quota: 100, count: 3 })).json().data;
    const small = (await call('POST', '/api/redemption/', { name: 'small', quota: 40, count: 1 })).json().data;
    const smallId = (await call('GET', '/api/redemption/?keyword=small')).json().data.data[0].id;
    await call('PUT', '/api/redemption/?status_only=1', { id: smallId, status: 2 });
    expect(small).toHaveLength(1);
    expect((await call('POST', '/api/user/topup', { key: gifts[0] }, alice.cookie)).statusCode).toBe(200);
    expect((await call('POST', '/api/user/topup', { key: gifts[1] }, bob.cookie)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('summarises users, channels and redemption codes', async () => {
    const response = await call('GET', '/api/analytics/statistics');
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    const users = await t.database.db.selectFrom('users').select(['quota', 'used_quota']).execute();
    expect(data.user_statistics).toEqual({
      total_quota: users.reduce((sum, user) => sum + Number(user.quota), 0),
      total_used_quota: 500,
      total_user: 3,
      total_inviter_user: 1,
    });
    expect(data.channel_statistics).toEqual([
      { total_channels: 1, status: 1 },
      { total_channels: 1, status: 2 },
    ]);
    expect(data.redemption_statistic).toEqual([
      { count: 1, quota: 100, status: 1 },
      { count: 2, quota: 200, status: 3 },
    ]);
    expect(data.order_statistics).toEqual([]);
  });

  function period(groupType: string, extra = '') {
    const range = `start_timestamp=${daysAgo(3).at}&end_timestamp=${Math.floor(Date.now() / 1000)}`;
    return call('GET', `/api/analytics/period?${range}&group_type=${groupType}${extra}`);
  }

  function usageRows(body: string) {
    const rows = JSON.parse(body).data.channel_statistics as Array<Record<string, number | string>>;
    return rows.map((row) => [row.Date, row.Channel, row.RequestCount, row.Quota, row.PromptTokens, row.RequestTime]);
  }

  it('reports usage per day and channel, with channel names, deleted channels included', async () => {
    const response = await period('channel');
    expect(response.statusCode, response.body).toBe(200);
    expect(usageRows(response.body)).toEqual([
      [twoDaysAgo, 'alpha', 1, 7, 1, 10],
      [today, 'alpha', 2, 20, 2, 20],
      [today, 'beta', 1, 30, 1, 10],
      [today, 'gone', 1, 5, 1, 10],
    ]);
    const data = response.json().data;
    expect(Object.keys(data.channel_statistics[0]).sort()).toEqual(
      ['Channel', 'CompletionTokens', 'Date', 'PromptTokens', 'Quota', 'RequestCount', 'RequestTime'].sort(),
    );
    expect(data.order_statistics).toEqual([]);
  });

  it('reports usage per day and model, and per day and model owner', async () => {
    expect(usageRows((await period('model')).body)).toEqual([
      [twoDaysAgo, 'gpt-4o', 1, 7, 1, 10],
      [today, 'claude-3-5-sonnet-latest', 1, 30, 1, 10],
      [today, 'gpt-4o-mini', 2, 20, 2, 20],
      [today, 'mystery-model-x', 1, 5, 1, 10],
    ]);
    expect(usageRows((await period('model_type')).body)).toEqual([
      [twoDaysAgo, 'OpenAI', 1, 7, 1, 10],
      [today, 'Anthropic', 1, 30, 1, 10],
      [today, 'OpenAI', 2, 20, 2, 20],
      [today, 'Unknown', 1, 5, 1, 10],
    ]);
  });

  it('narrows usage to one user when asked', async () => {
    expect(usageRows((await period('channel', `&user_id=${bobId}`)).body)).toEqual([[today, 'gone', 1, 5, 1, 10]]);
  });

  it('counts registrations and redemptions per day', async () => {
    const data = (await period('channel')).json().data;
    expect(data.user_statistics).toEqual([
      { date: twoDaysAgo, user_count: 1, inviter_user_count: 0 },
      { date: today, user_count: 1, inviter_user_count: 1 },
    ]);
    expect(data.redemption_statistics).toEqual([{ date: today, quota: 200, user_count: 2 }]);
  });

  it('refuses plain users and names a bad query field', async () => {
    expect((await call('GET', '/api/analytics/statistics', undefined, plain)).statusCode).toBe(403);
    expect(
      (await call('GET', '/api/analytics/period?start_timestamp=1&end_timestamp=2', undefined, plain)).statusCode,
    ).toBe(403);
    const missing = await call('GET', '/api/analytics/period?end_timestamp=100');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('start_timestamp');
    const reversed = await call('GET', '/api/analytics/period?start_timestamp=200&end_timestamp=100');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toContain('end_timestamp');
  });
});
