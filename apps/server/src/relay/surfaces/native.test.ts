import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NativeUpstreams } from '../../../test/mocks/native-upstreams.js';
import { CLAUDE, GEMINI, type NativeRelay, startNativeRelay } from '../../../test/native-relay.js';
import { lastConsumeLog, type RelayTestContext } from '../../../test/relay-setup.js';

/**
 * The native surfaces end to end, driven by the providers' official SDKs: Anthropic Messages and
 * Gemini in, each of OpenAI, Anthropic and Gemini upstreams out (passed through when the formats
 * match, translated otherwise), and OpenAI chat clients reaching Anthropic and Gemini channels.
 */

const GPT = 'gpt-4o-mini';

const weatherTool = {
  name: 'get_weather',
  description: 'Gets the weather of a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('native surfaces with the official SDKs', () => {
  let r: RelayTestContext;
  let native: NativeUpstreams;
  let origin: string;
  let claude: Anthropic;
  let gemini: GoogleGenAI;
  let relay: NativeRelay;

  beforeAll(async () => {
    relay = await startNativeRelay({ claude: { input: 1.5, output: 7.5 }, gemini: { input: 0.15, output: 1.25 } });
    ({ r, native, origin, claude, gemini } = relay);
    // A 429 below must not rest the only Claude channel for the tests after it.
    await r.t.services.options.update('RetryCooldownSeconds', '0');
  });
  afterAll(() => relay?.close());
  afterEach(() => {
    native.reset();
    r.upstream.received.length = 0;
  });

  describe('Anthropic Messages in', () => {
    it('passes a Claude request through to an Anthropic channel and bills its usage, cache tokens included', async () => {
      const message = await claude.messages.create({
        model: CLAUDE,
        max_tokens: 200,
        system: 'Answer briefly.',
        messages: [{ role: 'user', content: 'Hello?' }],
      });
      expect(message.content).toEqual([{ type: 'text', text: native.behaviour.reply }]);
      expect(message.usage).toMatchObject({ input_tokens: 21, cache_read_input_tokens: 5, output_tokens: 9 });
      const sent = native.received.at(-1);
      expect(sent?.path).toBe('/v1/messages');
      expect(sent?.headers['x-api-key']).toBe(native.behaviour.anthropicKey);
      // The client's API version (and betas) go upstream with its request.
      expect(sent?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(sent?.body).toMatchObject({ model: CLAUDE, system: 'Answer briefly.', max_tokens: 200 });
      const log = await lastConsumeLog(r);
      expect(log).toMatchObject({ model_name: CLAUDE, prompt_tokens: 21 + 5 + 3, completion_tokens: 9 });
    });

    it('streams from an Anthropic channel byte for byte, and bills the usage of the events', async () => {
      const stream = claude.messages.stream({
        model: CLAUDE,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      const deltas: string[] = [];
      stream.on('text', (text) => deltas.push(text));
      const final = await stream.finalMessage();
      expect(deltas.join('')).toBe(native.behaviour.reply);
      expect(deltas.length).toBe(native.behaviour.chunks);
      expect(final.stop_reason).toBe('end_turn');
      expect(native.received.at(-1)?.body.stream).toBe(true);
      expect(await lastConsumeLog(r)).toMatchObject({ prompt_tokens: 29, completion_tokens: 9 });
    });

    it('translates a Claude request for an OpenAI channel, and the answer back', async () => {
      const message = await claude.messages.create({
        model: GPT,
        max_tokens: 100,
        system: 'Answer briefly.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello there' }] }],
      });
      expect(message.type).toBe('message');
      expect(message.content).toEqual([{ type: 'text', text: r.upstream.behaviour.reply }]);
      expect(message.stop_reason).toBe('end_turn');
      const sent = r.upstream.received.at(-1);
      expect(sent?.path).toBe('/v1/chat/completions');
      expect(sent?.body.messages).toEqual([
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: [{ type: 'text', text: 'Hello there' }] },
      ]);
      expect(sent?.body.max_tokens ?? sent?.body.max_completion_tokens).toBe(100);
      const { usage } = r.upstream.behaviour;
      expect(message.usage).toMatchObject({
        input_tokens: usage.prompt_tokens,
        output_tokens: usage.completion_tokens,
      });
      expect(await lastConsumeLog(r)).toMatchObject({ model_name: GPT, prompt_tokens: usage.prompt_tokens });
    });

    it('streams a translated answer as the event sequence the Anthropic SDK expects', async () => {
      const stream = claude.messages.stream({
        model: GPT,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      let text = '';
      stream.on('text', (delta) => {
        text += delta;
      });
      const final = await stream.finalMessage();
      expect(text).toBe(r.upstream.behaviour.reply);
      expect(final.content).toEqual(
        [{ type: 'text', text: r.upstream.behaviour.reply, citations: null }].map(
          ({ citations: _c, ...block }) => block,
        ),
      );
      expect(final.usage.output_tokens).toBe(r.upstream.behaviour.usage.completion_tokens);
      // Usage is always asked of the upstream, even though the Anthropic client never says so.
      expect(r.upstream.received.at(-1)?.body.stream_options).toEqual({ include_usage: true });
    });

    it('carries tools to a Gemini channel and the function call back as tool_use', async () => {
      const message = await claude.messages.create({
        model: GEMINI,
        max_tokens: 100,
        tools: [weatherTool],
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      expect(message.stop_reason).toBe('tool_use');
      const call = message.content.find((block) => block.type === 'tool_use');
      expect(call).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
      const sent = native.received.at(-1);
      expect(sent?.path).toMatch(/^\/v1beta\/models\/gemini-2\.5-flash:generateContent/);
      const declarations = (
        (sent?.body.tools ?? []) as Array<{ functionDeclarations?: Array<{ name: string }> }>
      ).flatMap((tool) => tool.functionDeclarations ?? []);
      expect(declarations.map((declaration) => declaration.name)).toEqual(['get_weather']);
    });

    it('answers errors in Anthropic format: a bad key, and an upstream that is rate limited', async () => {
      const stranger = new Anthropic({ apiKey: `sk-${'x'.repeat(48)}`, baseURL: origin, maxRetries: 0 });
      const refused = await stranger.messages
        .create({ model: CLAUDE, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Anthropic.AuthenticationError);
      expect((refused as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
        type: 'error',
        error: { type: 'authentication_error' },
      });

      native.behaviour.failWith = {
        status: 429,
        body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
      };
      const limited = await claude.messages
        .create({ model: CLAUDE, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((error: unknown) => error);
      expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
      expect(String((limited as Error).message)).toContain('slow down');

      const invalid = await claude.messages
        .create({ model: CLAUDE, max_tokens: 10, messages: [] })
        .catch((error: unknown) => error);
      expect(invalid).toBeInstanceOf(Anthropic.BadRequestError);
      expect(String((invalid as Error).message)).toContain('messages');
    });

    it('counts tokens and lists the models this key may use, also under /claude', async () => {
      const counted = await claude.messages.countTokens({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'How many tokens is this sentence?' }],
      });
      expect(counted.input_tokens).toBeGreaterThan(5);
      const models = await claude.models.list();
      expect(models.data.map((model) => model.id)).toEqual(expect.arrayContaining([CLAUDE, GEMINI, GPT]));
      const prefixed = new Anthropic({ apiKey: r.apiKey, baseURL: `${origin}/claude`, maxRetries: 0 });
      const message = await prefixed.messages.create({
        model: CLAUDE,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(message.content[0]).toMatchObject({ type: 'text' });
    });
  });

  describe('Gemini in', () => {
    it('passes a Gemini request through to a Gemini channel, streaming and not', async () => {
      const answer = await gemini.models.generateContent({
        model: GEMINI,
        contents: 'Hello?',
        config: { systemInstruction: 'Answer briefly.' },
      });
      expect(answer.text).toBe(native.behaviour.reply);
      expect(answer.usageMetadata?.cachedContentTokenCount).toBe(5);
      const sent = native.received.at(-1);
      expect(sent?.headers['x-goog-api-key']).toBe(native.behaviour.geminiKey);
      expect(sent?.path).not.toContain(r.apiKey);
      expect(sent?.body.systemInstruction).toBeDefined();
      expect(await lastConsumeLog(r)).toMatchObject({ model_name: GEMINI, prompt_tokens: 26, completion_tokens: 9 });

      let streamed = '';
      for await (const chunk of await gemini.models.generateContentStream({ model: GEMINI, contents: 'Hi' })) {
        streamed += chunk.text ?? '';
      }
      expect(streamed).toBe(native.behaviour.reply);
      expect(native.received.at(-1)?.path).toContain(':streamGenerateContent?alt=sse');
    });

    it('translates a Gemini request for an OpenAI channel, streaming and not', async () => {
      const answer = await gemini.models.generateContent({ model: GPT, contents: 'Hello there' });
      expect(answer.text).toBe(r.upstream.behaviour.reply);
      expect(answer.usageMetadata?.promptTokenCount).toBe(r.upstream.behaviour.usage.prompt_tokens);
      expect(r.upstream.received.at(-1)?.body.messages).toEqual([{ role: 'user', content: 'Hello there' }]);

      let streamed = '';
      for await (const chunk of await gemini.models.generateContentStream({ model: GPT, contents: 'Hi' })) {
        streamed += chunk.text ?? '';
      }
      expect(streamed).toBe(r.upstream.behaviour.reply);
    });

    it('carries function declarations to an Anthropic channel and the call back', async () => {
      const answer = await gemini.models.generateContent({
        model: CLAUDE,
        contents: 'Weather in Paris?',
        config: {
          tools: [
            {
              functionDeclarations: [
                {
                  name: 'get_weather',
                  description: 'Gets the weather of a city',
                  parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
                },
              ],
            },
          ],
        },
      });
      expect(answer.functionCalls?.[0]).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
      expect(((native.received.at(-1)?.body.tools ?? []) as Array<{ name: string }>)[0]?.name).toBe('get_weather');
    });

    it('answers errors in Gemini format, and lists the models', async () => {
      const stranger = new GoogleGenAI({ apiKey: 'not-a-key', httpOptions: { baseUrl: `${origin}/gemini` } });
      const refused = await stranger.models
        .generateContent({ model: GEMINI, contents: 'Hi' })
        .catch((error: unknown) => error);
      expect(String(refused)).toContain('401');
      const listed = await fetch(`${origin}/gemini/v1beta/models`, { headers: { 'x-goog-api-key': r.apiKey } });
      const names = ((await listed.json()) as { models: Array<{ name: string }> }).models.map((model) => model.name);
      expect(names).toEqual(expect.arrayContaining([`models/${GEMINI}`, `models/${CLAUDE}`]));
      const unknown = await fetch(`${origin}/gemini/v1beta/models/${GEMINI}:embedContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': r.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ content: { parts: [{ text: 'x' }] } }),
      });
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
    });
  });

  describe('OpenAI chat in', () => {
    it('reaches an Anthropic channel, tools and all, streaming and not', async () => {
      const completion = await r.client.chat.completions.create({
        model: CLAUDE,
        messages: [
          { role: 'system', content: 'Use tools.' },
          { role: 'user', content: 'Weather in Paris?' },
        ],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherTool.input_schema } }],
      });
      expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
      const call = completion.choices[0]?.message.tool_calls?.[0];
      expect(call?.type === 'function' && call.function).toMatchObject({ name: 'get_weather' });
      expect(JSON.parse(call?.type === 'function' ? call.function.arguments : '{}')).toEqual({ city: 'Paris' });
      const sent = native.received.at(-1);
      expect(sent?.body).toMatchObject({ system: 'Use tools.', model: CLAUDE });
      expect(((sent?.body.tools ?? []) as Array<{ input_schema: unknown }>)[0]?.input_schema).toEqual(
        weatherTool.input_schema,
      );

      const stream = await r.client.chat.completions.create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe(native.behaviour.reply);
      expect(usage).toMatchObject({ prompt_tokens: 29, completion_tokens: 9 });
    });

    it('reaches a Gemini channel and leaves the usage chunk out when the client did not ask', async () => {
      const completion = await r.client.chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(completion.choices[0]?.message.content).toBe(native.behaviour.reply);
      expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(5);
      const stream = await r.client.chat.completions.create({
        model: GEMINI,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      });
      let text = '';
      let sawUsage = false;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        sawUsage ||= Boolean(chunk.usage);
      }
      expect(text).toBe(native.behaviour.reply);
      expect(sawUsage).toBe(false);
      expect(await lastConsumeLog(r)).toMatchObject({ model_name: GEMINI, prompt_tokens: 26, completion_tokens: 9 });
    });
  });
});

describe('the Responses API on channels without it', () => {
  let relay: NativeRelay;
  let r: RelayTestContext;
  let native: NativeUpstreams;

  beforeAll(async () => {
    relay = await startNativeRelay({ claude: { input: 1.5, output: 7.5 }, gemini: { input: 0.15, output: 1.25 } });
    ({ r, native } = relay);
  });
  afterAll(() => relay?.close());

  it('translates a Responses request for an Anthropic channel, whole and streamed', async () => {
    const response = await r.client.responses.create({
      model: CLAUDE,
      instructions: 'Answer briefly.',
      input: 'Hello?',
      max_output_tokens: 64,
    });
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe(native.behaviour.reply);
    expect(response.instructions).toBe('Answer briefly.');
    expect(response.usage).toMatchObject({ input_tokens: 29, output_tokens: 9 });
    expect(native.received.at(-1)?.body).toMatchObject({ system: 'Answer briefly.', max_tokens: 64 });
    expect(await lastConsumeLog(r)).toMatchObject({ model_name: CLAUDE, prompt_tokens: 29, completion_tokens: 9 });

    const stream = r.client.responses.stream({ model: CLAUDE, input: 'Hi' });
    let text = '';
    stream.on('response.output_text.delta', (event) => {
      text += event.delta;
    });
    const final = await stream.finalResponse();
    expect(text).toBe(native.behaviour.reply);
    expect(final.output_text).toBe(native.behaviour.reply);
    expect(final.usage?.output_tokens).toBe(9);
  });

  it('turns function tools into Anthropic tools and the call into a function_call item', async () => {
    const response = await r.client.responses.create({
      model: CLAUDE,
      input: 'Weather in Paris?',
      tools: [{ type: 'function', name: 'get_weather', parameters: weatherTool.input_schema, strict: false }],
    });
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather' });
    expect(JSON.parse(call?.type === 'function_call' ? call.arguments : '{}')).toEqual({ city: 'Paris' });
  });

  it('still passes Responses requests through to OpenAI channels', async () => {
    const response = await r.client.responses.create({ model: GPT, input: 'Hello?' });
    expect(r.upstream.received.at(-1)?.path).toBe('/v1/responses');
    expect(response.object).toBe('response');
  });
});
