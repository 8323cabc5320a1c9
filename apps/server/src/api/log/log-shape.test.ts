import { LogType } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectShape, pagedShape, type Shape } from '../../../test/api/shape/shape.js';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';
import { nowSeconds } from '../../platform/clock.js';
import { LogWriter } from './writer.js';

/**
 * A log row as the reference's log table reads it (§3.1 logs): `metadata` is an object (its detail
 * popover reads ratios and group names from it) and admin lists carry the channel's id and name.
 */
const logShape: Shape = {
  id: 'number',
  user_id: 'number',
  created_at: 'number',
  type: 'number',
  content: 'string',
  username: 'string',
  token_name: 'string',
  model_name: 'string',
  quota: 'number',
  prompt_tokens: 'number',
  completion_tokens: 'number',
  channel_id: 'number',
  request_time: 'number',
  is_stream: 'boolean',
  source_ip: 'string',
  metadata: 'object',
};

describe.each(availableDialects)('log routes have the reference console’s shape on %s', (dialect) => {
  let t: TestApp;
  let alice: { id: number; cookie: string };

  async function data(url: string, cookie?: string): Promise<unknown> {
    const headers = cookie ? { cookie } : { authorization: ROOT_TOKEN };
    const response = await t.app.inject({ method: 'GET', url, headers });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.success).toBe(true);
    return body.data;
  }

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    alice = await t.createUser('alice');
    const channel = await t.app.inject({
      method: 'POST',
      url: '/api/channel/',
      headers: { authorization: ROOT_TOKEN },
      payload: { name: 'alpha', type: providerType('openai'), key: 'sk-alpha', models: 'gpt-4o', group: 'default' },
    });
    const channelId = (channel.json().data as Array<{ id: number }>)[0]?.id ?? 0;
    const writer = new LogWriter(t.database, { flushIntervalMs: 60_000 });
    writer.push({
      ...{ user_id: alice.id, username: 'alice', created_at: nowSeconds() - 30, type: LogType.consume, content: '' },
      ...{ token_name: 'key', token_id: 0, model_name: 'gpt-4o', quota: 3_000_000_000, prompt_tokens: 12 },
      ...{ completion_tokens: 34, channel_id: channelId, request_time: 250, is_stream: true, source_ip: '192.0.2.1' },
      ...{ request_id: 'r-1', metadata: JSON.stringify({ group_name: 'default', group_ratio: 1, input_ratio: 2.5 }) },
    });
    await writer.close();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /api/log/ pages every log; a consume row names its channel by id and name', async () => {
    // Rows without a channel (sign-up gifts, manage logs) carry null, as in the reference.
    const page = (await data('/api/log/')) as { data: Array<Record<string, unknown>> };
    expectShape(page, pagedShape({ ...logShape, channel: 'object|null' }));
    const consumed = page.data.find((row) => row.type === LogType.consume);
    expectShape(consumed, { ...logShape, channel: { id: 'number', name: 'string' } });
    expect(consumed).toMatchObject({ quota: 3_000_000_000, metadata: { group_name: 'default' } });
  });

  it('GET /api/log/self pages the caller’s logs in the same shape', async () => {
    expectShape(await data('/api/log/self/', alice.cookie), pagedShape({ ...logShape, channel: 'object|null' }));
  });

  it('GET /api/log/stat and /api/log/self/stat sum the quota', async () => {
    expectShape(await data('/api/log/stat'), { quota: 'number' });
    expectShape(await data('/api/log/self/stat', alice.cookie), { quota: 'number' });
  });
});
