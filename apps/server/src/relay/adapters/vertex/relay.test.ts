import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { fetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayTest } from '../../../../test/relay-setup.js';
import { registerChatAdapter } from '../registry.js';
import { createVertexAdapter } from './adapter.js';
import { startVertexMock, type VertexMock } from './mock-upstream.js';
import { fixtureJson, serviceAccountKey, type TestKeyPair, testKeyPair } from './test-support.js';
import { ServiceAccountTokens, type TokenPost } from './token.js';

/**
 * Vertex AI end to end: a real relay, a type-42 channel whose key is a service-account key file,
 * and a local Google (token endpoint + Vertex) that checks the JWT signature, the bearer token, the
 * URL and the body. Driven by the official OpenAI and Anthropic SDKs, whole and streamed.
 *
 * Until the lead wires the production adapter, the test registers its own instance, with the
 * token POST made by undici's fetch.
 */

const GEMINI = 'gemini-2.5-flash';
const CLAUDE = 'claude-sonnet-4-5';
const BROKEN = 'gemini-2.0-flash-001';
const PROJECT = 'vertex-e2e-project';
const REGION = 'us-east5';

const post: TokenPost = async (url, form) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: await response.text() };
};

const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('Vertex AI channels through the relay', () => {
  let r: RelayTestContext;
  let mock: VertexMock;
  let keys: TestKeyPair;
  let channelId: number;
  let claude: Anthropic;

  beforeAll(async () => {
    registerChatAdapter(42, createVertexAdapter(new ServiceAccountTokens(post, Date.now)));
    keys = testKeyPair();
    const account = fixtureJson('service-account.json');
    r = await startRelayTest();
    mock = await startVertexMock({
      publicKey: keys.publicKey,
      clientEmail: String(account.client_email),
      keyId: String(account.private_key_id),
      project: PROJECT,
      region: REGION,
    });
    channelId = await r.addChannel({
      name: 'vertex',
      type: 42,
      key: serviceAccountKey(keys.privateKey, { token_uri: mock.tokenUrl }),
      base_url: mock.url,
      other: `${REGION}|${PROJECT}`,
      models: `${GEMINI},${CLAUDE}`,
    });
    // A key signed by another key pair: the token endpoint refuses its assertions.
    await r.addChannel({
      name: 'vertex-wrong-key',
      type: 42,
      key: serviceAccountKey(testKeyPair().privateKey, {
        token_uri: mock.tokenUrl,
        client_email: 'impostor@vertex-e2e-project.iam.gserviceaccount.com',
      }),
      base_url: mock.url,
      other: `${REGION}|${PROJECT}`,
      models: BROKEN,
    });
    await r.setPrice(GEMINI, 0.15, 1.25);
    await r.setPrice(CLAUDE, 1.5, 7.5);
    await r.setPrice(BROKEN, 0.1, 0.4);
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
  const modelPath = (publisher: string, model: string, method: string) =>
    `/v1/projects/${PROJECT}/locations/${REGION}/publishers/${publisher}/models/${model}:${method}`;

  describe('Gemini models, from the OpenAI SDK', () => {
    it('answers a chat with a token from the signed JWT, and bills Vertex usage incl. thoughts', async () => {
      const completion = await r.client.chat.completions.create({
        model: GEMINI,
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hello?' },
        ],
        max_tokens: 100,
      });
      expect(completion.choices[0]?.message.content).toBe(mock.behaviour.reply);
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expect(completion.usage).toMatchObject({ prompt_tokens: 36, completion_tokens: 16, total_tokens: 52 });
      const request = sent();
      expect(request.path).toBe(modelPath('google', GEMINI, 'generateContent'));
      expect(request.headers.authorization).toBe('Bearer ya29.mock-1');
      expect(request.body).toMatchObject({
        systemInstruction: { parts: [{ text: 'Answer in French.' }] },
        contents: [{ role: 'user', parts: [{ text: 'Hello?' }] }],
        generationConfig: { maxOutputTokens: 100 },
      });
      expect(mock.tokens).toEqual({ issued: ['ya29.mock-1'], refused: [] });
      expect(await lastConsumeLog(r)).toMatchObject({
        model_name: GEMINI,
        channel_id: channelId,
        prompt_tokens: 36,
        completion_tokens: 16,
      });
    });

    it('streams a chat in pieces with the usage chunk, reusing the cached token', async () => {
      const stream = await r.client.chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'Stream, please.' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let pieces = 0;
      let usage: OpenAI.CompletionUsage | undefined | null;
      let finish: string | null | undefined;
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
      expect(usage).toMatchObject({ prompt_tokens: 36, completion_tokens: 16 });
      expect(sent().path).toBe(modelPath('google', GEMINI, 'streamGenerateContent?alt=sse'));
      expect(sent().headers.authorization).toBe('Bearer ya29.mock-1');
      expect(mock.tokens.issued).toHaveLength(1);
      expect(await lastConsumeLog(r)).toMatchObject({ model_name: GEMINI, prompt_tokens: 36, completion_tokens: 16 });
    });

    it('carries tools as function declarations and the call back as tool_calls', async () => {
      const completion = await r.client.chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weather],
        tool_choice: 'required',
      });
      const call = completion.choices[0]?.message.tool_calls?.[0];
      expect(call?.type === 'function' && call.function.name).toBe('get_weather');
      expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
      expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
      expect(sent().body).toMatchObject({
        tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT' } }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      });
    });
  });

  describe('Claude models', () => {
    it('answers an OpenAI chat through rawPredict, with the Vertex model id and body', async () => {
      const completion = await r.client.chat.completions.create({
        model: CLAUDE,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
        max_tokens: 64,
      });
      expect(completion.choices[0]?.message.content).toBe(mock.behaviour.reply);
      // Prompt: input + cache reads + cache writes.
      expect(completion.usage).toMatchObject({ prompt_tokens: 38, completion_tokens: 11 });
      const request = sent();
      expect(request.path).toBe(modelPath('anthropic', 'claude-sonnet-4-5@20250929', 'rawPredict'));
      expect(request.headers.authorization).toMatch(/^Bearer ya29\.mock-\d+$/);
      expect(request.headers['x-api-key']).toBeUndefined();
      expect(request.body).toEqual({
        anthropic_version: 'vertex-2023-10-16',
        max_tokens: 64,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(await lastConsumeLog(r)).toMatchObject({
        model_name: CLAUDE,
        channel_id: channelId,
        prompt_tokens: 38,
        completion_tokens: 11,
      });
    });

    it('streams an OpenAI chat with tool-call arguments split across events', async () => {
      const stream = await r.client.chat.completions.create({
        model: CLAUDE,
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
      expect(usage).toMatchObject({ prompt_tokens: 38, completion_tokens: 11 });
      expect(sent().path).toBe(modelPath('anthropic', 'claude-sonnet-4-5@20250929', 'streamRawPredict'));
      expect(sent().body).toMatchObject({
        stream: true,
        tools: [{ name: 'get_weather', input_schema: weather.function.parameters }],
      });
    });

    it('passes an Anthropic request to Claude on Vertex unchanged, prompt-cache markers included', async () => {
      const system = [{ type: 'text' as const, text: 'Long context', cache_control: { type: 'ephemeral' as const } }];
      await claude.messages.create({
        model: CLAUDE,
        max_tokens: 20,
        system,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(sent().body.system).toEqual(system);
      expect(sent().body.anthropic_version).toBe('vertex-2023-10-16');
    });

    it('answers the Anthropic SDK, cache counts included', async () => {
      const message = await claude.messages.create({
        model: CLAUDE,
        max_tokens: 200,
        system: 'Answer briefly.',
        messages: [{ role: 'user', content: 'Hello?' }],
      });
      expect(message.content).toEqual([{ type: 'text', text: mock.behaviour.reply }]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage).toMatchObject({
        input_tokens: 30,
        cache_read_input_tokens: 6,
        cache_creation_input_tokens: 2,
        output_tokens: 11,
      });
      expect(sent().path).toBe(modelPath('anthropic', 'claude-sonnet-4-5@20250929', 'rawPredict'));
      expect(sent().body).toMatchObject({
        anthropic_version: 'vertex-2023-10-16',
        system: 'Answer briefly.',
        max_tokens: 200,
      });
      expect(sent().body).not.toHaveProperty('model');
      expect(await lastConsumeLog(r)).toMatchObject({ model_name: CLAUDE, prompt_tokens: 38, completion_tokens: 11 });
    });

    it('streams tool use to the Anthropic SDK', async () => {
      const stream = claude.messages.stream({
        model: CLAUDE,
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
      expect(final.content.find((block) => block.type === 'tool_use')).toMatchObject({
        name: 'get_weather',
        input: { city: 'Paris' },
      });
      expect(final.usage.output_tokens).toBe(11);
      expect(sent().path).toBe(modelPath('anthropic', 'claude-sonnet-4-5@20250929', 'streamRawPredict'));
    });
  });

  it('streams a Gemini model to the Anthropic SDK', async () => {
    const stream = claude.messages.stream({
      model: GEMINI,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    expect(text).toBe(mock.behaviour.reply);
    expect(final.usage.output_tokens).toBe(16);
    expect(sent().path).toBe(modelPath('google', GEMINI, 'streamGenerateContent?alt=sse'));
  });

  describe('errors', () => {
    it('passes a Vertex quota error on as 429 to both SDKs', async () => {
      mock.behaviour.failWith = {
        status: 429,
        body: fixtureJson('error-429-resource-exhausted.json'),
      };
      const openai = await r.client.chat.completions
        .create({ model: GEMINI, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((error: unknown) => error);
      expect(openai).toBeInstanceOf(OpenAI.RateLimitError);
      expect(String((openai as Error).message)).toContain('Quota exceeded');
      const anthropic = await claude.messages
        .create({ model: CLAUDE, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((error: unknown) => error);
      expect(anthropic).toBeInstanceOf(Anthropic.RateLimitError);
    });

    it("passes Claude's own refusal on in Anthropic's words", async () => {
      mock.behaviour.failWith = { status: 400, body: fixtureJson('error-400-claude-invalid-request.json') };
      const refused = await claude.messages
        .create({ model: CLAUDE, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect(String((refused as Error).message)).toContain('tool_use_id');
    });

    it('names a refused token exchange, without the private key', async () => {
      const error = await r.client.chat.completions
        .create({ model: BROKEN, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      const message = String((error as Error).message);
      expect(message).toContain('invalid_grant: Invalid JWT Signature.');
      expect(message).not.toContain('PRIVATE KEY');
      expect(mock.tokens.refused).toContain('Invalid JWT Signature.');
      // Nothing reached Vertex for that channel.
      expect(mock.received).toHaveLength(0);
    });
  });
});
