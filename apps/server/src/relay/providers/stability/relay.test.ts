import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { failureOf, useProviderRelay } from '../../../../test/provider-relay.js';
import { mockImage, startStabilityMock } from '../../../../test/providers/stability/mock-upstream.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * Stability AI end to end: a relay with Stability channels pointing at a local Stable Image API
 * that checks the bearer key, the path of each service and every field of the multipart form.
 * Driven by the official OpenAI SDK: images come back in OpenAI's shape (base64 or data URL), one
 * call per image, billed per image; Stability's errors and its content filter become clear errors
 * that charge nothing; the channel test makes one image.
 */

const STABILITY = providerType('stability');
const CORE = 'stable-image-core';
const ULTRA = 'stable-image-ultra';
const SD35 = 'sd3.5-large';
const UNKNOWN_MODEL = 'stable-diffusion-v1-6';
const WRONG_KEY_MODEL = 'sd3-medium';
/** $0.03 an image: 1000 "tokens" an image at 15 quota per 1000. */
const RATIO = 15;
const PER_IMAGE = 1000 * RATIO;

type Generate = Omit<OpenAI.ImageGenerateParams, 'stream'> & Record<string, unknown>;

describe('Stability AI channels through the relay', () => {
  const relay = useProviderRelay({
    startMock: startStabilityMock,
    channels: (mock) => ({
      stability: { type: STABILITY, key: mock.behaviour.apiKey, models: [CORE, ULTRA, SD35, UNKNOWN_MODEL].join(',') },
      'stability-wrong-key': { type: STABILITY, key: 'sk-not-the-stability-key', models: WRONG_KEY_MODEL },
    }),
    prices: { [CORE]: [RATIO, 0], [ULTRA]: [RATIO, 0], [SD35]: [RATIO, 0], [WRONG_KEY_MODEL]: [RATIO, 0] },
  });

  const generate = (params: Generate) => relay.openai.images.generate(params as OpenAI.ImageGenerateParamsNonStreaming);
  const generations = () => relay.mock.received.filter((request) => request.path.startsWith('/v2beta/'));

  it('makes a core image from a form with the aspect ratio nearest the size, as base64, billed per image', async () => {
    const before = await relay.storedQuota();
    const images = await generate({
      model: CORE,
      prompt: 'a lighthouse at dusk',
      size: '1792x1024',
      response_format: 'b64_json',
    });
    const sent = relay.sent();
    expect(sent).toMatchObject({ method: 'POST', path: '/v2beta/stable-image/generate/core', files: [] });
    expect(sent.headers.authorization).toBe(`Bearer ${relay.mock.behaviour.apiKey}`);
    expect(sent.headers.accept).toBe('application/json');
    expect(sent.fields).toEqual({ prompt: 'a lighthouse at dusk', aspect_ratio: '16:9', output_format: 'png' });
    expect(images.data).toEqual([{ b64_json: mockImage(sent.fields).toString('base64') }]);
    expect(before - (await relay.storedQuota())).toBe(PER_IMAGE);
    expect(await relay.lastConsumeLog()).toMatchObject({ model_name: CORE, prompt_tokens: 1000, quota: PER_IMAGE });
  });

  it('answers url requests with data URLs, in the output format asked for', async () => {
    const images = await generate({ model: ULTRA, prompt: 'a fox', size: '1024x1536', output_format: 'jpeg' });
    const sent = relay.sent();
    expect(sent.path).toBe('/v2beta/stable-image/generate/ultra');
    expect(sent.fields).toEqual({ prompt: 'a fox', aspect_ratio: '2:3', output_format: 'jpeg' });
    expect(images.data?.[0]?.url).toBe(`data:image/jpeg;base64,${mockImage(sent.fields).toString('base64')}`);
  });

  it('sends sd3 models with their name, one call per image with consecutive seeds, and bills n images', async () => {
    const before = await relay.storedQuota();
    const images = await generate({
      model: SD35,
      prompt: 'three cats',
      n: 3,
      seed: 7,
      negative_prompt: 'dogs',
      response_format: 'b64_json',
    });
    const sent = generations();
    expect(sent).toHaveLength(3);
    for (const request of sent) {
      expect(request.path).toBe('/v2beta/stable-image/generate/sd3');
      expect(request.fields).toMatchObject({ prompt: 'three cats', negative_prompt: 'dogs', model: SD35 });
      expect(request.fields).not.toHaveProperty('aspect_ratio');
    }
    expect(sent.map((request) => request.fields.seed).sort()).toEqual(['7', '8', '9']);
    const bySeed = [...sent].sort((left, right) => Number(left.fields.seed) - Number(right.fields.seed));
    expect(images.data?.map((image) => image.b64_json)).toEqual(
      bySeed.map((request) => mockImage(request.fields).toString('base64')),
    );
    expect(before - (await relay.storedQuota())).toBe(3 * PER_IMAGE);
    expect(await relay.lastConsumeLog()).toMatchObject({ model_name: SD35, prompt_tokens: 3000 });
  });

  it("turns Stability's moderation refusal into the client's 400 without disabling the channel", async () => {
    const before = await relay.storedQuota();
    const error = await failureOf(generate({ model: CORE, prompt: 'something forbidden' }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('content_moderation');
    expect(await relay.storedQuota()).toBe(before);
    const channel = await relay.context.admin('GET', `/api/channel/${relay.channelIds.stability}`);
    expect(channel.body.data).toMatchObject({ status: 1 });
  });

  it('reports a filtered image as a content-policy 400, on the first image or a later one, charging nothing', async () => {
    const before = await relay.storedQuota();
    const first = await failureOf(generate({ model: CORE, prompt: 'a filtered scene' }));
    expect(first).toBeInstanceOf(OpenAI.BadRequestError);
    expect((first as Error).message).toContain('content filter');
    relay.mock.reset();
    relay.mock.behaviour.filterCall = 2;
    const later = await failureOf(generate({ model: CORE, prompt: 'two birds', n: 2 }));
    expect(later).toBeInstanceOf(OpenAI.BadRequestError);
    expect((later as Error).message).toContain('CONTENT_FILTERED');
    expect(generations()).toHaveLength(2);
    expect(await relay.storedQuota()).toBe(before);
  });

  it("passes Stability's own 400 on, and refuses what it cannot send without calling Stability", async () => {
    const before = await relay.storedQuota();
    const refused = await failureOf(generate({ model: SD35, prompt: 'x', output_format: 'tiff' as 'png' }));
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as Error).message).toContain('output_format');
    const format = await failureOf(generate({ model: CORE, prompt: 'x', response_format: 'gif' as 'url' }));
    expect(format).toBeInstanceOf(OpenAI.BadRequestError);
    expect((format as Error).message).toContain('response_format');
    const model = await failureOf(generate({ model: UNKNOWN_MODEL, prompt: 'x' }));
    expect(model).toBeInstanceOf(OpenAI.BadRequestError);
    expect((model as Error).message).toContain('stable-image-core');
    expect(generations()).toHaveLength(0);
    expect(await relay.storedQuota()).toBe(before);
  });

  it("reports a wrong key and an empty account as the channel's failures, never echoing the key", async () => {
    const wrongKey = await failureOf(generate({ model: WRONG_KEY_MODEL, prompt: 'x' }));
    expect(wrongKey).toBeInstanceOf(OpenAI.APIError);
    expect((wrongKey as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((wrongKey as Error).message).toContain('unauthorized');
    expect((wrongKey as Error).message).not.toContain('sk-not-the-stability-key');
    relay.mock.behaviour.outOfCredits = true;
    const broke = await failureOf(generate({ model: CORE, prompt: 'x' }));
    expect((broke as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((broke as Error).message).toContain('payment_required');
  });

  it('serves no chat', async () => {
    const error = await failureOf(
      relay.openai.chat.completions.create({ model: CORE, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('cannot serve /v1/chat/completions');
    expect(relay.mock.received).toHaveLength(0);
  });

  it('is tested by making one image whatever the model, billing nothing; a wrong key fails the test', async () => {
    const before = await relay.storedQuota();
    const tested = await relay.context.admin('GET', `/api/channel/test/${relay.channelIds.stability}?model=${SD35}`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ success: true, message: '' });
    expect(relay.sent()).toMatchObject({
      path: '/v2beta/stable-image/generate/sd3',
      fields: { prompt: 'A cute cat', model: SD35 },
    });
    expect(await relay.storedQuota()).toBe(before);
    const wrongKey = relay.channelIds['stability-wrong-key'];
    const failed = await relay.context.admin('GET', `/api/channel/test/${wrongKey}?model=${WRONG_KEY_MODEL}`);
    expect(failed.body).toMatchObject({ success: false });
    expect(failed.body.message).toContain('unauthorized');
  });
});
