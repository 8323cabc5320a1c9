import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NativeUpstreams } from '../../../test/mocks/native-upstreams.js';
import { type NativeRelay, startNativeRelay } from '../../../test/native-relay.js';
import type { RelayTestContext } from '../../../test/relay-setup.js';
import { providerType } from '../../domain/channel-types/registry.js';

/**
 * A channel's other parameters (custom_parameter) and headers (model_headers) as its upstream
 * receives them, on OpenAI, Anthropic and Gemini channels, whether the client's request is passed
 * through or translated: One Hub's control keys (overwrite, per_model, pre_add) are honoured and
 * never sent, and the client's `stream` always stands.
 */

const OPENAI_FILL = 'gpt-fill';
const OPENAI_PER_MODEL = 'gpt-per-model';
const CLAUDE = 'claude-params';
const CLAUDE_PRE_ADD = 'claude-pre-add';
const GEMINI = 'gemini-params';

describe('channel parameters and headers through the relay', () => {
  let relay: NativeRelay;
  let r: RelayTestContext;
  let native: NativeUpstreams;
  const sentToOpenAi = () => r.upstream.received.at(-1);
  const sentToNative = () => native.received.at(-1);

  beforeAll(async () => {
    relay = await startNativeRelay({ claude: { input: 1, output: 1 }, gemini: { input: 1, output: 1 } });
    ({ r, native } = relay);
    const text = (value: unknown) => JSON.stringify(value);
    await r.addChannel({
      name: 'openai fill',
      models: OPENAI_FILL,
      custom_parameter: text({ temperature: 0.9, seed: 42, stream: true, overwrite: false }),
      model_headers: text({ 'X-Team': 'blue' }),
    });
    await r.addChannel({
      name: 'openai per model',
      models: OPENAI_PER_MODEL,
      custom_parameter: text({
        per_model: true,
        overwrite: true,
        seed: 1,
        [OPENAI_PER_MODEL]: { temperature: 0.9, top_p: 0.5 },
        'another-model': { temperature: 0 },
      }),
    });
    const anthropic = { type: providerType('anthropic'), key: native.behaviour.anthropicKey, base_url: native.url };
    await r.addChannel({
      ...anthropic,
      name: 'claude params',
      models: CLAUDE,
      custom_parameter: text({ overwrite: true, top_k: 5, max_tokens: 99, stream: false }),
      // A header of the channel never replaces the provider's own authentication.
      model_headers: text({ 'X-Team': 'red', 'x-api-key': 'sk-from-headers' }),
    });
    await r.addChannel({
      ...anthropic,
      name: 'claude pre-add',
      models: CLAUDE_PRE_ADD,
      custom_parameter: text({ pre_add: true, max_tokens: 77 }),
    });
    await r.addChannel({
      name: 'gemini params',
      type: providerType('gemini'),
      key: native.behaviour.geminiKey,
      base_url: native.url,
      models: GEMINI,
      custom_parameter: text({ cachedContent: 'cachedContents/params-1', safetySettings: [] }),
      model_headers: text({ 'X-Team': 'green' }),
    });
    for (const model of [OPENAI_FILL, OPENAI_PER_MODEL, CLAUDE, CLAUDE_PRE_ADD, GEMINI]) await r.setPrice(model, 1, 1);
  });
  afterAll(() => relay?.close());
  afterEach(() => {
    native.reset();
    r.upstream.received.length = 0;
  });

  const ask = (model: string, extra: Record<string, unknown> = {}) =>
    r.client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], ...extra });

  describe('an OpenAI channel', () => {
    it("fills what the client left out, keeps the client's values, and adds its headers", async () => {
      await ask(OPENAI_FILL, { temperature: 0.2 });
      const sent = sentToOpenAi();
      expect(sent?.body).toMatchObject({ model: OPENAI_FILL, temperature: 0.2, seed: 42 });
      expect(sent?.body).not.toHaveProperty('overwrite');
      // The channel's `stream: true` never turns the client's answer into a stream.
      expect(sent?.body).not.toHaveProperty('stream');
      expect(sent?.headers['x-team']).toBe('blue');
    });

    it('keeps the stream the client asked for, with usage still requested for billing', async () => {
      const stream = await r.client.chat.completions.create({
        model: OPENAI_FILL,
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      });
      for await (const _ of stream) {
        // read to the end
      }
      expect(sentToOpenAi()?.body).toMatchObject({ stream: true, seed: 42, stream_options: { include_usage: true } });
    });

    it("under per_model overwrites with the model's own member only", async () => {
      await ask(OPENAI_PER_MODEL, { temperature: 0.2 });
      const sent = sentToOpenAi()?.body;
      expect(sent).toMatchObject({ temperature: 0.9, top_p: 0.5 });
      for (const key of ['seed', 'per_model', 'overwrite', OPENAI_PER_MODEL, 'another-model']) {
        expect(sent).not.toHaveProperty(key);
      }
    });
  });

  describe('an Anthropic channel', () => {
    it('gets the parameters and headers on a request translated from OpenAI chat', async () => {
      await ask(CLAUDE, { max_tokens: 10 });
      const sent = sentToNative();
      expect(sent?.path).toBe('/v1/messages');
      expect(sent?.body).toMatchObject({ model: CLAUDE, top_k: 5, max_tokens: 99 });
      expect(sent?.body).not.toHaveProperty('overwrite');
      expect(sent?.body.stream).not.toBe(false);
      expect(sent?.headers['x-team']).toBe('red');
      expect(sent?.headers['x-api-key']).toBe(native.behaviour.anthropicKey);
    });

    it("gets them on a Claude client's streamed request passed through, which stays a stream", async () => {
      const stream = relay.claude.messages.stream({
        model: CLAUDE,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      await stream.finalMessage();
      const sent = sentToNative();
      expect(sent?.body).toMatchObject({ top_k: 5, max_tokens: 99, stream: true });
      expect(sent?.headers['x-team']).toBe('red');
      expect(sent?.headers['x-api-key']).toBe(native.behaviour.anthropicKey);
    });

    it("under pre_add gets them through the translation of the client's OpenAI request", async () => {
      await ask(CLAUDE_PRE_ADD);
      expect(sentToNative()?.body).toMatchObject({ model: CLAUDE_PRE_ADD, max_tokens: 77 });
      expect(sentToNative()?.body).not.toHaveProperty('pre_add');
      // The client's own value stands: pre-added parameters only fill.
      await ask(CLAUDE_PRE_ADD, { max_tokens: 12 });
      expect(sentToNative()?.body.max_tokens).toBe(12);
    });

    it('under pre_add adds nothing to requests of other surfaces, as in One Hub', async () => {
      await relay.claude.messages.create({
        model: CLAUDE_PRE_ADD,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(sentToNative()?.body.max_tokens).toBe(10);
    });
  });

  describe('a Gemini channel', () => {
    it('gets the parameters and headers on a request translated from OpenAI chat', async () => {
      await ask(GEMINI);
      const sent = sentToNative();
      expect(sent?.path).toContain(`/models/${GEMINI}:generateContent`);
      expect(sent?.body.cachedContent).toBe('cachedContents/params-1');
      // Without overwrite, the translation's own safety settings stand.
      expect(sent?.body.safetySettings).not.toEqual([]);
      expect(sent?.headers['x-team']).toBe('green');
      expect(sent?.headers['x-goog-api-key']).toBe(native.behaviour.geminiKey);
    });

    it("gets them on a Gemini client's request passed through", async () => {
      const answer = await relay.gemini.models.generateContent({ model: GEMINI, contents: 'Hi' });
      expect(answer.text).toBe(native.behaviour.reply);
      const sent = sentToNative();
      expect(sent?.body).toMatchObject({ cachedContent: 'cachedContents/params-1', safetySettings: [] });
      expect(sent?.headers['x-team']).toBe('green');
    });
  });
});
