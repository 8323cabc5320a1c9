import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicWeatherTool,
  expectStreamedWeatherToolCall,
  expectWeatherToolCall,
  expectWeatherToolUse,
  failureOf,
  useProviderRelay,
  weatherTool,
} from '../../../../test/provider-relay.js';
import { startBedrockMock } from '../../../../test/providers/bedrock/mock-upstream.js';
import { providerType } from '../../../domain/channel-types/registry.js';
import { chatAdapterFor, registerChatAdapter } from '../adapters.js';
import { bedrockAdapter } from './adapter.js';

/**
 * Amazon Bedrock end to end: a real relay, `bedrock` channels pointing at a local Bedrock that
 * recomputes every SigV4 signature with the AWS SDK's signer (or checks the API key), checks the
 * URL and the body, and answers in Bedrock's formats (JSON, and AWS event streams). Driven by the
 * official OpenAI and Anthropic SDKs, whole and streamed, Claude (InvokeModel) and Nova (Converse).
 *
 * Until the lead registers the adapter for `bedrock`, the test registers it itself.
 */

const CLAUDE = 'claude-sonnet-4-5';
const CLAUDE_ID = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const NOVA = 'nova-lite';
const NOVA_ID = 'amazon.nova-lite-v1:0';
const BEARER_MODEL = 'claude-haiku-4-5';
const BROKEN = 'claude-opus-4-1';

describe('Amazon Bedrock channels through the relay', () => {
  beforeAll(() => {
    if (!chatAdapterFor(providerType('bedrock'))) registerChatAdapter(providerType('bedrock'), bedrockAdapter);
  });
  const relay = useProviderRelay({
    startMock: startBedrockMock,
    channels: ({ behaviour: { region, accessKeyId, secretAccessKey, apiKey } }) => ({
      'bedrock-sigv4': {
        type: providerType('bedrock'),
        key: `${region}|${accessKeyId}|${secretAccessKey}`,
        models: `${CLAUDE},${NOVA}`,
        model_mapping: JSON.stringify({ [NOVA]: `+${NOVA_ID}` }),
      },
      'bedrock-api-key': { type: providerType('bedrock'), key: `${region}|${apiKey}`, models: BEARER_MODEL },
      'bedrock-wrong-secret': {
        type: providerType('bedrock'),
        key: `${region}|${accessKeyId}|not-the-secret`,
        models: BROKEN,
      },
    }),
    prices: { [CLAUDE]: [1.5, 7.5], [BEARER_MODEL]: [1.5, 7.5], [BROKEN]: [1.5, 7.5], [NOVA]: [0.03, 0.12] },
  });

  // 31 input + 7 cache reads + 4 cache writes, 11 output (the mock's usage).
  const billed = { prompt_tokens: 42, completion_tokens: 11 };

  describe('Claude (InvokeModel), from the OpenAI SDK', () => {
    it('answers a chat signed with SigV4 over the body, and bills the cache tokens too', async () => {
      const completion = await relay.openai.chat.completions.create({
        model: CLAUDE,
        messages: [
          { role: 'system', content: 'Answer briefly.' },
          { role: 'user', content: 'Hello?' },
        ],
        max_tokens: 200,
      });
      expect(completion.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expect(completion.usage).toMatchObject({ ...billed, total_tokens: 53 });
      const request = relay.sent();
      expect(request.path).toBe('/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke');
      expect(request.modelId).toBe(CLAUDE_ID);
      expect(request.auth).toBe('sigv4');
      expect(request.headers.authorization).toMatch(
        /Credential=AKIAMOCKBEDROCK00001\/\d{8}\/us-east-1\/bedrock\/aws4_request/,
      );
      expect(request.body).toEqual({
        anthropic_version: 'bedrock-2023-05-31',
        max_tokens: 200,
        system: 'Answer briefly.',
        messages: [{ role: 'user', content: 'Hello?' }],
      });
      expect(await relay.lastConsumeLog()).toMatchObject({ model_name: CLAUDE, ...billed });
    });

    it('streams from the event stream, usage included when asked', async () => {
      const { text, finish, usage } = await relay.streamChat({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'Hi' }],
        stream_options: { include_usage: true },
      });
      expect(text).toBe(relay.mock.behaviour.reply);
      expect(finish).toBe('stop');
      expect(usage).toMatchObject(billed);
      expect(relay.sent().path).toBe('/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream');
      expect(relay.sent().body.stream).toBeUndefined();
      expect(await relay.lastConsumeLog()).toMatchObject({ model_name: CLAUDE, ...billed });
    });

    it('carries tools, and the streamed call back with its arguments', async () => {
      const read = await relay.streamChat({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weatherTool],
      });
      expectStreamedWeatherToolCall(read);
      expect(relay.sent().body.tools).toEqual([
        {
          name: 'get_weather',
          description: weatherTool.function.description,
          input_schema: weatherTool.function.parameters,
        },
      ]);
    });
  });

  describe('other models (Converse), from the OpenAI SDK', () => {
    it('calls a tool through Converse, whole and streamed, billing the requested name', async () => {
      const completion = await relay.openai.chat.completions.create({
        model: NOVA,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weatherTool],
        tool_choice: 'required',
      });
      expectWeatherToolCall(completion);
      const request = relay.sent();
      expect(request.path).toBe('/model/amazon.nova-lite-v1%3A0/converse');
      expect(request.body).toEqual({
        messages: [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }],
        toolConfig: {
          tools: [
            {
              toolSpec: {
                name: 'get_weather',
                description: weatherTool.function.description,
                inputSchema: { json: weatherTool.function.parameters },
              },
            },
          ],
          toolChoice: { any: {} },
        },
      });
      expect(await relay.lastConsumeLog()).toMatchObject({ model_name: NOVA, ...billed });

      const { text, usage } = await relay.streamChat({
        model: NOVA,
        messages: [{ role: 'user', content: 'Hi' }],
        stream_options: { include_usage: true },
      });
      expect(text).toBe(relay.mock.behaviour.reply);
      expect(usage).toMatchObject(billed);
      expect(relay.sent().path).toBe('/model/amazon.nova-lite-v1%3A0/converse-stream');
    });
  });

  describe('Anthropic Messages in', () => {
    it('reaches Claude on Bedrock with tools and answers tool_use', async () => {
      const message = await relay.claude.messages.create({
        model: CLAUDE,
        max_tokens: 100,
        system: 'Use tools.',
        tools: [anthropicWeatherTool],
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      expectWeatherToolUse(message);
      expect(message.usage).toMatchObject({
        input_tokens: 31,
        cache_read_input_tokens: 7,
        cache_creation_input_tokens: 4,
        output_tokens: 11,
      });
      const request = relay.sent();
      expect(request.path).toBe('/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke');
      expect(request.body).toMatchObject({
        anthropic_version: 'bedrock-2023-05-31',
        system: 'Use tools.',
        max_tokens: 100,
      });
      expect(request.body.model).toBeUndefined();
    });

    it('passes an Anthropic request to Claude on Bedrock unchanged, prompt-cache markers included', async () => {
      const system = [{ type: 'text' as const, text: 'Long context', cache_control: { type: 'ephemeral' as const } }];
      await relay.claude.messages.create({
        model: CLAUDE,
        max_tokens: 20,
        system,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(relay.sent().body.system).toEqual(system);
    });

    it('streams Claude on Bedrock as the event sequence the Anthropic SDK expects', async () => {
      const { text, final } = await relay.streamMessage({
        model: CLAUDE,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(text).toBe(relay.mock.behaviour.reply);
      expect(final.stop_reason).toBe('end_turn');
      expect(final.usage.output_tokens).toBe(11);
      expect(relay.sent().action).toBe('invoke-with-response-stream');
      expect(await relay.lastConsumeLog()).toMatchObject({ model_name: CLAUDE, ...billed });
    });

    it('streams a Converse model to an Anthropic client', async () => {
      const { text, final } = await relay.streamMessage({
        model: NOVA,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(text).toBe(relay.mock.behaviour.reply);
      expect(final.stop_reason).toBe('end_turn');
      expect(relay.sent().body).toMatchObject({ inferenceConfig: { maxTokens: 50 } });
    });
  });

  describe('keys and failures', () => {
    it('authenticates a Bedrock API key channel with a bearer token', async () => {
      const completion = await relay.openai.chat.completions.create({
        model: BEARER_MODEL,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(completion.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      expect(relay.sent()).toMatchObject({ auth: 'bearer', modelId: 'anthropic.claude-haiku-4-5-20251001-v1:0' });
      expect(relay.sent().headers.authorization).toBe(`Bearer ${relay.mock.behaviour.apiKey}`);
    });

    it('passes Bedrock throttling on as a 429, and an exception mid-stream as a stream error', async () => {
      relay.mock.behaviour.failWith = {
        status: 429,
        errorType: 'ThrottlingException',
        message: 'Too many requests, please wait before trying again.',
      };
      const limited = await failureOf(
        relay.openai.chat.completions.create({ model: CLAUDE, messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
      expect(String((limited as Error).message)).toContain('Too many requests');

      relay.mock.reset();
      relay.mock.behaviour.streamException = { type: 'modelStreamErrorException', message: 'The model stream broke.' };
      const stream = await relay.openai.chat.completions.create({
        model: NOVA,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      });
      // Read by hand: the text that came before the failure is checked too.
      let text = '';
      const failure = await failureOf(
        (async () => {
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        })(),
      );
      expect(String(failure)).toContain('modelStreamErrorException: The model stream broke.');
      expect(relay.mock.behaviour.reply.startsWith(text)).toBe(true);
      expect(text.length).toBeGreaterThan(0);
    });

    it('refuses a channel whose secret is wrong: the mock finds the signature does not match', async () => {
      const refused = await failureOf(
        relay.openai.chat.completions.create({ model: BROKEN, messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(refused).toBeInstanceOf(OpenAI.APIError);
      expect(String((refused as Error).message)).toContain('The request signature we calculated does not match');
      expect(relay.mock.received).toHaveLength(0);
    });
  });
});
