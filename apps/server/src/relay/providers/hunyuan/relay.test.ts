import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
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
import { startHunyuanMock, vector } from '../../../../test/providers/hunyuan/mock-upstream.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * Tencent Hunyuan end to end: a real relay and `hunyuan` channels pointing at a local Hunyuan that
 * verifies the TC3 signature of every native call and its documented body, driven by the official
 * OpenAI SDK (chat whole and streamed, tools, images, embeddings) and the Anthropic SDK; a single
 * API key reaches the OpenAI-compatible API. Usage, quota and the consume log are checked.
 */

const CHAT = 'hunyuan-turbos-latest';
const VISION = 'hunyuan-vision';
const EMBED = 'hunyuan-embedding';
const COMPATIBLE = 'hunyuan-lite';
const WRONG_KEY_MODEL = 'hunyuan-standard';
const user = (content: string) => ({ role: 'user' as const, content });

describe('Tencent Hunyuan channels through the relay', () => {
  const relay = useProviderRelay({
    startMock: startHunyuanMock,
    channels: (mock) => ({
      hunyuan: {
        type: providerType('hunyuan'),
        key: `${mock.behaviour.secretId}|${mock.behaviour.secretKey}`,
        models: `${CHAT},${VISION},${EMBED}`,
      },
      'hunyuan-api-key': { type: providerType('hunyuan'), key: mock.behaviour.apiKey, models: COMPATIBLE },
      'hunyuan-wrong-key': {
        type: providerType('hunyuan'),
        key: `${mock.behaviour.secretId}|not-the-secret`,
        models: WRONG_KEY_MODEL,
      },
    }),
    prices: {
      [CHAT]: [1, 2],
      [VISION]: [1, 2],
      [EMBED]: [0.5, 0],
      [COMPATIBLE]: [0.4, 0.8],
      [WRONG_KEY_MODEL]: [1, 1],
    },
  });
  const logOf = useTestConsumeLog(relay);

  describe('chat from the OpenAI SDK', () => {
    it('answers a signed ChatCompletions call and bills its usage', async () => {
      const quotaBefore = await relay.storedQuota();
      const completion = await relay.openai.chat.completions.create({
        model: CHAT,
        messages: [{ role: 'system', content: 'Answer briefly.' }, user('你好')],
        temperature: 0.5,
        top_p: 0.8,
        stop: 'END',
        seed: 42,
        max_tokens: 64,
      });
      expect(completion.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expect(completion.usage).toMatchObject({ prompt_tokens: 23, completion_tokens: 11, total_tokens: 34 });
      const sent = relay.sent();
      expect(sent.path).toBe('/');
      expect(sent.headers).toMatchObject({ 'x-tc-action': 'ChatCompletions', 'x-tc-version': '2023-09-01' });
      expect(String(sent.headers.authorization)).toMatch(/^TC3-HMAC-SHA256 Credential=AKIDmock/);
      expect(sent.headers['x-tc-region']).toBeUndefined();
      expect(sent.body).toEqual({
        Model: CHAT,
        Messages: [
          { Role: 'system', Content: 'Answer briefly.' },
          { Role: 'user', Content: '你好' },
        ],
        Stream: false,
        Temperature: 0.5,
        TopP: 0.8,
        Stop: ['END'],
        Seed: 42,
      });
      const row = await logOf(CHAT);
      expect(row).toMatchObject({ channel_id: relay.channelIds.hunyuan, prompt_tokens: 23, completion_tokens: 11 });
      expect(row.quota).toBeGreaterThan(0);
      expect(quotaBefore - (await relay.storedQuota())).toBe(row.quota);
    });

    it('streams a chat in pieces, with the final usage', async () => {
      const read = await relay.streamChat({
        model: CHAT,
        messages: [user('Stream, please.')],
        stream_options: { include_usage: true },
      });
      expect(read.text).toBe(relay.mock.behaviour.reply);
      expect(read.pieces).toBe(relay.mock.behaviour.chunks);
      expect(read.finish).toBe('stop');
      expect(read.usage).toMatchObject({ prompt_tokens: 23, completion_tokens: 11 });
      expect(relay.sent().body.Stream).toBe(true);
      expect(await logOf(CHAT)).toMatchObject({ prompt_tokens: 23, completion_tokens: 11 });
    });

    it('calls tools and carries the tool result back', async () => {
      const first = await relay.openai.chat.completions.create({
        model: CHAT,
        messages: [user('Weather in Paris?')],
        tools: [weatherTool],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
      });
      const call = expectWeatherToolCall(first);
      const declared = {
        Type: 'function',
        Function: {
          Name: 'get_weather',
          Description: 'Current weather of a city',
          Parameters: JSON.stringify(weatherTool.function.parameters),
        },
      };
      expect(relay.sent().body).toMatchObject({ Tools: [declared], ToolChoice: 'custom', CustomTool: declared });

      const second = await relay.openai.chat.completions.create({
        model: CHAT,
        messages: [
          user('Weather in Paris?'),
          { role: 'assistant', content: null, tool_calls: first.choices[0]?.message.tool_calls ?? [] },
          { role: 'tool', tool_call_id: call?.id ?? '', content: '18°C, sunny' },
        ],
        tools: [weatherTool],
      });
      expect(second.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      expect(relay.sent().body.Messages).toEqual([
        { Role: 'user', Content: 'Weather in Paris?' },
        {
          Role: 'assistant',
          ToolCalls: [
            {
              Id: call?.id,
              Type: 'function',
              Function: { Name: 'get_weather', Arguments: '{"city":"Paris"}' },
              Index: 0,
            },
          ],
        },
        { Role: 'tool', Content: '18°C, sunny', ToolCallId: call?.id },
      ]);
    });

    it('streams tool-call arguments in pieces', async () => {
      const read = await relay.streamChat({ model: CHAT, messages: [user('Weather?')], tools: [weatherTool] });
      expectStreamedWeatherToolCall(read);
      expect(read.argumentFragments).toBe(3);
    });

    it('sends images as Contents parts', async () => {
      await relay.openai.chat.completions.create({
        model: VISION,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
        ],
      });
      expect(relay.sent().body.Messages).toEqual([
        {
          Role: 'user',
          Contents: [
            { Type: 'text', Text: 'What is this?' },
            { Type: 'image_url', ImageUrl: { Url: 'https://example.com/cat.png' } },
          ],
        },
      ]);
    });
  });

  describe('embeddings', () => {
    it('answers floats through GetEmbedding, billed on its usage', async () => {
      const answer = await relay.openai.embeddings.create({
        model: EMBED,
        input: ['abc', 'de'],
        encoding_format: 'float',
      });
      expect(answer.data.map((entry) => entry.embedding)).toEqual([vector(0), vector(1)]);
      expect(answer.usage).toMatchObject({ prompt_tokens: 5, total_tokens: 5 });
      expect(relay.sent().headers['x-tc-action']).toBe('GetEmbedding');
      expect(relay.sent().body).toEqual({ InputList: ['abc', 'de'] });
      expect(await logOf(EMBED)).toMatchObject({ prompt_tokens: 5 });
    });

    it("answers the SDK's default base64, decoded back to the float32 values", async () => {
      const answer = await relay.openai.embeddings.create({ model: EMBED, input: 'hello' });
      expect(answer.data[0]?.embedding).toEqual(Array.from(new Float32Array(vector(0))));
      expect(relay.sent().body).toEqual({ Input: 'hello' });
    });
  });

  describe('the Anthropic SDK on /v1/messages', () => {
    it('answers a message, the system prompt sent as the system message', async () => {
      const message = await relay.claude.messages.create({
        model: CHAT,
        max_tokens: 100,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello?' }],
      });
      expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: relay.mock.behaviour.reply })]);
      expect(message.usage).toMatchObject({ input_tokens: 23, output_tokens: 11 });
      expect(relay.sent().body.Messages).toEqual([
        { Role: 'system', Content: 'Be brief.' },
        { Role: 'user', Content: 'Hello?' },
      ]);
    });

    it('streams tool use', async () => {
      const { final } = await relay.streamMessage({
        model: CHAT,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [anthropicWeatherTool],
      });
      expectWeatherToolUse(final);
    });
  });

  describe('single API keys', () => {
    it('reach the OpenAI-compatible API with the bearer key, whole and streamed', async () => {
      const completion = await relay.openai.chat.completions.create({ model: COMPATIBLE, messages: [user('Hi')] });
      expect(completion.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      expect(relay.sent()).toMatchObject({
        path: '/v1/chat/completions',
        headers: { authorization: `Bearer ${relay.mock.behaviour.apiKey}` },
      });
      expect(relay.sent().body).toMatchObject({ model: COMPATIBLE, messages: [{ role: 'user', content: 'Hi' }] });
      const read = await relay.streamChat({ model: COMPATIBLE, messages: [user('Hi')] });
      expect(read.text).toBe(relay.mock.behaviour.reply);
      expect(await logOf(COMPATIBLE)).toMatchObject({ prompt_tokens: 23, completion_tokens: 11 });
    });
  });

  describe('channel tests', () => {
    it('test a channel with one chat, billing nothing; a wrong secret fails the test', async () => {
      const before = await relay.storedQuota();
      const tested = await relay.context.admin('GET', `/api/channel/test/${relay.channelIds.hunyuan}?model=${CHAT}`);
      expect(tested.body).toMatchObject({ success: true, message: '' });
      expect(relay.sent().headers['x-tc-action']).toBe('ChatCompletions');
      expect(await relay.storedQuota()).toBe(before);

      const wrong = relay.channelIds['hunyuan-wrong-key'];
      const failed = await relay.context.admin('GET', `/api/channel/test/${wrong}?model=${WRONG_KEY_MODEL}`);
      expect(failed.body).toMatchObject({ success: false });
      expect(failed.body.message).toContain('AuthFailure.SignatureFailure');
    });
  });

  describe('errors (Response.Error with HTTP 200)', () => {
    it('passes LimitExceeded on as 429 to both SDKs', async () => {
      relay.mock.behaviour.failWith = { code: 'LimitExceeded', message: 'too many requests' };
      await expectRateLimitedForBothSdks(relay, { openai: CHAT, anthropic: CHAT });
    });

    it('passes an InvalidParameter refusal on as 400 naming it', async () => {
      relay.mock.behaviour.failWith = { code: 'InvalidParameterValue.Model', message: 'model does not exist' };
      const refused = await failureOf(relay.openai.chat.completions.create({ model: CHAT, messages: [user('Hi')] }));
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect(String((refused as Error).message)).toContain('model does not exist (InvalidParameterValue.Model)');
    });

    it('refuses a tool choice naming no declared tool as 400, without calling Tencent', async () => {
      const calls = relay.mock.received.length;
      const refused = await failureOf(
        relay.openai.chat.completions.create({
          model: CHAT,
          messages: [user('Hi')],
          tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
          tool_choice: { type: 'function', function: { name: 'get_time' } },
        }),
      );
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect(String((refused as Error).message)).toContain('tool_choice.function.name: no tool is named "get_time"');
      expect(relay.mock.received.length).toBe(calls);
    });

    it('reports a refusal of a stream to the streaming client', async () => {
      relay.mock.behaviour.failWith = { code: 'FailedOperation.EngineServerError', message: 'engine busy' };
      const failure = await failureOf(relay.streamChat({ model: CHAT, messages: [user('Hi')] }));
      expect(String((failure as Error).message)).toContain('engine busy (FailedOperation.EngineServerError)');
    });

    it('names a wrong secret without echoing it', async () => {
      const error = await failureOf(
        relay.openai.chat.completions.create({ model: WRONG_KEY_MODEL, messages: [user('Hi')] }),
      );
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(String((error as Error).message)).toContain('AuthFailure.SignatureFailure');
      expect(String((error as Error).message)).not.toContain('not-the-secret');
    });
  });
});
