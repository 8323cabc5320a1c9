import { LogType } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectShape, type Shape } from '../../../test/api/shape/shape.js';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';
import { nowSeconds } from '../../platform/clock.js';
import { LogWriter } from '../log/writer.js';

/** Daily usage rows keep the reference's Go field names (§1.4 dashboard, §1.16 period). */
const usageShape: Shape = {
  Date: 'string',
  RequestCount: 'number',
  Quota: 'number',
  PromptTokens: 'number',
  CompletionTokens: 'number',
  RequestTime: 'number',
};

/** The analytics page's summary cards (§1.16); there are no payments yet, so no order rows to check. */
const summaryShape: Shape = {
  user_statistics: {
    total_quota: 'number',
    total_used_quota: 'number',
    total_user: 'number',
    total_inviter_user: 'number',
  },
  channel_statistics: [{ total_channels: 'number', status: 'number' }],
  redemption_statistic: [{ count: 'number', quota: 'number', status: 'number' }],
  order_statistics: 'array',
};

const periodShape: Shape = {
  user_statistics: [{ date: 'string', user_count: 'number', inviter_user_count: 'number' }],
  channel_statistics: [{ ...usageShape, Channel: 'string' }],
  redemption_statistics: [{ date: 'string', quota: 'number', user_count: 'number' }],
  order_statistics: 'array',
};

function isoDate(seconds: number): string {
  const day = new Date(seconds * 1000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

describe.each(availableDialects)('dashboard and analytics have the reference console’s shape on %s', (dialect) => {
  let t: TestApp;
  let alice: { id: number; cookie: string };
  const now = nowSeconds();

  async function body(url: string, cookie?: string, payload?: object): Promise<Record<string, unknown>> {
    const headers = cookie ? { cookie } : { authorization: ROOT_TOKEN };
    const method = payload ? 'POST' : 'GET';
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect(response.statusCode, response.body).toBe(200);
    const parsed = response.json();
    expect(parsed.success).toBe(true);
    return parsed;
  }

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    alice = await t.createUser('alice');
    await body('/api/channel/', undefined, {
      name: 'alpha',
      type: providerType('openai'),
      key: 'sk-a',
      models: 'gpt-4o',
      group: 'default',
    });
    const keys = (await body('/api/redemption/', undefined, { name: 'gift', quota: 1000, count: 2 })).data as string[];
    await body('/api/user/topup', alice.cookie, { key: keys[0] });
    const writer = new LogWriter(t.database, { flushIntervalMs: 60_000 });
    writer.push({
      ...{ user_id: alice.id, username: 'alice', created_at: now - 60, type: LogType.consume, content: '' },
      ...{ token_name: 'key', token_id: 0, model_name: 'gpt-4o', quota: 500, prompt_tokens: 10, completion_tokens: 20 },
      ...{ channel_id: 1, request_time: 300, is_stream: false, source_ip: '', request_id: '', metadata: '{}' },
    });
    await writer.close();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /api/user/dashboard gives per-day, per-model rows; /rate the RPM card', async () => {
    expectShape(await body('/api/user/dashboard', alice.cookie), { data: [{ ...usageShape, ModelName: 'string' }] });
    expectShape((await body('/api/user/dashboard/rate', alice.cookie)).data, {
      ...{ rpm: 'number', maxRPM: 'number', usageRpmRate: 'number' },
      ...{ tpm: 'number', maxTPM: 'number', usageTpmRate: 'number' },
    });
  });

  it('GET /api/analytics/statistics gives the summary cards', async () => {
    expectShape((await body('/api/analytics/statistics')).data, summaryShape);
  });

  it('GET /api/analytics/period gives the charts, grouped by channel, model or maker', async () => {
    for (const groupType of ['channel', 'model', 'model_type']) {
      const range = `start_timestamp=${now - 86_400}&end_timestamp=${now + 60}&group_type=${groupType}`;
      expectShape((await body(`/api/analytics/period?${range}`)).data, periodShape);
    }
  });

  it('GET /api/analytics/multi_user_stats puts model_usage beside data', async () => {
    const range = `start_time=${isoDate(now - 86_400)}&end_time=${isoDate(now + 86_400)}`;
    expectShape(await body(`/api/analytics/multi_user_stats?usernames=alice&${range}`), {
      success: 'boolean',
      message: 'string',
      data: [
        {
          ...{ username: 'string', request_count: 'number', quota: 'number' },
          ...{ prompt_tokens: 'number', completion_tokens: 'number', request_time: 'number' },
        },
      ],
      model_usage: [{ username: 'string', model_name: 'string', request_count: 'number' }],
    });
  });
});
