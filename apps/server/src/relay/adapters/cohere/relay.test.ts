import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { fetch } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayTest, storedQuota } from '../../../../test/relay-setup.js';
import { countRerankTokens } from '../../metering.js';
import { chatAdapterFor, registerChatAdapter } from '../registry.js';
import { cohereAdapter } from './adapter.js';
import { type CohereMock, startCohereMock, vector } from './mock-upstream.js';
import { fixtureJson } from './test-support.js';

/**
 * Cohere end to end: a real relay, a type-36 channel pointing at a local Cohere that checks the
 * bearer key, the path and the v2 body, driven by the official OpenAI SDK (chat whole and
 * streamed, tools, embeddings as floats and as the SDK's default base64, rerank by fetch) and
 * the Anthropic SDK on `/v1/messages`, with usage and the consume log checked.
 */

const CHAT = 'command-a-03-2025';
const EMBED = 'embed-v4.0';
const RERANK = 'rerank-v3.5';
const WRONG_KEY_MODEL = 'command-r7b-12-2024';

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('Cohere channels through the relay', () => {
  let r: RelayTestContext;
  let mock: CohereMock;
  let channelId: number;
  let claude: Anthropic;

  beforeAll(async () => {
    if (chatAdapterFor(36) !== cohereAdapter) registerChatAdapter(36, cohereAdapter);
    r = await startRelayTest();
    mock = await startCohereMock();
    channelId = await r.addChannel({
      name: 'cohere',
      type: 36,
      key: mock.behaviour.apiKey,
      base_url: mock.url,
      models: `${CHAT},${EMBED},${RERANK}`,
    });
    await r.addChannel({
      name: 'cohere-wrong-key',
      type: 36,
      key: 'co-not-the-key',
      base_url: mock.url,
      models: WRONG_KEY_MODEL,
    });
    await r.setPrice(CHAT, 1.25, 5);
    await r.setPrice(WRONG_KEY_MODEL, 0.1, 0.4);
    await r.setPrice(EMBED, 2, 0);
    await r.setPrice(RERANK, 1, 0);
    await r.t.services.options.update('RetryCooldownSeconds', '0');
    claude = new Anthropic({ apiKey: r.apiKey, baseURL: r.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
  });
  afterAll(async () => {
    await r?.close();
    await mock?.close();
  });
  afterEach(() => mock.reset());

  /**
   * The consume log of this test's call. The relay answers before it settles, so the row may
   * come a moment after the answer: wait (a few tries) for a row newer than the test's start.
   */
  let logsBefore = 0;
  beforeEach(async () => {
    await r.t.app.relay.flush();
    const row = await r.t.database.db.selectFrom('logs').select('id').orderBy('id', 'desc').executeTakeFirst();
    logsBefore = Number(row?.id ?? 0);
  });
  const logOf = async (model: string) => {
    let row = await lastConsumeLog(r);
    for (let tries = 0; (Number(row.id) <= logsBefore || row.model_name !== model) && tries < 40; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      row = await lastConsumeLog(r);
    }
    return row;
  };

  const sent = () => {
    const request = mock.received.at(-1);
    if (!request) throw new Error('the mock received nothing');
    return request;
  };

  describe('chat from the OpenAI SDK', () => {
    it('answers a chat, sending the v2 body with the bearer key, and bills token usage', async () => {
      const completion = await r.client.chat.completions.create({
        model: CHAT,
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hello?' },
        ],
        max_tokens: 100,
        stop: ['END'],
        temperature: 0.3,
      });
      expect(completion.choices[0]?.message.content).toBe(mock.behaviour.reply);
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expect(completion.usage).toMatchObject({ prompt_tokens: 71, completion_tokens: 13, total_tokens: 84 });
      const request = sent();
      expect(request.path).toBe('/v2/chat');
      expect(request.headers.authorization).toBe(`Bearer ${mock.behaviour.apiKey}`);
      expect(request.body).toEqual({
        model: CHAT,
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hello?' },
        ],
        max_tokens: 100,
        stop_sequences: ['END'],
        temperature: 0.3,
        stream: false,
      });
      expect(await logOf(CHAT)).toMatchObject({
        model_name: CHAT,
        channel_id: channelId,
        prompt_tokens: 71,
        completion_tokens: 13,
      });
    });

    it('streams a chat in pieces with the usage chunk', async () => {
      mock.behaviour.usage.cached = 32;
      const stream = await r.client.chat.completions.create({
        model: CHAT,
        messages: [{ role: 'user', content: 'Stream, please.' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let pieces = 0;
      let finish: string | null | undefined;
      let usage: OpenAI.CompletionUsage | undefined | null;
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta.content;
        if (delta) {
          text += delta;
          pieces += 1;
        }
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe(mock.behaviour.reply);
      expect(pieces).toBe(mock.behaviour.chunks);
      expect(finish).toBe('stop');
      expect(usage).toMatchObject({
        prompt_tokens: 71,
        completion_tokens: 13,
        prompt_tokens_details: { cached_tokens: 32 },
      });
      expect(sent().body.stream).toBe(true);
      expect(await logOf(CHAT)).toMatchObject({
        model_name: CHAT,
        prompt_tokens: 71,
        completion_tokens: 13,
      });
    });

    it('calls tools, then carries the tool loop back to Cohere', async () => {
      const first = await r.client.chat.completions.create({
        model: CHAT,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weather],
        tool_choice: 'required',
      });
      const message = first.choices[0]?.message;
      const call = message?.tool_calls?.[0];
      expect(first.choices[0]?.finish_reason).toBe('tool_calls');
      expect(message?.content).toBe('I will look up the weather.');
      expect(call?.type === 'function' && call.function.name).toBe('get_weather');
      expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
      expect(sent().body).toMatchObject({ tools: [weather], tool_choice: 'REQUIRED' });

      const second = await r.client.chat.completions.create({
        model: CHAT,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          message as OpenAI.ChatCompletionAssistantMessageParam,
          { role: 'tool', tool_call_id: String(call?.id), content: '{"temperature": "18C"}' },
        ],
        tools: [weather],
      });
      expect(second.choices[0]?.message.content).toBe(mock.behaviour.reply);
      expect((sent().body.messages as unknown[]).slice(1)).toEqual([
        {
          role: 'assistant',
          tool_plan: 'I will look up the weather.',
          tool_calls: [
            {
              id: 'get_weather_mock1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city": "Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'get_weather_mock1', content: '{"temperature": "18C"}' },
      ]);
    });

    it('streams tool-call arguments split across events', async () => {
      const stream = await r.client.chat.completions.create({
        model: CHAT,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weather],
        stream: true,
        stream_options: { include_usage: true },
      });
      let args = '';
      let fragments = 0;
      let name: string | undefined;
      let finish: string | null | undefined;
      let usage: OpenAI.CompletionUsage | undefined | null;
      for await (const chunk of stream) {
        for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
          name ??= call.function?.name;
          if (call.function?.arguments) {
            args += call.function.arguments;
            fragments += 1;
          }
        }
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(name).toBe('get_weather');
      expect(fragments).toBe(3);
      expect(JSON.parse(args)).toEqual({ city: 'Paris' });
      expect(finish).toBe('tool_calls');
      expect(usage).toMatchObject({ prompt_tokens: 71, completion_tokens: 13 });
    });
  });

  describe('embeddings from the OpenAI SDK', () => {
    it('answers floats when asked for floats, billed on Cohere input tokens', async () => {
      const before = await storedQuota(r);
      const answer = await r.client.embeddings.create({
        model: EMBED,
        input: ['hello world', 'good bye now'],
        encoding_format: 'float',
      });
      expect(answer.data.map((item) => item.embedding)).toEqual([vector(0), vector(1)]);
      expect(answer.data.map((item) => item.index)).toEqual([0, 1]);
      expect(answer.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 });
      expect(sent()).toMatchObject({
        path: '/v2/embed',
        headers: { authorization: `Bearer ${mock.behaviour.apiKey}` },
        body: {
          model: EMBED,
          texts: ['hello world', 'good bye now'],
          input_type: 'search_document',
          embedding_types: ['float'],
        },
      });
      // Five billed input tokens at an input ratio of 2. (The charge, not the consume log: the
      // relay's log row takes `completion_tokens` from the usage as it is, and an embeddings usage
      // has none, so that row is not written; see the report.)
      await expect.poll(async () => before - (await storedQuota(r))).toBe(10);
    });

    it("answers the SDK's default base64, which the SDK decodes back to float32 values", async () => {
      const answer = await r.client.embeddings.create({
        model: EMBED,
        input: 'one two three',
        input_type: 'search_query',
      } as OpenAI.EmbeddingCreateParams);
      expect(answer.data[0]?.embedding).toEqual(vector(0).map(Math.fround));
      expect(answer.data[0]?.embedding[3]).not.toBe(0.1);
      expect(answer.usage.prompt_tokens).toBe(3);
      expect(sent().body).toMatchObject({ texts: ['one two three'], input_type: 'search_query' });
    });
  });

  describe('rerank', () => {
    it('reranks through /v2/rerank, documents as strings, answering the shape /v1/rerank bills on', async () => {
      const body = {
        model: RERANK,
        query: 'capital of the United States',
        documents: [
          'Carson City is the capital city of the American state of Nevada.',
          { text: 'Washington, D.C. is the capital of the United States.' },
          'Capital punishment has existed in the United States since before it was a country.',
        ],
        top_n: 2,
        return_documents: true,
      };
      const response = await fetch(`${r.baseURL}/rerank`, {
        method: 'POST',
        headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      const answer = (await response.json()) as Record<string, unknown>;
      const tokens = countRerankTokens(body);
      expect(answer).toMatchObject({
        model: RERANK,
        results: [
          { index: 1, document: { text: 'Washington, D.C. is the capital of the United States.' } },
          {
            index: 2,
            document: { text: 'Capital punishment has existed in the United States since before it was a country.' },
          },
        ],
        usage: { prompt_tokens: tokens, total_tokens: tokens },
        meta: { billed_units: { search_units: 1 } },
      });
      expect((answer.results as Array<{ relevance_score: number }>)[0]?.relevance_score).toBe(1);
      expect(sent()).toMatchObject({
        path: '/v2/rerank',
        headers: { authorization: `Bearer ${mock.behaviour.apiKey}` },
        body: {
          model: RERANK,
          query: body.query,
          documents: [body.documents[0], 'Washington, D.C. is the capital of the United States.', body.documents[2]],
          top_n: 2,
        },
      });
      expect(sent().body).not.toHaveProperty('return_documents');
      expect(await logOf(RERANK)).toMatchObject({
        model_name: RERANK,
        channel_id: channelId,
        prompt_tokens: tokens,
      });
    });
  });

  describe('the Anthropic SDK on /v1/messages', () => {
    it('answers a message and carries a tool loop to Cohere', async () => {
      const message = await claude.messages.create({
        model: CHAT,
        max_tokens: 200,
        system: 'Answer briefly.',
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '18C and sunny' }] },
        ],
        tools: [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: {} } }],
      });
      expect(message.content).toEqual([{ type: 'text', text: mock.behaviour.reply }]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage).toMatchObject({ input_tokens: 71, output_tokens: 13 });
      expect(sent().path).toBe('/v2/chat');
      expect(sent().body).toMatchObject({
        model: CHAT,
        max_tokens: 200,
        messages: [
          { role: 'system', content: 'Answer briefly.' },
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            tool_calls: [
              { id: 'toolu_01', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'toolu_01', content: '18C and sunny' },
        ],
      });
      expect(await logOf(CHAT)).toMatchObject({
        model_name: CHAT,
        prompt_tokens: 71,
        completion_tokens: 13,
      });
    });

    it('streams tool use', async () => {
      const stream = claude.messages.stream({
        model: CHAT,
        max_tokens: 100,
        tools: [
          {
            name: 'get_weather',
            description: 'Weather',
            input_schema: { type: 'object', properties: { city: { type: 'string' } } },
          },
        ],
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      const final = await stream.finalMessage();
      expect(final.stop_reason).toBe('tool_use');
      expect(final.content.find((block) => block.type === 'text')).toMatchObject({
        text: 'I will look up the weather.',
      });
      expect(final.content.find((block) => block.type === 'tool_use')).toMatchObject({
        name: 'get_weather',
        input: { city: 'Paris' },
      });
      expect(final.usage.output_tokens).toBe(13);
      expect(sent().body.stream).toBe(true);
    });

    it('streams text', async () => {
      const stream = claude.messages.stream({
        model: CHAT,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      let text = '';
      stream.on('text', (delta) => {
        text += delta;
      });
      const final = await stream.finalMessage();
      expect(text).toBe(mock.behaviour.reply);
      expect(final.stop_reason).toBe('end_turn');
    });
  });

  describe('errors', () => {
    it("passes Cohere's rate limit on as 429 to both SDKs", async () => {
      mock.behaviour.failWith = { status: 429, body: fixtureJson('error-429-trial-limit.json') };
      const openai = await r.client.chat.completions
        .create({ model: CHAT, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((error: unknown) => error);
      expect(openai).toBeInstanceOf(OpenAI.RateLimitError);
      const anthropic = await claude.messages
        .create({ model: CHAT, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((error: unknown) => error);
      expect(anthropic).toBeInstanceOf(Anthropic.RateLimitError);
    });

    it("passes Cohere's refusal of a request on as 400 with its message", async () => {
      mock.behaviour.failWith = { status: 400, body: fixtureJson('error-400-invalid-request.json') };
      const refused = await r.client.embeddings
        .create({ model: EMBED, input: 'x', encoding_format: 'float' })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect(String((refused as Error).message)).toContain('message must be at least 1 token long');
    });

    it('names a wrong key', async () => {
      const error = await r.client.chat.completions
        .create({ model: WRONG_KEY_MODEL, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(String((error as Error).message)).toContain('invalid api token');
      expect(sent().headers.authorization).toBe('Bearer co-not-the-key');
    });
  });
});
