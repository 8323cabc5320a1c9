import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, channelBody } from '../../../test/api/channel-support.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';

interface Unpriced {
  model: string;
  channels: Array<{ id: number; name: string }>;
}

/** The two lists prices draw from the enabled channels: the model list and the unpriced models. */
describe.each(availableDialects)('the models channels serve, on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let call: ReturnType<typeof caller>;

  const addPrice = async (model: string) => {
    const created = await call('POST', '/api/prices/single', root, {
      model,
      type: 'tokens',
      channel_type: providerType('openai'),
      input: 1,
      output: 1,
    });
    expect(created.statusCode, created.body).toBe(200);
  };
  const addChannel = async (name: string, models: string, fields: Record<string, unknown> = {}) => {
    const created = await call('POST', '/api/channel/', root, channelBody({ name, models, ...fields }));
    expect(created.statusCode, created.body).toBe(200);
    return created.json().data[0].id as number;
  };
  const disable = async (id: number) => {
    const updated = await call('PUT', '/api/channel/', root, { id, status: 2 });
    expect(updated.statusCode, updated.body).toBe(200);
  };
  const unpriced = async (): Promise<Unpriced[]> => {
    const response = await call('GET', '/api/prices/unpriced', root);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const entry = async (model: string) => (await unpriced()).find((item) => item.model === model);

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    call = caller(t);
    await addPrice('house-priced');
    await addPrice('acme-family*');
  });
  afterAll(() => t?.close());

  it('lists priced models and the models of enabled channels, sorted, once each, without wildcards', async () => {
    await addChannel('offering', 'only-on-a-channel,gpt-4o,acme-*');
    await disable(await addChannel('off', 'on-a-disabled-channel'));

    const response = await call('GET', '/api/prices/model_list', root);
    expect(response.statusCode, response.body).toBe(200);
    const list: string[] = response.json().data;
    expect(list).toContain('only-on-a-channel');
    expect(list).toContain('gpt-4o');
    expect(list).not.toContain('on-a-disabled-channel');
    expect(list.filter((model) => model.includes('*'))).toEqual([]);
    expect(new Set(list).size).toBe(list.length);
    expect(list).toEqual([...list].sort());
  });

  it('lists the unpriced models of enabled channels with their channels; priced, wildcard-priced and disabled ones are left out', async () => {
    const second = await addChannel('second', 'house-unpriced,house-priced');
    const first = await addChannel('first', 'house-unpriced,acme-family-large,house-*,gpt-4o');
    const off = await addChannel('off', 'house-on-a-disabled-channel');
    await disable(off);

    const list = await unpriced();
    expect(list.find((item) => item.model === 'house-unpriced')).toEqual({
      model: 'house-unpriced',
      // By id: "second" was created first.
      channels: [
        { id: second, name: 'second' },
        { id: first, name: 'first' },
      ],
    });
    const models = list.map((item) => item.model);
    for (const covered of ['house-priced', 'acme-family-large', 'gpt-4o', 'house-on-a-disabled-channel']) {
      expect(models, covered).not.toContain(covered);
    }
    // The channel's wildcard is a pattern, not a billed model.
    expect(models.filter((model) => model.includes('*'))).toEqual([]);
    expect(models).toEqual([...models].sort());
  });

  it('bills each model under its mapped name, or the requested one for a "+" mapping, as the relay does', async () => {
    const id = await addChannel('mapped', 'alias-of-priced,alias-of-unpriced,plus-unpriced,plus-priced', {
      model_mapping: JSON.stringify({
        'alias-of-priced': 'house-priced',
        'alias-of-unpriced': 'mapped-target-unpriced',
        'plus-unpriced': '+house-priced',
        'plus-priced': '+mapped-upstream-unpriced',
      }),
    });
    // A mapping target starting with "+" prices the requested name: plus-priced needs a price of its own.
    await addPrice('plus-priced');

    const models = (await unpriced()).map((item) => item.model);
    expect(models).not.toContain('alias-of-priced');
    expect(models).not.toContain('alias-of-unpriced');
    expect(await entry('mapped-target-unpriced')).toEqual({
      model: 'mapped-target-unpriced',
      channels: [{ id, name: 'mapped' }],
    });
    expect(await entry('plus-unpriced')).toEqual({ model: 'plus-unpriced', channels: [{ id, name: 'mapped' }] });
    expect(models).not.toContain('plus-priced');
    expect(models).not.toContain('mapped-upstream-unpriced');
  });

  it('follows price and channel changes', async () => {
    const id = await addChannel('fresh', 'fresh-unpriced');
    expect(await entry('fresh-unpriced')).toBeDefined();

    await addPrice('fresh-unpriced');
    expect(await entry('fresh-unpriced')).toBeUndefined();

    const removed = await call('DELETE', '/api/prices/single/fresh-unpriced', root);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await entry('fresh-unpriced')).toBeDefined();
    await disable(id);
    expect(await entry('fresh-unpriced')).toBeUndefined();
  });

  it('is for administrators: 401 without a session, 403 for a plain user', async () => {
    const plain = await t.createUser('plainuser');
    expect((await call('GET', '/api/prices/unpriced')).statusCode).toBe(401);
    expect((await call('GET', '/api/prices/unpriced', plain.cookie)).statusCode).toBe(403);
  });
});
