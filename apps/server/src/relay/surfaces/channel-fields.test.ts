import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type GeminiUpstream, startGeminiUpstream } from '../../../test/providers/gemini/mock-upstream.js';
import { lastConsumeLog, type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import { providerType } from '../../domain/channel-types/registry.js';

/**
 * Channel fields and Gemini counts that change what the relay sends or bills: a Gemini channel's
 * plugin (`code_execution`, `use_openai_api`), `pre_cost` (the prompt pre-count that sizes the
 * reservation), `compatible_response` (Responses through chat), Gemini's per-modality usage on the
 * translated and native paths, a Gemini stream that ends early, and models listed by wildcard.
 */

let r: RelayTestContext;
let gemini: GeminiUpstream;
let origin: string;

const PLAIN = 'gemini-2.5-flash';
const CODE = 'gemini-code-model';
const OPENAI_MODE = 'gemini-openai-model';

beforeAll(async () => {
  r = await startRelayTest();
  gemini = await startGeminiUpstream();
  origin = r.baseURL.replace(/\/v1$/, '');
  const channel = (models: string, plugin?: unknown) =>
    r.addChannel({
      name: models,
      type: providerType('gemini'),
      key: gemini.behaviour.key,
      base_url: gemini.url,
      models,
      plugin,
    });
  await channel(PLAIN);
  await channel(CODE, { code_execution: { enable: true } });
  await channel(OPENAI_MODE, { use_openai_api: { enable: true } });
  // Image and audio tokens at their own ratios, so the bill shows which kind each count went to.
  for (const model of [PLAIN, CODE, OPENAI_MODE]) {
    await r.setPrice(model, 1, 2, {
      channel_type: providerType('gemini'),
      extra_ratios: { input_image_tokens: 3, output_image_tokens: 5, input_audio_tokens: 7 },
    });
  }
});
afterAll(async () => {
  await r?.close();
  await gemini?.close();
});
afterEach(() => {
  gemini.reset();
  r.upstream.received.length = 0;
});

const chat = (model: string, fields: Record<string, unknown> = {}) =>
  r.client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], ...fields });

describe('the Gemini channel plugin', () => {
  it('code_execution adds the code-execution tool to translated requests', async () => {
    await chat(CODE);
    expect(gemini.received.at(-1)?.body.tools).toEqual([{ codeExecution: {} }]);
    await chat(PLAIN);
    expect(gemini.received.at(-1)?.body.tools).toBeUndefined();
  });

  it("use_openai_api sends chat to Gemini's OpenAI-compatible endpoint, whole and streamed", async () => {
    const answer = await chat(OPENAI_MODE, { max_tokens: 50 });
    expect(answer.choices[0]?.message.content).toBe(gemini.behaviour.reply);
    const sent = gemini.received.at(-1);
    expect(sent?.path).toBe('/v1beta/openai/chat/completions');
    expect(sent?.headers.authorization).toBe(`Bearer ${gemini.behaviour.key}`);
    expect(sent?.headers['x-goog-api-key']).toBeUndefined();
    expect(sent?.body).toMatchObject({
      model: OPENAI_MODE,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Hi' }],
    });

    const stream = await r.client.chat.completions.create({
      model: OPENAI_MODE,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(gemini.behaviour.reply);
    expect(gemini.received.at(-1)?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    // Billed on the endpoint's usage: 12 prompt, 17 completion tokens at 1 and 2.
    expect(await lastConsumeLog(r)).toMatchObject({ prompt_tokens: 12, completion_tokens: 17, quota: 12 + 17 * 2 });
  });
});

describe("Gemini's per-modality counts", () => {
  // prompt: 40 text + 258 image (+ 25 audio); answer: 10 text + 1290 image tokens.
  const counts = () => {
    gemini.behaviour.prompt = { TEXT: 40, IMAGE: 258, AUDIO: 25 };
    gemini.behaviour.output = { TEXT: 10, IMAGE: 1290 };
  };
  // Each kind adds its count × (ratio − 1) to its side: (323 + 258×2 + 25×6)×1 + (1300 + 1290×4)×2.
  const expectedQuota = (323 + 258 * 2 + 25 * 6) * 1 + (1300 + 1290 * 4) * 2;

  it('are billed at their kinds’ ratios on the translated path', async () => {
    counts();
    await chat(PLAIN);
    expect(await lastConsumeLog(r)).toMatchObject({
      prompt_tokens: 323,
      completion_tokens: 1300,
      quota: expectedQuota,
    });
  });

  it('are billed at their kinds’ ratios on the native path', async () => {
    counts();
    const client = new GoogleGenAI({ apiKey: r.apiKey, httpOptions: { baseUrl: `${origin}/gemini` } });
    const answer = await client.models.generateContent({ model: PLAIN, contents: 'Hi' });
    expect(answer.text).toBe(gemini.behaviour.reply);
    expect(await lastConsumeLog(r)).toMatchObject({
      prompt_tokens: 323,
      completion_tokens: 1300,
      quota: expectedQuota,
    });
  });

  it('a translated stream that ends before its final event is billed for the text that came through', async () => {
    gemini.behaviour.cutAfter = 3;
    const stream = await r.client.chat.completions.create({
      model: PLAIN,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(10);
    expect(gemini.behaviour.reply.startsWith(text)).toBe(true);
    expect(text).not.toBe(gemini.behaviour.reply);
    const log = await lastConsumeLog(r);
    // Counted by our tokenizer: some tokens for what arrived, never the zero the partial counts report.
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBeLessThan(gemini.behaviour.output.TEXT);
    expect(log.prompt_tokens).toBeGreaterThan(0);
  });
});

describe('channel pre_cost', () => {
  it('sizes the reservation: the whole prompt, without its images, or none', async () => {
    // A user whose balance covers the answer but not a pre-count of this long prompt at this price.
    const { id, cookie } = await r.t.createUser('precost');
    await r.admin('POST', `/api/user/quota/${id}`, { quota: 300_000 });
    const key = await r.newKey(cookie);
    const client = new OpenAI({ apiKey: key, baseURL: r.baseURL, maxRetries: 0 });
    const images = Array.from({ length: 40 }, () => ({
      type: 'image_url' as const,
      image_url: { url: 'https://example.com/cat.png', detail: 'low' as const },
    }));
    const ask = (model: string, content: OpenAI.ChatCompletionContentPart[]) =>
      client.chat.completions.create({ model, messages: [{ role: 'user', content }] }).then(
        () => 'served',
        (error: unknown) => (error instanceof OpenAI.APIError ? error.status : error),
      );
    for (const [model, preCost] of [
      ['pc-all', 1],
      ['pc-no-images', 2],
      ['pc-none', 3],
    ] as const) {
      await r.addChannel({ name: model, models: model, pre_cost: preCost });
      // 1000 per prompt token: 40 images at 85 tokens each cost 3.4M, 30K characters of text 15M.
      await r.setPrice(model, 1000, 1);
    }
    const longText = 'word '.repeat(6000);
    // The whole prompt is pre-counted: images alone exceed the balance.
    expect(await ask('pc-all', images)).toBe(429);
    // Images left out of the pre-count: served; the text still counts.
    expect(await ask('pc-no-images', images)).toBe('served');
    expect(await ask('pc-no-images', [{ type: 'text', text: longText }])).toBe(429);
    // Nothing pre-counted: served, and billed on the upstream's usage.
    expect(await ask('pc-none', [{ type: 'text', text: longText }])).toBe('served');
    const { usage } = r.upstream.behaviour;
    expect(await lastConsumeLog(r)).toMatchObject({
      model_name: 'pc-none',
      quota: usage.prompt_tokens * 1000 + usage.completion_tokens,
    });
  });
});

describe('channel compatible_response', () => {
  it('sends a Responses request to a Responses-capable channel as chat when on', async () => {
    await r.addChannel({ name: 'responses-native', models: 'gpt-resp-native' });
    await r.addChannel({ name: 'responses-compat', models: 'gpt-resp-compat', compatible_response: true });
    for (const model of ['gpt-resp-native', 'gpt-resp-compat']) await r.setPrice(model, 1, 1);

    await r.client.responses.create({ model: 'gpt-resp-native', input: 'Hello' });
    expect(r.upstream.received.at(-1)?.path).toBe('/v1/responses');

    const answer = await r.client.responses.create({ model: 'gpt-resp-compat', input: 'Hello' });
    const sent = r.upstream.received.at(-1);
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.body.messages).toEqual([{ role: 'user', content: 'Hello' }]);
    expect(answer.output_text).toBe(r.upstream.behaviour.reply);
  });
});

describe('GET /v1/models/:model', () => {
  it('answers a model reachable only through a wildcard channel model, and 404 for others', async () => {
    await r.addChannel({ name: 'wildcard', models: 'wild-family-*' });
    const model = await r.client.models.retrieve('wild-family-large');
    expect(model).toMatchObject({ id: 'wild-family-large', object: 'model' });
    const missing = await r.client.models.retrieve('tame-family').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'model',
      code: 'model_not_found',
    });
  });
});
