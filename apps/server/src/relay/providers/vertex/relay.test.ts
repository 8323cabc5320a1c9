import Anthropic from '@anthropic-ai/sdk';
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
  weatherTool,
} from '../../../../test/provider-relay.js';
import { startVertexMock } from '../../../../test/providers/vertex/mock-upstream.js';
import {
  fixtureJson,
  serviceAccountKey,
  type TestKeyPair,
  testKeyPair,
} from '../../../../test/providers/vertex/test-support.js';
import { providerType } from '../../../domain/channel-types/registry.js';
import { registerChatAdapter } from '../adapters.js';
import { createVertexAdapter } from './adapter.js';
import { ServiceAccountTokens, type TokenPost } from './token.js';

/**
 * Vertex AI end to end: a real relay, a `vertexai` channel whose key is a service-account key file,
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

describe('Vertex AI channels through the relay', () => {
  let keys: TestKeyPair;
  let account: Record<string, unknown>;

  beforeAll(() => {
    registerChatAdapter(providerType('vertexai'), createVertexAdapter(new ServiceAccountTokens(post, Date.now)));
    keys = testKeyPair();
    account = fixtureJson('service-account.json');
  });
  const relay = useProviderRelay({
    startMock: () =>
      startVertexMock({
        publicKey: keys.publicKey,
        clientEmail: String(account.client_email),
        keyId: String(account.private_key_id),
        project: PROJECT,
        region: REGION,
      }),
    channels: (mock) => ({
      vertex: {
        type: providerType('vertexai'),
        key: serviceAccountKey(keys.privateKey, { token_uri: mock.tokenUrl }),
        other: `${REGION}|${PROJECT}`,
        models: `${GEMINI},${CLAUDE}`,
      },
      // A key signed by another key pair: the token endpoint refuses its assertions.
      'vertex-wrong-key': {
        type: providerType('vertexai'),
        key: serviceAccountKey(testKeyPair().privateKey, {
          token_uri: mock.tokenUrl,
          client_email: 'impostor@vertex-e2e-project.iam.gserviceaccount.com',
        }),
        other: `${REGION}|${PROJECT}`,
        models: BROKEN,
      },
    }),
    prices: { [GEMINI]: [0.15, 1.25], [CLAUDE]: [1.5, 7.5], [BROKEN]: [0.1, 0.4] },
  });

  const modelPath = (publisher: string, model: string, method: string) =>
    `/v1/projects/${PROJECT}/locations/${REGION}/publishers/${publisher}/models/${model}:${method}`;

  describe('Gemini models, from the OpenAI SDK', () => {
    it('answers a chat with a token from the signed JWT, and bills Vertex usage incl. thoughts', async () => {
      const completion = await relay.openai.chat.completions.create({
        model: GEMINI,
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hello?' },
        ],
        max_tokens: 100,
      });
      expect(completion.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expect(completion.usage).toMatchObject({ prompt_tokens: 36, completion_tokens: 16, total_tokens: 52 });
      const request = relay.sent();
      expect(request.path).toBe(modelPath('google', GEMINI, 'generateContent'));
      expect(request.headers.authorization).toBe('Bearer ya29.mock-1');
      expect(request.body).toMatchObject({
        systemInstruction: { parts: [{ text: 'Answer in French.' }] },
        contents: [{ role: 'user', parts: [{ text: 'Hello?' }] }],
        generationConfig: { maxOutputTokens: 100 },
      });
      expect(relay.mock.tokens).toEqual({ issued: ['ya29.mock-1'], refused: [] });
      expect(await relay.lastConsumeLog()).toMatchObject({
        model_name: GEMINI,
        channel_id: relay.channelIds.vertex,
        prompt_tokens: 36,
        completion_tokens: 16,
      });
    });

    it('streams a chat in pieces with the usage chunk, reusing the cached token', async () => {
      const { text, pieces, finish, usage } = await relay.streamChat({
        model: GEMINI,
        messages: [{ role: 'user', content: 'Stream, please.' }],
        stream_options: { include_usage: true },
      });
      expect(text).toBe(relay.mock.behaviour.reply);
      expect(pieces).toBe(relay.mock.behaviour.chunks);
      expect(finish).toBe('stop');
      expect(usage).toMatchObject({ prompt_tokens: 36, completion_tokens: 16 });
      expect(relay.sent().path).toBe(modelPath('google', GEMINI, 'streamGenerateContent?alt=sse'));
      expect(relay.sent().headers.authorization).toBe('Bearer ya29.mock-1');
      expect(relay.mock.tokens.issued).toHaveLength(1);
      expect(await relay.lastConsumeLog()).toMatchObject({
        model_name: GEMINI,
        prompt_tokens: 36,
        completion_tokens: 16,
      });
    });

    it('carries tools as function declarations and the call back as tool_calls', async () => {
      const completion = await relay.openai.chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weatherTool],
        tool_choice: 'required',
      });
      expectWeatherToolCall(completion);
      expect(relay.sent().body).toMatchObject({
        tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT' } }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      });
    });
  });

  describe('Claude models', () => {
    it('answers an OpenAI chat through rawPredict, with the Vertex model id and body', async () => {
      const completion = await relay.openai.chat.completions.create({
        model: CLAUDE,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
        max_tokens: 64,
      });
      expect(completion.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      // Prompt: input + cache reads + cache writes.
      expect(completion.usage).toMatchObject({ prompt_tokens: 38, completion_tokens: 11 });
      const request = relay.sent();
      expect(request.path).toBe(modelPath('anthropic', 'claude-sonnet-4-5@20250929', 'rawPredict'));
      expect(request.headers.authorization).toMatch(/^Bearer ya29\.mock-\d+$/);
      expect(request.headers['x-api-key']).toBeUndefined();
      expect(request.body).toEqual({
        anthropic_version: 'vertex-2023-10-16',
        max_tokens: 64,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(await relay.lastConsumeLog()).toMatchObject({
        model_name: CLAUDE,
        channel_id: relay.channelIds.vertex,
        prompt_tokens: 38,
        completion_tokens: 11,
      });
    });

    it('streams an OpenAI chat with tool-call arguments split across events', async () => {
      const read = await relay.streamChat({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weatherTool],
        stream_options: { include_usage: true },
      });
      expectStreamedWeatherToolCall(read);
      expect(read.argumentFragments).toBe(3);
      expect(read.usage).toMatchObject({ prompt_tokens: 38, completion_tokens: 11 });
      expect(relay.sent().path).toBe(modelPath('anthropic', 'claude-sonnet-4-5@20250929', 'streamRawPredict'));
      expect(relay.sent().body).toMatchObject({
        stream: true,
        tools: [{ name: 'get_weather', input_schema: weatherTool.function.parameters }],
      });
    });

    it('passes an Anthropic request to Claude on Vertex unchanged, prompt-cache markers included', async () => {
      const system = [{ type: 'text' as const, text: 'Long context', cache_control: { type: 'ephemeral' as const } }];
      await relay.claude.messages.create({
        model: CLAUDE,
        max_tokens: 20,
        system,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(relay.sent().body.system).toEqual(system);
      expect(relay.sent().body.anthropic_version).toBe('vertex-2023-10-16');
    });

    it('answers the Anthropic SDK, cache counts included', async () => {
      const message = await relay.claude.messages.create({
        model: CLAUDE,
        max_tokens: 200,
        system: 'Answer briefly.',
        messages: [{ role: 'user', content: 'Hello?' }],
      });
      expect(message.content).toEqual([{ type: 'text', text: relay.mock.behaviour.reply }]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage).toMatchObject({
        input_tokens: 30,
        cache_read_input_tokens: 6,
        cache_creation_input_tokens: 2,
        output_tokens: 11,
      });
      expect(relay.sent().path).toBe(modelPath('anthropic', 'claude-sonnet-4-5@20250929', 'rawPredict'));
      expect(relay.sent().body).toMatchObject({
        anthropic_version: 'vertex-2023-10-16',
        system: 'Answer briefly.',
        max_tokens: 200,
      });
      expect(relay.sent().body).not.toHaveProperty('model');
      expect(await relay.lastConsumeLog()).toMatchObject({
        model_name: CLAUDE,
        prompt_tokens: 38,
        completion_tokens: 11,
      });
    });

    it('streams tool use to the Anthropic SDK', async () => {
      const { final } = await relay.streamMessage({
        model: CLAUDE,
        max_tokens: 100,
        tools: [anthropicWeatherTool],
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      expectWeatherToolUse(final);
      expect(final.usage.output_tokens).toBe(11);
      expect(relay.sent().path).toBe(modelPath('anthropic', 'claude-sonnet-4-5@20250929', 'streamRawPredict'));
    });
  });

  it('streams a Gemini model to the Anthropic SDK', async () => {
    const { text, final } = await relay.streamMessage({
      model: GEMINI,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(text).toBe(relay.mock.behaviour.reply);
    expect(final.usage.output_tokens).toBe(16);
    expect(relay.sent().path).toBe(modelPath('google', GEMINI, 'streamGenerateContent?alt=sse'));
  });

  describe('errors', () => {
    it('passes a Vertex quota error on as 429 to both SDKs', async () => {
      relay.mock.behaviour.failWith = {
        status: 429,
        body: fixtureJson('error-429-resource-exhausted.json'),
      };
      const openai = await expectRateLimitedForBothSdks(relay, { openai: GEMINI, anthropic: CLAUDE });
      expect(String(openai.message)).toContain('Quota exceeded');
    });

    it("passes Claude's own refusal on in Anthropic's words", async () => {
      relay.mock.behaviour.failWith = { status: 400, body: fixtureJson('error-400-claude-invalid-request.json') };
      const refused = await failureOf(
        relay.claude.messages.create({ model: CLAUDE, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect(String((refused as Error).message)).toContain('tool_use_id');
    });

    it('names a refused token exchange, without the private key', async () => {
      const error = await failureOf(
        relay.openai.chat.completions.create({ model: BROKEN, messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(error).toBeInstanceOf(OpenAI.APIError);
      const message = String((error as Error).message);
      expect(message).toContain('invalid_grant: Invalid JWT Signature.');
      expect(message).not.toContain('PRIVATE KEY');
      expect(relay.mock.tokens.refused).toContain('Invalid JWT Signature.');
      // Nothing reached Vertex for that channel.
      expect(relay.mock.received).toHaveLength(0);
    });
  });
});
