import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectShape, type Shape, successData } from '../../../test/api/shape/shape.js';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';

/** A model owner (maker) as the owner table, the key dialog and the price pages read it. */
const ownerShape: Shape = { id: 'number', name: 'string', icon: 'string' };

/**
 * A model-info row in the reference's raw form (§1.12, §3.1 model_info): the console parses the
 * four list fields itself, so they stay JSON-array text here.
 */
const modelInfoShape: Shape = {
  id: 'number',
  model: 'string',
  name: 'string',
  description: 'string',
  context_length: 'number',
  max_tokens: 'number',
  input_modalities: 'string',
  output_modalities: 'string',
  tags: 'string',
  support_url: 'string',
  created_at: 'number',
  updated_at: 'number',
};

describe.each(availableDialects)('model metadata routes have the reference console’s shape on %s', (dialect) => {
  let t: TestApp;
  let infoId: number;

  const data = (method: 'GET' | 'POST', url: string, payload?: object) =>
    successData(t, method, url, { authorization: ROOT_TOKEN }, payload);

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    await data('POST', '/api/model_ownedby/', { id: 1001, name: 'House', icon: 'https://example.com/house.png' });
    const info = (await data('POST', '/api/model_info/', {
      ...{ model: 'gpt-4o', name: 'GPT-4o', description: 'fast', context_length: 128_000, max_tokens: 16_384 },
      ...{ input_modalities: ['text', 'image'], output_modalities: ['text'], tags: ['hot'] },
      support_url: ['https://example.com/gpt-4o'],
    })) as { id: number };
    infoId = info.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /api/model_ownedby/ lists built-in and added owners; GET /:id gives one', async () => {
    expectShape({ owners: await data('GET', '/api/model_ownedby/') }, { owners: [ownerShape] });
    expectShape(await data('GET', '/api/model_ownedby/1001'), ownerShape);
  });

  it('GET /api/model_info/ lists rows with JSON-array text; GET /:id gives one', async () => {
    expectShape({ infos: await data('GET', '/api/model_info/') }, { infos: [modelInfoShape] });
    const info = (await data('GET', `/api/model_info/${infoId}`)) as Record<string, string>;
    expectShape(info, modelInfoShape);
    expect(JSON.parse(info.input_modalities ?? '')).toEqual(['text', 'image']);
  });
});
