import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEveryValue, expectShape, type Shape, successData } from '../../../test/api/shape/shape.js';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';

/** A price as the pricing screens and the channel dialog read it (§1.11 Price JSON). */
const priceShape: Shape = {
  model: 'string',
  type: 'string',
  channel_type: 'number',
  input: 'number',
  output: 'number',
  locked: 'boolean',
  extra_ratios: 'object',
};

/** What the reference embeds as `model_info` in a listed price: the list fields decoded, no id. */
const embeddedInfoShape: Shape = {
  model: 'string',
  name: 'string',
  description: 'string',
  context_length: 'number',
  max_tokens: 'number',
  input_modalities: ['string'],
  output_modalities: ['string'],
  tags: ['string'],
  support_url: ['string'],
  created_at: 'number',
  updated_at: 'number',
};

const availableShape: Shape = { groups: ['string'], owned_by: 'string', price: priceShape };

describe.each(availableDialects)('price routes have the reference console’s shape on %s', (dialect) => {
  let t: TestApp;

  const data = (method: 'GET' | 'POST', url: string, payload?: object, signedIn = true) =>
    successData(t, method, url, signedIn ? { authorization: ROOT_TOKEN } : {}, payload);

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    await data('POST', '/api/channel/', {
      name: 'alpha',
      type: providerType('openai'),
      key: 'sk-a',
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default',
    });
    await data('POST', '/api/model_info/', {
      ...{ model: 'gpt-4o', name: 'GPT-4o', description: 'fast', context_length: 128_000, max_tokens: 16_384 },
      ...{ input_modalities: '["text","image"]', output_modalities: '["text"]', tags: '["hot"]' },
      support_url: 'https://example.com/gpt-4o',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /api/prices lists prices; a model with model information carries it decoded', async () => {
    const prices = (await data('GET', '/api/prices', undefined, false)) as Array<Record<string, unknown>>;
    expectShape({ prices }, { prices: [priceShape] });
    const described = prices.find((price) => price.model === 'gpt-4o');
    expectShape(described, { ...priceShape, model_info: embeddedInfoShape });
    // A plain URL (the reference's older form) becomes a one-entry list, as the reference decodes it.
    expect(described?.model_info).toMatchObject({ tags: ['hot'], support_url: ['https://example.com/gpt-4o'] });
    expect(prices.find((price) => price.model === 'gpt-4o-mini')).not.toHaveProperty('model_info');
  });

  it('GET /api/prices?type=default lists the built-in prices, without model information', async () => {
    const defaults = (await data('GET', '/api/prices?type=default')) as Array<Record<string, unknown>>;
    expectShape({ defaults }, { defaults: [priceShape] });
    expect(defaults.some((price) => 'model_info' in price)).toBe(false);
  });

  it('GET /api/available_model maps models to groups, maker and price (with model information)', async () => {
    const available = (await data('GET', '/api/available_model', undefined, false)) as Record<string, unknown>;
    expectEveryValue(available, availableShape);
    expectShape(available['gpt-4o'], { ...availableShape, price: { ...priceShape, model_info: embeddedInfoShape } });
  });

  it('GET /api/ownedby maps owner ids to owners; model_list and updateService answer text', async () => {
    expectEveryValue(await data('GET', '/api/ownedby', undefined, false), {
      id: 'number',
      name: 'string',
      icon: 'string',
    });
    expectShape({ models: await data('GET', '/api/prices/model_list') }, { models: ['string'] });
    expect(typeof (await data('GET', '/api/prices/updateService'))).toBe('string');
  });
});
