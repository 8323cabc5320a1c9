import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { failureOf, useProviderRelay } from '../../../../test/provider-relay.js';
import { startRecraftMock } from '../../../../test/providers/recraft/mock-upstream.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * Recraft end to end: a real relay with Recraft channels pointing at a local Recraft that checks
 * the bearer key, the paths, the JSON bodies and the multipart forms field by field. Image
 * generation is driven by the official OpenAI SDK (at /v1 and at /recraftAI/v1) and billed on
 * size-weighted image tokens; the tools under /recraftAI/v1 are posted as forms and billed once
 * per call at their `times` price, on Recraft channels only. Also: no chat, the balance query,
 * and the channel test's refusal.
 */

const RECRAFT = providerType('recraft');
const OPENAI = providerType('openai');
const IMAGE = 'recraftv3';
const IMAGE_RATIO = 0.02;
const WRONG_KEY_MODEL = 'recraftv2';
const CHAT = 'gpt-4o-mini';
const TOOL_RATIO = 4;
const TOOLS = ['vectorize', 'removeBackground', 'clarityUpscale'] as const;
/** Listed by the OpenAI channel only: never relayed. */
const NOT_ON_RECRAFT = 'generativeUpscale';
const OPENAI_CHANNEL_KEY = 'sk-openai-channel-listing-recraft-tools';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);

describe('Recraft channels through the relay', () => {
  const relay = useProviderRelay({
    startMock: startRecraftMock,
    channels: (mock) => ({
      recraft: {
        type: RECRAFT,
        key: mock.behaviour.apiKey,
        models: [IMAGE, CHAT, ...TOOLS.map((tool) => `recraft_${tool}`), 'recraft_styles'].join(','),
        priority: 10,
      },
      'recraft-wrong-key': { type: RECRAFT, key: 'not-the-token', models: WRONG_KEY_MODEL },
      // An OpenAI channel that lists Recraft's tools, at the top priority: it must never get them.
      'openai-listing-tools': {
        type: OPENAI,
        key: OPENAI_CHANNEL_KEY,
        models: `recraft_vectorize,recraft_${NOT_ON_RECRAFT}`,
        priority: 20,
      },
    }),
    prices: { [IMAGE]: [IMAGE_RATIO, 0], [WRONG_KEY_MODEL]: [IMAGE_RATIO, 0] },
  });

  beforeAll(async () => {
    for (const tool of [...TOOLS, NOT_ON_RECRAFT, 'styles']) {
      await relay.context.setPrice(`recraft_${tool}`, TOOL_RATIO, 0, { type: 'times' });
    }
  });

  const recraftClient = () =>
    new OpenAI({
      apiKey: relay.context.apiKey,
      baseURL: relay.context.baseURL.replace(/\/v1$/, '/recraftAI/v1'),
      maxRetries: 0,
    });
  const postForm = (path: string, form: FormData) =>
    fetch(relay.context.baseURL.replace(/\/v1$/, `/recraftAI/v1${path}`), {
      method: 'POST',
      headers: { authorization: `Bearer ${relay.context.apiKey}` },
      body: form,
    });
  const imageForm = (fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'logo.png');
    return form;
  };
  const neverSentByOpenAiChannel = () =>
    expect(relay.mock.received.some((request) => request.headers.authorization?.includes(OPENAI_CHANNEL_KEY))).toBe(
      false,
    );

  it("generates images in OpenAI's format at /v1 and /recraftAI/v1, billing vector styles double", async () => {
    const generate = { model: IMAGE, prompt: 'a red fox', style: 'vector_illustration', n: 2 } as unknown as Omit<
      OpenAI.ImageGenerateParams,
      'stream'
    >;
    for (const client of [relay.openai, recraftClient()]) {
      const before = await relay.storedQuota();
      const images = await client.images.generate(generate);
      expect(images.data?.map((image) => image.url)).toEqual([
        'https://img.recraft.ai/mock/img-0.png',
        'https://img.recraft.ai/mock/img-1.png',
      ]);
      const sent = relay.sent();
      expect(sent).toMatchObject({ method: 'POST', path: '/v1/images/generations' });
      expect(sent.headers.authorization).toBe(`Bearer ${relay.mock.behaviour.apiKey}`);
      expect(sent.body).toEqual({ model: IMAGE, prompt: 'a red fox', style: 'vector_illustration', n: 2 });
      // 2 images × 2000 "tokens" (vector_illustration is twice 1000) at 0.02.
      expect(before - (await relay.storedQuota())).toBe(2 * 2000 * IMAGE_RATIO);
      expect(await relay.lastConsumeLog()).toMatchObject({ model_name: IMAGE, prompt_tokens: 4000 });
    }
  });

  it("passes Recraft's own 400 on as the client's error, charging nothing", async () => {
    const before = await relay.storedQuota();
    const error = await failureOf(relay.openai.images.generate({ model: IMAGE, prompt: 'fox', n: 9 }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('n must be from 1 to 6');
    expect(await relay.storedQuota()).toBe(before);
  });

  it("passes each image tool's form to Recraft unchanged and bills one call at its times price", async () => {
    for (const tool of TOOLS) {
      const before = await relay.storedQuota();
      const response = await postForm(`/images/${tool}`, imageForm({ response_format: 'url' }));
      expect(response.status, await response.clone().text()).toBe(200);
      expect(await response.json()).toMatchObject({ image: { url: `https://img.recraft.ai/mock/${tool}-1.png` } });
      const sent = relay.sent();
      expect(sent).toMatchObject({ method: 'POST', path: `/v1/images/${tool}`, body: { response_format: 'url' } });
      expect(sent.headers.authorization).toBe(`Bearer ${relay.mock.behaviour.apiKey}`);
      expect(sent.files).toHaveLength(1);
      expect(sent.files[0]).toMatchObject({ field: 'file', filename: 'logo.png', type: 'image/png' });
      expect(sent.files[0]?.bytes.equals(PNG)).toBe(true);
      // No model field added to the form.
      expect(sent.body).not.toHaveProperty('model');
      expect(before - (await relay.storedQuota())).toBe(1000 * TOOL_RATIO);
      expect(await relay.lastConsumeLog()).toMatchObject({ model_name: `recraft_${tool}` });
    }
    neverSentByOpenAiChannel();
  });

  it('creates a style from a form with the style and several images', async () => {
    const form = new FormData();
    form.append('style', 'digital_illustration');
    form.append('file1', new Blob([PNG], { type: 'image/png' }), 'a.png');
    form.append('file2', new Blob([PNG], { type: 'image/png' }), 'b.png');
    const before = await relay.storedQuota();
    const response = await postForm('/styles', form);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: '229b2a75-05e4-4580-85f9-b47ee521a00d' });
    expect(relay.sent()).toMatchObject({ path: '/v1/styles', body: { style: 'digital_illustration' } });
    expect(relay.sent().files.map((file) => file.field)).toEqual(['file1', 'file2']);
    expect(before - (await relay.storedQuota())).toBe(1000 * TOOL_RATIO);
    expect(await relay.lastConsumeLog()).toMatchObject({ model_name: 'recraft_styles' });
  });

  it('refuses a tool call without its file, or naming another model, before any call or charge', async () => {
    const before = await relay.storedQuota();
    const noFile = new FormData();
    noFile.append('response_format', 'url');
    const missing = await postForm('/images/vectorize', noFile);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { param: string } }).error.param).toBe('file');
    const otherModel = await postForm('/images/vectorize', imageForm({ model: CHAT }));
    expect(otherModel.status).toBe(400);
    expect(((await otherModel.json()) as { error: { message: string } }).error.message).toContain('recraft_vectorize');
    const json = await fetch(relay.context.baseURL.replace(/\/v1$/, '/recraftAI/v1/images/vectorize'), {
      method: 'POST',
      headers: { authorization: `Bearer ${relay.context.apiKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    expect(relay.mock.received).toHaveLength(0);
    expect(await relay.storedQuota()).toBe(before);
  });

  it('relays the tools to Recraft channels only: another type listing the model is skipped', async () => {
    const before = await relay.storedQuota();
    const response = await postForm(`/images/${NOT_ON_RECRAFT}`, imageForm());
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('cannot serve');
    expect(relay.mock.received).toHaveLength(0);
    expect(relay.context.upstream.received.every((request) => !request.path.includes(NOT_ON_RECRAFT))).toBe(true);
    expect(await relay.storedQuota()).toBe(before);
  });

  it('serves no chat: a chat for a model it lists goes to the OpenAI channel', async () => {
    const completion = await relay.openai.chat.completions.create({
      model: CHAT,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]?.message.content).toBeTruthy();
    expect(relay.mock.received).toHaveLength(0);
  });

  it("reads the balance from /v1/users/me as US dollars (1000 credits each), and a bad key's error", async () => {
    const checked = await relay.context.admin('GET', `/api/channel/update_balance/${relay.channelIds.recraft}`);
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ success: true, balance: 12.345 });
    expect(relay.sent()).toMatchObject({ method: 'GET', path: '/v1/users/me' });
    expect(relay.sent().headers.authorization).toBe(`Bearer ${relay.mock.behaviour.apiKey}`);
    const stored = await relay.context.admin('GET', `/api/channel/${relay.channelIds.recraft}`);
    expect(Number((stored.body.data as { balance: number }).balance)).toBe(12.345);

    const refused = await relay.context.admin(
      'GET',
      `/api/channel/update_balance/${relay.channelIds['recraft-wrong-key']}`,
    );
    expect(refused.status).toBe(502);
    expect(refused.body.message).toContain('Invalid or missing API token');
  });

  it('has no channel test (a test image costs credits) and sends nothing', async () => {
    const tested = await relay.context.admin('GET', `/api/channel/test/${relay.channelIds.recraft}?model=${IMAGE}`);
    expect(tested.status).toBe(400);
    expect(tested.body.message).toContain('Recraft AI');
    expect(relay.mock.received).toHaveLength(0);
  });
});
