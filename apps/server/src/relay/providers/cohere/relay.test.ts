import OpenAI from 'openai';
import { fetch } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicWeatherTool,
  expectRateLimitedForBothSdks,
  expectStreamedWeatherToolCall,
  expectWeatherToolCall,
  expectWeatherToolUse,
  failureOf,
  useProviderRelay,
  useTestConsumeLog,
  weatherTool,
} from '../../../../test/provider-relay.js';
import { startCohereMock, vector } from '../../../../test/providers/cohere/mock-upstream.js';
import { fixtureJson } from '../../../../test/providers/cohere/test-support.js';
import { providerType } from '../../../domain/channel-types/registry.js';
import { countRerankTokens } from '../../billing/metering.js';
import { chatAdapterFor, registerChatAdapter } from '../adapters.js';
import { cohereAdapter } from './adapter.js';

/**
 * Cohere end to end: a real relay, a `cohere` channel pointing at a local Cohere that checks the
 * bearer key, the path and the v2 body, driven by the official OpenAI SDK (chat whole and
 * streamed, tools, embeddings as floats and as the SDK's default base64, rerank by fetch) and
 * the Anthropic SDK on `/v1/messages`, with usage and the consume log checked.
 */

const CHAT = 'command-a-03-2025';
const EMBED = 'embed-v4.0';
const RERANK = 'rerank-v3.5';
const WRONG_KEY_MODEL = 'command-r7b-12-2024';

describe('Cohere channels through the relay', () => {
  beforeAll(() => {
    if (chatAdapterFor(providerType('cohere')) !== cohereAdapter)
      registerChatAdapter(providerType('cohere'), cohereAdapter);
  });
  const relay = useProviderRelay({
    startMock: startCohereMock,
    channels: (mock) => ({
      cohere: { type: providerType('cohere'), key: mock.behaviour.apiKey, models: `${CHAT},${EMBED},${RERANK}` },
      'cohere-wrong-key': { type: providerType('cohere'), key: 'co-not-the-key', models: WRONG_KEY_MODEL },
    }),
    prices: { [CHAT]: [1.25, 5], [WRONG_KEY_MODEL]: [0.1, 0.4], [EMBED]: [2, 0], [RERANK]: [1, 0] },
  });
  const logOf = useTestConsumeLog(relay);

  describe('chat from the OpenAI SDK', () => {
    it('answers a chat, sending the v2 body with the bearer key, and bills token usage', async () => {
      const completion = await relay.openai.chat.completions.create({
        model: CHAT,
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hello?' },
        ],
        max_tokens: 100,
        stop: ['END'],
        temperature: 0.3,
      });
      expect(completion.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expect(completion.usage).toMatchObject({ prompt_tokens: 71, completion_tokens: 13, total_tokens: 84 });
      const request = relay.sent();
      expect(request.path).toBe('/v2/chat');
      expect(request.headers.authorization).toBe(`Bearer ${relay.mock.behaviour.apiKey}`);
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
        channel_id: relay.channelIds.cohere,
        prompt_tokens: 71,
        completion_tokens: 13,
      });
    });

    it('streams a chat in pieces with the usage chunk', async () => {
      relay.mock.behaviour.usage.cached = 32;
      const { text, pieces, finish, usage } = await relay.streamChat({
        model: CHAT,
        messages: [{ role: 'user', content: 'Stream, please.' }],
        stream_options: { include_usage: true },
      });
      expect(text).toBe(relay.mock.behaviour.reply);
      expect(pieces).toBe(relay.mock.behaviour.chunks);
      expect(finish).toBe('stop');
      expect(usage).toMatchObject({
        prompt_tokens: 71,
        completion_tokens: 13,
        prompt_tokens_details: { cached_tokens: 32 },
      });
      expect(relay.sent().body.stream).toBe(true);
      expect(await logOf(CHAT)).toMatchObject({
        model_name: CHAT,
        prompt_tokens: 71,
        completion_tokens: 13,
      });
    });

    it('calls tools, then carries the tool loop back to Cohere', async () => {
      const first = await relay.openai.chat.completions.create({
        model: CHAT,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weatherTool],
        tool_choice: 'required',
      });
      const message = first.choices[0]?.message;
      const call = expectWeatherToolCall(first);
      expect(message?.content).toBe('I will look up the weather.');
      expect(relay.sent().body).toMatchObject({ tools: [weatherTool], tool_choice: 'REQUIRED' });

      const second = await relay.openai.chat.completions.create({
        model: CHAT,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          message as OpenAI.ChatCompletionAssistantMessageParam,
          { role: 'tool', tool_call_id: String(call?.id), content: '{"temperature": "18C"}' },
        ],
        tools: [weatherTool],
      });
      expect(second.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      expect((relay.sent().body.messages as unknown[]).slice(1)).toEqual([
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
      const read = await relay.streamChat({
        model: CHAT,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weatherTool],
        stream_options: { include_usage: true },
      });
      expectStreamedWeatherToolCall(read);
      expect(read.argumentFragments).toBe(3);
      expect(read.usage).toMatchObject({ prompt_tokens: 71, completion_tokens: 13 });
    });
  });

  describe('embeddings from the OpenAI SDK', () => {
    it('answers floats when asked for floats, billed on Cohere input tokens', async () => {
      const before = await relay.storedQuota();
      const answer = await relay.openai.embeddings.create({
        model: EMBED,
        input: ['hello world', 'good bye now'],
        encoding_format: 'float',
      });
      expect(answer.data.map((item) => item.embedding)).toEqual([vector(0), vector(1)]);
      expect(answer.data.map((item) => item.index)).toEqual([0, 1]);
      expect(answer.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 });
      expect(relay.sent()).toMatchObject({
        path: '/v2/embed',
        headers: { authorization: `Bearer ${relay.mock.behaviour.apiKey}` },
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
      await expect.poll(async () => before - (await relay.storedQuota())).toBe(10);
    });

    it("answers the SDK's default base64, which the SDK decodes back to float32 values", async () => {
      const answer = await relay.openai.embeddings.create({
        model: EMBED,
        input: 'one two three',
        input_type: 'search_query',
      } as OpenAI.EmbeddingCreateParams);
      expect(answer.data[0]?.embedding).toEqual(vector(0).map(Math.fround));
      expect(answer.data[0]?.embedding[3]).not.toBe(0.1);
      expect(answer.usage.prompt_tokens).toBe(3);
      expect(relay.sent().body).toMatchObject({ texts: ['one two three'], input_type: 'search_query' });
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
      const response = await fetch(`${relay.context.baseURL}/rerank`, {
        method: 'POST',
        headers: { authorization: `Bearer ${relay.context.apiKey}`, 'content-type': 'application/json' },
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
      expect(relay.sent()).toMatchObject({
        path: '/v2/rerank',
        headers: { authorization: `Bearer ${relay.mock.behaviour.apiKey}` },
        body: {
          model: RERANK,
          query: body.query,
          documents: [body.documents[0], 'Washington, D.C. is the capital of the United States.', body.documents[2]],
          top_n: 2,
        },
      });
      expect(relay.sent().body).not.toHaveProperty('return_documents');
      expect(await logOf(RERANK)).toMatchObject({
        model_name: RERANK,
        channel_id: relay.channelIds.cohere,
        prompt_tokens: tokens,
      });
    });
  });

  describe('the Anthropic SDK on /v1/messages', () => {
    it('answers a message and carries a tool loop to Cohere', async () => {
      const message = await relay.claude.messages.create({
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
      expect(message.content).toEqual([{ type: 'text', text: relay.mock.behaviour.reply }]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage).toMatchObject({ input_tokens: 71, output_tokens: 13 });
      expect(relay.sent().path).toBe('/v2/chat');
      expect(relay.sent().body).toMatchObject({
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
      const { final } = await relay.streamMessage({
        model: CHAT,
        max_tokens: 100,
        tools: [anthropicWeatherTool],
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      expectWeatherToolUse(final);
      expect(final.content.find((block) => block.type === 'text')).toMatchObject({
        text: 'I will look up the weather.',
      });
      expect(final.usage.output_tokens).toBe(13);
      expect(relay.sent().body.stream).toBe(true);
    });

    it('streams text', async () => {
      const { text, final } = await relay.streamMessage({
        model: CHAT,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(text).toBe(relay.mock.behaviour.reply);
      expect(final.stop_reason).toBe('end_turn');
    });
  });

  describe('errors', () => {
    it("passes Cohere's rate limit on as 429 to both SDKs", async () => {
      relay.mock.behaviour.failWith = { status: 429, body: fixtureJson('error-429-trial-limit.json') };
      await expectRateLimitedForBothSdks(relay, { openai: CHAT, anthropic: CHAT });
    });

    it("passes Cohere's refusal of a request on as 400 with its message", async () => {
      relay.mock.behaviour.failWith = { status: 400, body: fixtureJson('error-400-invalid-request.json') };
      const refused = await failureOf(
        relay.openai.embeddings.create({ model: EMBED, input: 'x', encoding_format: 'float' }),
      );
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect(String((refused as Error).message)).toContain('message must be at least 1 token long');
    });

    it('names a wrong key', async () => {
      const error = await failureOf(
        relay.openai.chat.completions.create({ model: WRONG_KEY_MODEL, messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(String((error as Error).message)).toContain('invalid api token');
      expect(relay.sent().headers.authorization).toBe('Bearer co-not-the-key');
    });
  });
});
