import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayTest, storedQuota } from '../../test/relay-setup.js';
import { countChatPromptTokens } from './billing/metering.js';

// gpt-4o-mini is priced 1 / 2 in these tests and the mock reports 12 prompt + 7 completion tokens.
const COST = 12 * 1 + 7 * 2;

describe('relay through the official openai SDK', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayTest();
  });
  afterAll(() => r?.close());
  beforeEach(() => {
    r.upstream.behaviour = {
      ...r.upstream.behaviour,
      failWith: undefined,
      omitStreamUsage: false,
      chunks: 3,
      chunkDelayMs: 0,
    };
  });

  it('completes a chat and bills exactly what the price says, with a consume log', async () => {
    const before = await storedQuota(r);
    const keyUsedBefore = Number(
      (
        await r.t.database.db
          .selectFrom('tokens')
          .select('used_quota')
          .where('name', '=', 'test key')
          .executeTakeFirstOrThrow()
      ).used_quota,
    );
    const { data: completion, response } = await r.client.chat.completions
      .create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Say hello' }],
      })
      .withResponse();
    expect(completion.choices[0]?.message.content).toBe('Hello from the mock upstream.');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await storedQuota(r)).toBe(before - COST);
    const log = await r.t.database.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', 2)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({
      user_id: r.userId,
      model_name: 'gpt-4o-mini',
      prompt_tokens: 12,
      completion_tokens: 7,
      token_name: 'test key',
    });
    expect(Number(log.quota)).toBe(COST);
    // The key's own record: an unlimited key has no balance to lower, but its use is counted.
    const key = await r.t.database.db
      .selectFrom('tokens')
      .select(['used_quota', 'remain_quota', 'accessed_time'])
      .where('name', '=', 'test key')
      .executeTakeFirstOrThrow();
    expect(Number(key.used_quota) - keyUsedBefore).toBe(COST);
    expect(Number(key.remain_quota)).toBe(0);
    expect(Number(key.accessed_time)).toBeGreaterThan(0);
    expect(log.request_id).not.toBe('');
    // Both request-id headers name the request its log row records.
    expect(response.headers.get('x-request-id')).toBe(log.request_id);
    expect(response.headers.get('x-oneapi-request-id')).toBe(log.request_id);
    expect(JSON.parse(log.metadata)).toMatchObject({ group_name: 'default', group_ratio: 1 });
    // The upstream got the channel's key, not the user's.
    expect(r.upstream.received.at(-1)?.authorization).toBe(`Bearer ${r.upstream.behaviour.apiKey}`);
  });

  it('streams chunks, passes the usage chunk only when asked, and always bills', async () => {
    const before = await storedQuota(r);
    const withUsage = await r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Stream please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of withUsage) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello from the mock upstream.');
    expect(usage?.completion_tokens).toBe(7);

    const withoutUsage = await r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Stream please' }],
      stream: true,
    });
    let sawUsage = false;
    for await (const chunk of withoutUsage) if (chunk.usage) sawUsage = true;
    expect(sawUsage).toBe(false);
    expect(r.upstream.received.at(-1)?.body.stream_options).toEqual({ include_usage: true });
    expect(await storedQuota(r)).toBe(before - 2 * COST);
  });

  it('counts tokens itself when a streaming upstream reports no usage', async () => {
    r.upstream.behaviour.omitStreamUsage = true;
    const before = await storedQuota(r);
    const stream = await r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Count me' }],
      stream: true,
    });
    for await (const _chunk of stream) {
      // drain
    }
    const charged = before - (await storedQuota(r));
    const log = await r.t.database.db.selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.completion_tokens).toBeGreaterThan(3);
    expect(log.prompt_tokens).toBeGreaterThan(3);
    expect(charged).toBe(log.prompt_tokens * 1 + log.completion_tokens * 2);
  });

  it('passes tools and image parts through to the upstream unchanged', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const before = await storedQuota(r);
    await r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      tools,
      tool_choice: 'auto',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    const sent = r.upstream.received.at(-1)?.body as { tools: unknown; messages: Array<{ content: unknown[] }> };
    expect(sent.tools).toEqual(tools);
    expect(sent.messages[0]?.content[1]).toEqual({
      type: 'image_url',
      image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' },
    });
    expect(await storedQuota(r)).toBe(before - COST);
  });

  it('enforces a key’s allowed addresses and allowed models', async () => {
    const cookie = await r.t.login('relayuser', 'password-123');
    const limited = (setting: object) => r.newKey(cookie, { name: 'limited', setting });
    const ask = (apiKey: string, model = 'gpt-4o-mini') =>
      new OpenAI({ apiKey, baseURL: r.baseURL, maxRetries: 0 }).chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'hi' }],
      });
    const elsewhere = await limited({ limits: { limits_ip_setting: { enabled: true, whitelist: ['10.0.0.0/8'] } } });
    await expect(ask(elsewhere)).rejects.toMatchObject({ status: 403 });
    const here = await limited({ limits: { limits_ip_setting: { enabled: true, whitelist: ['127.0.0.1'] } } });
    expect((await ask(here)).choices[0]?.message.content).toBeTruthy();
    const oneModel = await limited({
      limits: { limit_model_setting: { enabled: true, models: ['text-embedding-3-small'] } },
    });
    await expect(ask(oneModel)).rejects.toMatchObject({ status: 403 });
  });

  it('serves embeddings, moderations, legacy completions and the model list', async () => {
    const embedding = await r.client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] });
    expect(embedding.data).toHaveLength(2);
    // Embeddings report no completion tokens at all; the log still gets its row, with zero.
    const embeddingLog = await lastConsumeLog(r);
    expect(embeddingLog).toMatchObject({ model_name: 'text-embedding-3-small', completion_tokens: 0 });
    expect(embeddingLog.prompt_tokens).toBeGreaterThan(0);
    const moderation = await r.client.moderations.create({ model: 'omni-moderation-latest', input: 'hello' });
    expect(moderation.results[0]?.flagged).toBe(false);
    const completion = await r.client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Hi' });
    expect(completion.choices[0]?.text).toBe('Hello from the mock upstream.');
    const models = await r.client.models.list();
    expect(models.data.map((model) => model.id)).toContain('gpt-4o-mini');
    expect((await r.client.models.retrieve('gpt-4o-mini')).id).toBe('gpt-4o-mini');
    await expect(r.client.models.retrieve('no-such-model')).rejects.toMatchObject({ status: 404 });
  });

  it('rejects a bad key with 401 and bad input with 400 in OpenAI’s error format, costing nothing', async () => {
    const before = await storedQuota(r);
    const calls = r.upstream.received.length;
    const wrongKey = new OpenAI({ apiKey: `sk-${'x'.repeat(48)}`, baseURL: r.baseURL, maxRetries: 0 });
    await expect(wrongKey.chat.completions.create({ model: 'gpt-4o-mini', messages: [] })).rejects.toMatchObject({
      status: 401,
    });
    const malformed = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body: '{"model": "gpt-4o-mini", ',
    });
    expect(malformed.status).toBe(400);
    const body = (await malformed.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('request id:');
    await expect(
      r.client.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      r.client.chat.completions.create({ model: 'unknown-model', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    const huge = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'x'.repeat(11 * 1024 * 1024) }],
      }),
    });
    expect(huge.status).toBe(413);
    expect(r.upstream.received.length).toBe(calls);
    expect(await storedQuota(r)).toBe(before);
  });

  it('stops a user’s keys the moment an administrator disables the user, and lets them back on enable', async () => {
    const { cookie } = await r.t.createUser('offsoon');
    const user = await r.t.services.userRepository.findByUsername('offsoon');
    await r.admin('POST', `/api/user/quota/${user?.id}`, { quota: 100_000 });
    const client = new OpenAI({ apiKey: await r.newKey(cookie), baseURL: r.baseURL, maxRetries: 0 });
    const ask = () =>
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
    // The first call caches the user with the key.
    expect((await ask()).choices[0]?.message.content).toBeTruthy();
    expect((await r.admin('POST', '/api/user/manage', { username: 'offsoon', action: 'disable' })).status).toBe(200);
    await expect(ask()).rejects.toMatchObject({ status: 401 });
    expect((await r.admin('POST', '/api/user/manage', { username: 'offsoon', action: 'enable' })).status).toBe(200);
    expect((await ask()).choices[0]?.message.content).toBeTruthy();
  });
});

describe('quota that is short or contended', () => {
  let r: RelayTestContext;
  // A reservation holds the counted prompt and the answer length learned from earlier answers, so
  // here the upstream counts the prompt as a tokenizer does (the mock's usual 12 is more than "hi"
  // can be): then each reservation covers its request, and no request is served on credit.
  const PROMPT = countChatPromptTokens({ messages: [{ role: 'user', content: 'hi' }] });
  const COST = PROMPT * 1 + 7 * 2;

  /**
   * 200 chats at once, each paid from a balance that covers at most 50: answers how many were
   * served, after checking every other one was refused for quota and never reached the upstream.
   */
  async function parallelChats(client: OpenAI): Promise<number> {
    const calls = r.upstream.received.length;
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () =>
        client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      ),
    );
    const succeeded = results.filter((result) => result.status === 'fulfilled').length;
    const refused = results.filter(
      (result) => result.status === 'rejected' && (result.reason as { code?: string }).code === 'insufficient_quota',
    ).length;
    expect(succeeded + refused).toBe(200);
    expect(succeeded).toBeGreaterThan(0);
    expect(succeeded).toBeLessThanOrEqual(50);
    expect(r.upstream.received.length - calls).toBe(succeeded);
    return succeeded;
  }
  beforeAll(async () => {
    // Quota for exactly 50 requests at full price, held back by reservations that cover each one.
    r = await startRelayTest({ quota: 0 });
    r.upstream.behaviour.usage = { prompt_tokens: PROMPT, completion_tokens: 7 };
  });
  afterAll(() => r?.close());

  it('refuses a user without quota with insufficient_quota and no upstream call', async () => {
    const calls = r.upstream.received.length;
    const failure = await r.client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).code).toBe('insufficient_quota');
    expect(r.upstream.received.length).toBe(calls);
  });

  it('serves a free model to a user with no quota, and logs it at no cost', async () => {
    const calls = r.upstream.received.length;
    const moderation = await r.client.moderations.create({ model: 'omni-moderation-latest', input: 'hello' });
    expect(moderation.results).toHaveLength(1);
    expect(r.upstream.received.length).toBe(calls + 1);
    expect(await storedQuota(r)).toBe(0);
    const log = await lastConsumeLog(r);
    expect(log).toMatchObject({ model_name: 'omni-moderation-latest', user_id: r.userId });
    expect(Number(log.quota)).toBe(0);
  });

  it('never spends more than the balance with 200 parallel requests', async () => {
    const quota = 50 * COST;
    await r.admin('POST', `/api/user/quota/${r.userId}`, { quota });
    // This test is about quota, not the per-user request rate (600 RPM allows a burst of only 100).
    const groups = await r.admin('GET', '/api/user_group/');
    const group = (groups.body.data as { data: Array<{ symbol: string }> }).data.find(
      (entry) => entry.symbol === 'default',
    );
    await r.admin('PUT', '/api/user_group/', { ...group, api_rate: 0 });
    const succeeded = await parallelChats(r.client);
    const left = await storedQuota(r);
    expect(left).toBe(quota - succeeded * COST);
    expect(left).toBeGreaterThanOrEqual(0);
  });

  it('never spends more than a limited key holds with 200 parallel requests', async () => {
    await r.admin('POST', `/api/user/quota/${r.userId}`, { quota: 1_000_000 });
    const keyQuota = 50 * COST;
    const cookie = await r.t.login('relayuser', 'password-123');
    const apiKey = await r.newKey(cookie, { name: 'limited key', unlimited_quota: false, remain_quota: keyQuota });
    const client = new OpenAI({ apiKey, baseURL: r.baseURL, maxRetries: 0 });
    const userBefore = await storedQuota(r);
    const succeeded = await parallelChats(client);
    expect(await storedQuota(r)).toBe(userBefore - succeeded * COST);
    const key = await r.t.database.db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota'])
      .where('name', '=', 'limited key')
      .executeTakeFirstOrThrow();
    expect(Number(key.remain_quota)).toBe(keyQuota - succeeded * COST);
    expect(Number(key.used_quota)).toBe(succeeded * COST);
  });
});
