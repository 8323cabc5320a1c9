import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  lastConsumeLog,
  type RelayTestContext,
  startRelayTest,
  startRelayWithChannel,
  storedQuota,
} from '../../../test/relay-setup.js';

// The channel maps gpt-4.1 to a dated name, which is then the billed model (no `+`).
const MAPPED = 'gpt-4.1-2025-04-14';
// 12 prompt tokens of which 4 cached at half price, 7 completion tokens at 4: (12 - 2) × 1 + 7 × 4.
const RESPONSE_COST = 38;
// 'Hello from the mock upstream.' is 6 tokens with o200k.
const REPLY_TOKENS = 6;

describe('the Responses API through the official openai SDK', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayWithChannel(
      { name: 'responses', models: 'gpt-4.1', model_mapping: `{"gpt-4.1": "${MAPPED}"}` },
      { [MAPPED]: [1, 4, { extra_ratios: { cached_tokens: 0.5 } }] },
    );
  });
  afterAll(() => r?.close());
  beforeEach(() => {
    r.upstream.behaviour = {
      ...r.upstream.behaviour,
      usage: {
        prompt_tokens: 12,
        completion_tokens: 7,
        prompt_tokens_details: { cached_tokens: 4 },
        completion_tokens_details: { reasoning_tokens: 3 },
      },
      omitStreamUsage: false,
      omitUsage: false,
    };
  });

  it('passes a response through with the mapped model and bills its usage', async () => {
    const before = await storedQuota(r);
    const response = await r.client.responses.create({
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Say hello' }] }],
    });
    expect(response.output_text).toBe('Hello from the mock upstream.');
    expect(response.usage?.input_tokens_details.cached_tokens).toBe(4);
    const received = r.upstream.received.at(-1);
    expect(received?.path).toBe('/v1/responses');
    expect(received?.authorization).toBe(`Bearer ${r.upstream.behaviour.apiKey}`);
    expect(received?.body).toMatchObject({ model: MAPPED, instructions: 'Be brief.' });
    expect(await storedQuota(r)).toBe(before - RESPONSE_COST);
    const log = await lastConsumeLog(r);
    expect(log).toMatchObject({ model_name: MAPPED, prompt_tokens: 12, completion_tokens: 7 });
    expect(Number(log.quota)).toBe(RESPONSE_COST);
    expect(JSON.parse(log.metadata)).toMatchObject({
      cached_tokens: 4,
      cached_tokens_ratio: 0.5,
      reasoning_tokens: 3,
    });
  });

  it('streams the events as sent and bills the usage of response.completed', async () => {
    const before = await storedQuota(r);
    const stream = await r.client.responses.create({ model: 'gpt-4.1', input: 'Stream please', stream: true });
    let text = '';
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') expect(event.response.usage?.output_tokens).toBe(7);
    }
    expect(text).toBe('Hello from the mock upstream.');
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    const received = r.upstream.received.at(-1);
    expect(received?.body).toMatchObject({ model: MAPPED, stream: true });
    expect(received?.body).not.toHaveProperty('stream_options');
    expect(await storedQuota(r)).toBe(before - RESPONSE_COST);
    const log = await lastConsumeLog(r);
    expect(log).toMatchObject({ prompt_tokens: 12, completion_tokens: 7 });
    expect(Boolean(log.is_stream)).toBe(true);
  });

  it('counts the streamed text itself when the final event carries no usage', async () => {
    r.upstream.behaviour.omitStreamUsage = true;
    const before = await storedQuota(r);
    const stream = await r.client.responses.create({ model: 'gpt-4.1', input: 'Count me', stream: true });
    for await (const _event of stream) {
      // drain
    }
    const log = await lastConsumeLog(r);
    expect(log.completion_tokens).toBe(REPLY_TOKENS);
    expect(log.prompt_tokens).toBeGreaterThan(2);
    expect(before - (await storedQuota(r))).toBe(log.prompt_tokens * 1 + REPLY_TOKENS * 4);
  });

  it('rejects a missing model and a malformed input with a 400 costing nothing', async () => {
    const before = await storedQuota(r);
    const calls = r.upstream.received.length;
    const post = (body: unknown) =>
      fetch(`${r.baseURL}/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const noModel = await post({ input: 'hi' });
    expect(noModel.status).toBe(400);
    expect(((await noModel.json()) as { error: { param: string } }).error.param).toBe('model');
    expect((await post({ model: 'gpt-4.1', input: 42 })).status).toBe(400);
    expect((await post({ model: 'gpt-4.1', input: 'hi', stream: 'yes' })).status).toBe(400);
    expect(r.upstream.received.length).toBe(calls);
    expect(await storedQuota(r)).toBe(before);
  });
});

describe('rerank', () => {
  let r: RelayTestContext;
  const rerank = (body: unknown, key = r.apiKey) =>
    fetch(`${r.baseURL}/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const request = { model: 'jina-reranker-v2', query: 'cat', documents: ['a cat', { text: 'a dog' }], top_n: 1 };

  beforeAll(async () => {
    r = await startRelayTest();
    await r.addChannel({
      name: 'rerank',
      models: 'jina-reranker-v2',
      model_mapping: '{"jina-reranker-v2": "+jina-reranker-v2-base-multilingual"}',
    });
    await r.setPrice('jina-reranker-v2', 2, 0);
  });
  afterAll(() => r?.close());

  it('passes the body through and bills usage.prompt_tokens', async () => {
    const before = await storedQuota(r);
    const response = await rerank(request);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { results: unknown[] }).results).toEqual([{ index: 0, relevance_score: 1 }]);
    const received = r.upstream.received.at(-1);
    expect(received?.authorization).toBe(`Bearer ${r.upstream.behaviour.apiKey}`);
    expect(received?.body).toEqual({ ...request, model: 'jina-reranker-v2-base-multilingual' });
    expect(await storedQuota(r)).toBe(before - 12 * 2);
    const log = await lastConsumeLog(r);
    expect(log).toMatchObject({ model_name: 'jina-reranker-v2', prompt_tokens: 12, completion_tokens: 0 });
    expect(Number(log.quota)).toBe(24);
  });

  it('falls back to total_tokens, then to counting the query and documents', async () => {
    r.upstream.behaviour.rerankUsage = 'total_tokens';
    const before = await storedQuota(r);
    expect((await rerank(request)).status).toBe(200);
    expect(await storedQuota(r)).toBe(before - 24);
    r.upstream.behaviour.rerankUsage = 'none';
    expect((await rerank(request)).status).toBe(200);
    // cat (1) + a cat (2) + a dog (2) tokens at 2 each.
    expect(await storedQuota(r)).toBe(before - 24 - 10);
    expect((await lastConsumeLog(r)).prompt_tokens).toBe(5);
    r.upstream.behaviour.rerankUsage = 'prompt_tokens';
  });

  it('answers errors in OpenAI’s envelope (with the reference’s "detail" too) and charges nothing', async () => {
    const before = await storedQuota(r);
    const calls = r.upstream.received.length;
    for (const body of [
      { model: 'jina-reranker-v2', documents: ['a'] },
      { model: 'jina-reranker-v2', query: 'q', documents: [] },
      { model: 'jina-reranker-v2', query: 'q', documents: ['a'], top_n: 0 },
      { query: 'q', documents: ['a'] },
    ]) {
      const response = await rerank(body);
      expect(response.status).toBe(400);
      const error = (await response.json()) as { detail: string; error: { message: string; type: string } };
      expect(error.detail).toMatch(/^(query|documents|top_n|model): .*\(request id: .+\)$/);
      expect(error.error).toMatchObject({ message: error.detail, type: 'invalid_request_error' });
    }
    const unauthorised = await rerank(request, `sk-${'x'.repeat(48)}`);
    expect(unauthorised.status).toBe(401);
    expect(await unauthorised.json()).toMatchObject({
      detail: expect.any(String),
      error: { type: 'authentication_error' },
    });
    r.upstream.behaviour.failWith = { status: 500, message: 'reranker down' };
    const failed = await rerank(request);
    r.upstream.behaviour.failWith = undefined;
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as { detail: string }).detail).toContain('reranker down');
    expect(r.upstream.received.length).toBe(calls + 1);
    expect(await storedQuota(r)).toBe(before);
  });

  it('leaves the other /v1 routes with OpenAI’s envelope', async () => {
    const wrongKey = new OpenAI({ apiKey: `sk-${'x'.repeat(48)}`, baseURL: r.baseURL, maxRetries: 0 });
    await expect(wrongKey.models.list()).rejects.toMatchObject({ status: 401, type: 'authentication_error' });
  });
});
