import { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  lastConsumeLog,
  type RelayTestContext,
  relayPost,
  startRelayWithChannel,
  storedQuota,
} from '../../../test/relay-setup.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const png = () => toFile(PNG, 'cat.png', { type: 'image/png' });

/** Bills and log of the last request: quota spent, and the log row's tokens and quota. */
async function expectBilled(r: RelayTestContext, before: number, model: string, prompt: number, quota: number) {
  expect(before - (await storedQuota(r))).toBe(quota);
  const log = await lastConsumeLog(r);
  expect(log).toMatchObject({ model_name: model, prompt_tokens: prompt });
  expect(Number(log.quota)).toBe(quota);
}

describe('images through the official openai SDK', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    // `+`: the upstream gets the deployment name, the bill stays on the requested model.
    r = await startRelayWithChannel(
      {
        name: 'images',
        models: 'dall-e-2,dall-e-3,gpt-image-1',
        model_mapping: '{"dall-e-2": "+dall-e-2-upstream", "dall-e-3": "+dall-e-3-upstream"}',
      },
      {
        'dall-e-2': [8, 0],
        'dall-e-3': [20, 0],
        'gpt-image-1': [2.5, 20, { extra_ratios: { input_text_tokens: 0.5 } }],
      },
    );
  });
  afterAll(() => r?.close());
  beforeEach(() => {
    r.upstream.behaviour = { ...r.upstream.behaviour, usage: { prompt_tokens: 12, completion_tokens: 7 } };
    r.upstream.behaviour.omitUsage = false;
  });

  it('bills dall-e-3 by size and quality: hd 1792x1024 is 3 × 1000 tokens at 20', async () => {
    const before = await storedQuota(r);
    const result = await r.client.images.generate({
      model: 'dall-e-3',
      prompt: 'a lighthouse',
      size: '1792x1024',
      quality: 'hd',
    });
    expect(result.data?.[0]?.b64_json).toBeTruthy();
    const received = r.upstream.received.at(-1);
    expect(received?.authorization).toBe(`Bearer ${r.upstream.behaviour.apiKey}`);
    expect(received?.body).toMatchObject({ model: 'dall-e-3-upstream', prompt: 'a lighthouse', quality: 'hd' });
    await expectBilled(r, before, 'dall-e-3', 3000, 60_000);
  });

  it('defaults to dall-e-2 and multiplies by n', async () => {
    const before = await storedQuota(r);
    const result = await r.client.images.generate({
      prompt: 'two cats',
      n: 2,
      size: '512x512',
      response_format: 'url',
    });
    expect(result.data?.map((image) => image.url)).toHaveLength(2);
    expect(r.upstream.received.at(-1)?.body).toMatchObject({ model: 'dall-e-2-upstream', n: 2 });
    await expectBilled(r, before, 'dall-e-2', 2 * 1125, 2 * 1125 * 8);
  });

  it('bills gpt-image-1 on the usage it reports, or 1000 tokens an image without it', async () => {
    let before = await storedQuota(r);
    await r.client.images.generate({ model: 'gpt-image-1', prompt: 'a fox' });
    // 12 text tokens at half price count as 6: 6 × 2.5 + 7 × 20.
    await expectBilled(r, before, 'gpt-image-1', 12, 155);
    r.upstream.behaviour.omitUsage = true;
    before = await storedQuota(r);
    await r.client.images.generate({ model: 'gpt-image-1', prompt: 'a fox' });
    await expectBilled(r, before, 'gpt-image-1', 1000, 2500);
  });

  it('forwards an edit form with the mapped model and bills the size', async () => {
    const before = await storedQuota(r);
    const result = await r.client.images.edit({
      image: await png(),
      prompt: 'add a hat',
      model: 'dall-e-2',
      size: '256x256',
    });
    expect(result.data).toHaveLength(1);
    const received = r.upstream.received.at(-1);
    expect(received?.path).toBe('/v1/images/edits');
    expect(received?.authorization).toBe(`Bearer ${r.upstream.behaviour.apiKey}`);
    expect(received?.body).toMatchObject({ model: 'dall-e-2-upstream', prompt: 'add a hat', size: '256x256' });
    expect(received?.files).toEqual([{ field: 'image', filename: 'cat.png', type: 'image/png', size: PNG.length }]);
    await expectBilled(r, before, 'dall-e-2', 1000, 8000);
  });

  it('adds the mapped model to a variation form that names none', async () => {
    const before = await storedQuota(r);
    const result = await r.client.images.createVariation({ image: await png(), n: 3 });
    expect(result.data).toHaveLength(3);
    const received = r.upstream.received.at(-1);
    expect(received?.body).toEqual({ n: '3', model: 'dall-e-2-upstream' });
    expect(received?.files.map((file) => file.field)).toEqual(['image']);
    await expectBilled(r, before, 'dall-e-2', 3 * 1250, 3 * 1250 * 8);
  });

  it('forwards a form byte for byte when the model is not mapped', async () => {
    const boundary = 'relay-test-boundary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\ngpt-image-1\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nsame bytes\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="image[]"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const before = await storedQuota(r);
    const response = await fetch(`${r.baseURL}/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(response.status).toBe(200);
    const received = r.upstream.received.at(-1);
    expect(received?.raw.equals(body)).toBe(true);
    expect(received?.headers['content-type']).toBe(`multipart/form-data; boundary=${boundary}`);
    await expectBilled(r, before, 'gpt-image-1', 12, 155);
  });

  it('rejects bad input with a 4xx before any upstream call or charge', async () => {
    const before = await storedQuota(r);
    const calls = r.upstream.received.length;
    const post = (path: string, body: string | FormData, contentType?: string) => relayPost(r, path, body, contentType);
    const json = (body: unknown) => post('/images/generations', JSON.stringify(body), 'application/json');
    expect((await json({ model: 'dall-e-3' })).status).toBe(400);
    expect((await json({ prompt: 'x', n: 0 })).status).toBe(400);
    expect((await json({ prompt: 'x', n: '2' })).status).toBe(400);
    expect((await json({ prompt: 'x', size: 1024 })).status).toBe(400);
    expect((await json({ prompt: 'x', model: 7 })).status).toBe(400);

    const form = (fields: Record<string, string>, withImage: boolean) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.append(name, value);
      if (withImage) data.append('image', new Blob([PNG], { type: 'image/png' }), 'cat.png');
      return data;
    };
    expect((await post('/images/edits', form({ prompt: 'x' }, false))).status).toBe(400);
    expect((await post('/images/edits', form({ model: 'dall-e-2' }, true))).status).toBe(400);
    expect((await post('/images/variations', form({ n: 'many' }, true))).status).toBe(400);
    expect((await post('/images/generations', form({ prompt: 'x' }, false))).status).toBe(415);
    expect((await post('/images/edits', JSON.stringify({ prompt: 'x' }), 'application/json')).status).toBe(415);
    const truncated = await post(
      '/images/edits',
      '--b\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nx',
      'multipart/form-data; boundary=b',
    );
    expect(truncated.status).toBe(400);
    expect(((await truncated.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');

    const huge = new FormData();
    huge.append('prompt', 'x');
    huge.append('image', new Blob([Buffer.alloc(11 * 1024 * 1024)], { type: 'image/png' }), 'big.png');
    expect((await post('/images/edits', huge)).status).toBe(413);
    expect(r.upstream.received.length).toBe(calls);
    expect(await storedQuota(r)).toBe(before);
  });
});
