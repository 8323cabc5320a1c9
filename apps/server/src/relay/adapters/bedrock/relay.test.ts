import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayTest } from '../../../../test/relay-setup.js';
import { chatAdapterFor, registerChatAdapter } from '../registry.js';
import { bedrockAdapter } from './adapter.js';
import { type BedrockMock, startBedrockMock } from './mock-upstream.js';

/**
 * Amazon Bedrock end to end: a real relay, type-32 channels pointing at a local Bedrock that
 * recomputes every SigV4 signature with the AWS SDK's signer (or checks the API key), checks the
 * URL and the body, and answers in Bedrock's formats (JSON, and AWS event streams). Driven by the
 * official OpenAI and Anthropic SDKs, whole and streamed, Claude (InvokeModel) and Nova (Converse).
 *
 * Until the lead registers the adapter for type 32, the test registers it itself.
 */

const CLAUDE = 'claude-sonnet-4-5';
const CLAUDE_ID = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const NOVA = 'nova-lite';
const NOVA_ID = 'amazon.nova-lite-v1:0';
const BEARER_MODEL = 'claude-haiku-4-5';
const BROKEN = 'claude-opus-4-1';

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('Amazon Bedrock channels through the relay', () => {
  let r: RelayTestContext;
  let mock: BedrockMock;
  let claude: Anthropic;

  beforeAll(async () => {
    if (!chatAdapterFor(32)) registerChatAdapter(32, bedrockAdapter);
    r = await startRelayTest();
    mock = await startBedrockMock();
    const { region, accessKeyId, secretAccessKey, apiKey } = mock.behaviour;
    await r.addChannel({
      name: 'bedrock-sigv4',
      type: 32,
      key: `${region}|${accessKeyId}|${secretAccessKey}`,
      base_url: mock.url,
      models: `${CLAUDE},${NOVA}`,
      model_mapping: JSON.stringify({ [NOVA]: `+${NOVA_ID}` }),
    });
    await r.addChannel({
      name: 'bedrock-api-key',
      type: 32,
      key: `${region}|${apiKey}`,
      base_url: mock.url,
      models: BEARER_MODEL,
    });
    await r.addChannel({
      name: 'bedrock-wrong-secret',
      type: 32,
      key: `${region}|${accessKeyId}|not-the-secret`,
      base_url: mock.url,
      models: BROKEN,
    });
    for (const model of [CLAUDE, BEARER_MODEL, BROKEN]) await r.setPrice(model, 1.5, 7.5);
    await r.setPrice(NOVA, 0.03, 0.12);
    await r.t.services.options.update('RetryCooldownSeconds', '0');
    claude = new Anthropic({ apiKey: r.apiKey, baseURL: r.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
  });
  afterAll(async () => {
    await r?.close();
    await mock?.close();
  });
  afterEach(() => mock.reset());

  const sent = () => {
    const request = mock.received.at(-1);
    if (!request) throw new Error('the mock received nothing');
    return request;
  };
  // 31 input + 7 cache reads + 4 cache writes, 11 output (the mock's usage).
  const billed = { prompt_tokens: 42, completion_tokens: 11 };

  describe('Claude (InvokeModel), from the OpenAI SDK', () => {
    it('answers a chat signed with SigV4 over the body, and bills the cache tokens too', async () => {
      const completion = await r.client.chat.completions.create({
        model: CLAUDE,
        messages: [
          { role: 'system', content: 'Answer briefly.' },
          { role: 'user', content: 'Hello?' },
        ],
        max_tokens: 200,
      });
      expect(completion.choices[0]?.message.content).toBe(mock.behaviour.reply);
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expect(completion.usage).toMatchObject({ ...billed, total_tokens: 53 });
      const request = sent();
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
      expect(await lastConsumeLog(r)).toMatchObject({ model_name: CLAUDE, ...billed });
    });

    it('streams from the event stream, usage included when asked', async () => {
      const stream = await r.client.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let finish: string | null | undefined;
      let usage: OpenAI.CompletionUsage | undefined | null;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        finish ||= chunk.choices[0]?.finish_reason;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe(mock.behaviour.reply);
      expect(finish).toBe('stop');
      expect(usage).toMatchObject(billed);
      expect(sent().path).toBe('/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream');
      expect(sent().body.stream).toBeUndefined();
      expect(await lastConsumeLog(r)).toMatchObject({ model_name: CLAUDE, ...billed });
    });

    it('carries tools, and the streamed call back with its arguments', async () => {
      const stream = await r.client.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weather],
        stream: true,
      });
      let name = '';
      let args = '';
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        const call = chunk.choices[0]?.delta.tool_calls?.[0];
        name += call?.function?.name ?? '';
        args += call?.function?.arguments ?? '';
        finish ||= chunk.choices[0]?.finish_reason;
      }
      expect(name).toBe('get_weather');
      expect(JSON.parse(args)).toEqual({ city: 'Paris' });
      expect(finish).toBe('tool_calls');
      expect(sent().body.tools).toEqual([
        { name: 'get_weather', description: weather.function.description, input_schema: weather.function.parameters },
      ]);
    });
  });

  describe('other models (Converse), from the OpenAI SDK', () => {
    it('calls a tool through Converse, whole and streamed, billing the requested name', async () => {
      const completion = await r.client.chat.completions.create({
        model: NOVA,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weather],
        tool_choice: 'required',
      });
      const call = completion.choices[0]?.message.tool_calls?.[0];
      expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
      expect(call?.type === 'function' && call.function.name).toBe('get_weather');
      expect(JSON.parse(call?.type === 'function' ? call.function.arguments : '{}')).toEqual({ city: 'Paris' });
      const request = sent();
      expect(request.path).toBe('/model/amazon.nova-lite-v1%3A0/converse');
      expect(request.body).toEqual({
        messages: [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }],
        toolConfig: {
          tools: [
            {
              toolSpec: {
                name: 'get_weather',
                description: weather.function.description,
                inputSchema: { json: weather.function.parameters },
              },
            },
          ],
          toolChoice: { any: {} },
        },
      });
      expect(await lastConsumeLog(r)).toMatchObject({ model_name: NOVA, ...billed });

      const stream = await r.client.chat.completions.create({
        model: NOVA,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let usage: OpenAI.CompletionUsage | undefined | null;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe(mock.behaviour.reply);
      expect(usage).toMatchObject(billed);
      expect(sent().path).toBe('/model/amazon.nova-lite-v1%3A0/converse-stream');
    });
  });

  describe('Anthropic Messages in', () => {
    it('reaches Claude on Bedrock with tools and answers tool_use', async () => {
      const message = await claude.messages.create({
        model: CLAUDE,
        max_tokens: 100,
        system: 'Use tools.',
        tools: [
          {
            name: 'get_weather',
            description: 'Current weather',
            input_schema: { type: 'object', properties: { city: { type: 'string' } } },
          },
        ],
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      expect(message.stop_reason).toBe('tool_use');
      expect(message.content.find((block) => block.type === 'tool_use')).toMatchObject({
        name: 'get_weather',
        input: { city: 'Paris' },
      });
      expect(message.usage).toMatchObject({
        input_tokens: 31,
        cache_read_input_tokens: 7,
        cache_creation_input_tokens: 4,
        output_tokens: 11,
      });
      const request = sent();
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
      await claude.messages.create({
        model: CLAUDE,
        max_tokens: 20,
        system,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(sent().body.system).toEqual(system);
    });

    it('streams Claude on Bedrock as the event sequence the Anthropic SDK expects', async () => {
      const stream = claude.messages.stream({
        model: CLAUDE,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      const deltas: string[] = [];
      stream.on('text', (text) => deltas.push(text));
      const final = await stream.finalMessage();
      expect(deltas.join('')).toBe(mock.behaviour.reply);
      expect(final.stop_reason).toBe('end_turn');
      expect(final.usage.output_tokens).toBe(11);
      expect(sent().action).toBe('invoke-with-response-stream');
      expect(await lastConsumeLog(r)).toMatchObject({ model_name: CLAUDE, ...billed });
    });

    it('streams a Converse model to an Anthropic client', async () => {
      const stream = claude.messages.stream({
        model: NOVA,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      let text = '';
      stream.on('text', (delta) => {
        text += delta;
      });
      const final = await stream.finalMessage();
      expect(text).toBe(mock.behaviour.reply);
      expect(final.stop_reason).toBe('end_turn');
      expect(sent().body).toMatchObject({ inferenceConfig: { maxTokens: 50 } });
    });
  });

  describe('keys and failures', () => {
    it('authenticates a Bedrock API key channel with a bearer token', async () => {
      const completion = await r.client.chat.completions.create({
        model: BEARER_MODEL,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(completion.choices[0]?.message.content).toBe(mock.behaviour.reply);
      expect(sent()).toMatchObject({ auth: 'bearer', modelId: 'anthropic.claude-haiku-4-5-20251001-v1:0' });
      expect(sent().headers.authorization).toBe(`Bearer ${mock.behaviour.apiKey}`);
    });

    it('passes Bedrock throttling on as a 429, and an exception mid-stream as a stream error', async () => {
      mock.behaviour.failWith = {
        status: 429,
        errorType: 'ThrottlingException',
        message: 'Too many requests, please wait before trying again.',
      };
      const limited = await r.client.chat.completions
        .create({ model: CLAUDE, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((error: unknown) => error);
      expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
      expect(String((limited as Error).message)).toContain('Too many requests');

      mock.reset();
      mock.behaviour.streamException = { type: 'modelStreamErrorException', message: 'The model stream broke.' };
      const stream = await r.client.chat.completions.create({
        model: NOVA,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      });
      let text = '';
      const failure = await (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })().catch((error: unknown) => error);
      expect(String(failure)).toContain('modelStreamErrorException: The model stream broke.');
      expect(mock.behaviour.reply.startsWith(text)).toBe(true);
      expect(text.length).toBeGreaterThan(0);
    });

    it('refuses a channel whose secret is wrong: the mock finds the signature does not match', async () => {
      const refused = await r.client.chat.completions
        .create({ model: BROKEN, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.APIError);
      expect(String((refused as Error).message)).toContain('The request signature we calculated does not match');
      expect(mock.received).toHaveLength(0);
    });
  });
});
