import type { PriceView } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';
import { ChangeBus } from '../../platform/changes.js';
import { DEFAULT_PRICES } from './defaults.js';
import { PriceRepository } from './repo.js';
import { PriceService } from './service.js';

describe.each(availableDialects)('bulk price changes on %s', (dialect) => {
  let t: TestApp;
  let root: string;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    root = await t.login('root', ROOT_PASSWORD);
    await t.services.prices.load();
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: root },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const stored = async (): Promise<Map<string, PriceView>> =>
    new Map((await t.services.prices.list('db')).map((entry) => [entry.model, { ...entry }]));
  const fields = (input: number, extra: Partial<PriceView> = {}) => ({
    type: 'tokens',
    channel_type: providerType('mistral'),
    input,
    output: input * 2,
    locked: false,
    ...extra,
  });
  const price = (model: string, input: number, extra: Partial<PriceView> = {}) => ({ model, ...fields(input, extra) });

  it('gives a set of models one price: adds new ones, updates kept ones, deletes dropped ones', async () => {
    const first = await call('POST', '/api/prices/multiple', { models: ['m-a', 'm-b'], price: fields(1) });
    expect(first.json().data).toEqual({ added: 2, updated: 0, deleted: 0 });
    const second = await call('POST', '/api/prices/multiple', {
      original_models: ['m-a', 'm-b'],
      models: ['m-b', 'm-c'],
      price: fields(2),
    });
    expect(second.json().data).toEqual({ added: 1, updated: 1, deleted: 1 });
    const prices = await stored();
    expect(prices.has('m-a')).toBe(false);
    expect(prices.get('m-b')).toMatchObject({ input: 2, output: 4, channel_type: providerType('mistral') });
    expect(prices.get('m-c')).toMatchObject({ input: 2 });
    expect(t.services.prices.lookup('m-a').input).toBe(30);
  });

  it('refuses to take over a model priced outside the edited set, writing nothing', async () => {
    const response = await call('POST', '/api/prices/multiple', {
      original_models: ['m-c'],
      models: ['m-d', 'gpt-4o'],
      price: fields(9),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('gpt-4o');
    const prices = await stored();
    expect(prices.has('m-d')).toBe(false);
    expect(prices.get('m-c')?.input).toBe(2);
    expect(prices.get('gpt-4o')?.input).toBe(1.25);
  });

  it('validates the shared price and the model lists', async () => {
    const noModels = await call('POST', '/api/prices/multiple', { models: [], price: fields(1) });
    expect(noModels.statusCode).toBe(400);
    expect(noModels.json().message).toContain('models');
    const badPrice = await call('POST', '/api/prices/multiple', { models: ['m-e'], price: fields(-1) });
    expect(badPrice.statusCode).toBe(400);
    expect(badPrice.json().message).toContain('price.input');
    // A nested field is named by its whole path.
    expect(badPrice.json().field).toBe('price.input');
    const badName = await call('PUT', '/api/prices/multiple/delete', { models: ['ok', 'b*d'] });
    expect(badName.statusCode).toBe(400);
    expect(badName.json().message).toContain('models.1');
    expect((await stored()).has('m-e')).toBe(false);
  });

  it('deletes the listed models', async () => {
    const response = await call('PUT', '/api/prices/multiple/delete', { models: ['m-b', 'm-c', 'never-priced'] });
    expect(response.json().data).toEqual({ deleted: 2 });
    const prices = await stored();
    expect(prices.has('m-b') || prices.has('m-c')).toBe(false);
  });

  it('sync "add" inserts only missing models, from an array or {data: [...]}', async () => {
    const response = await call('POST', '/api/prices/sync?updateMode=add', {
      data: [price('gpt-4o', 99), price('sync-new', 3)],
    });
    expect(response.json().data).toEqual({ added: 1, updated: 0, deleted: 0 });
    const prices = await stored();
    expect(prices.get('gpt-4o')?.input).toBe(1.25);
    expect(prices.get('sync-new')?.input).toBe(3);
    const defaultMode = await call('POST', '/api/prices/sync', [price('sync-bare', 1)]);
    expect(defaultMode.json().data.added).toBe(1);
  });

  it('sync "update" replaces stored unlocked prices only and adds nothing', async () => {
    await call('PUT', '/api/prices/single/sync-new', price('sync-new', 3, { locked: true }));
    const response = await call('POST', '/api/prices/sync?updateMode=update', [
      price('gpt-4o', 2),
      price('sync-new', 50),
      price('sync-unknown', 1),
    ]);
    expect(response.json().data).toEqual({ added: 0, updated: 1, deleted: 0 });
    const prices = await stored();
    expect(prices.get('gpt-4o')).toMatchObject({ input: 2, channel_type: providerType('mistral') });
    expect(prices.get('sync-new')).toMatchObject({ input: 3, locked: true });
    expect(prices.has('sync-unknown')).toBe(false);
  });

  it('sync "overwrite" replaces every unlocked price but never a locked one', async () => {
    const response = await call('POST', '/api/prices/sync?updateMode=overwrite', [
      price('only-one', 1),
      price('sync-new', 70),
    ]);
    expect(response.json().data.added).toBe(1);
    const prices = await stored();
    expect([...prices.keys()].sort()).toEqual(['only-one', 'sync-new']);
    expect(prices.get('sync-new')).toMatchObject({ input: 3, locked: true });
    expect(t.services.prices.lookup('gpt-4o').input).toBe(30);
  });

  it('refuses a bad sync with a 400 and writes nothing', async () => {
    const before = await stored();
    const cases: Array<[string, unknown, string]> = [
      ['/api/prices/sync?updateMode=replace', [price('x', 1)], 'updateMode'],
      ['/api/prices/sync', { prices: [] }, 'array of prices'],
      ['/api/prices/sync', [price('fine', 1), price('', 1)], '1.model'],
      ['/api/prices/sync?updateMode=overwrite', [price('fine', 1), { ...price('neg', 1), output: -5 }], '1.output'],
    ];
    for (const [url, body, field] of cases) {
      const response = await call('POST', url, body);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message).toContain(field);
    }
    expect(await stored()).toEqual(before);
  });

  it('seeds only an empty table, and only on a process’s first load', async () => {
    await call('PUT', '/api/prices/multiple/delete', { models: ['only-one', 'sync-new'] });
    expect((await stored()).size).toBe(0);
    // The running node reloads without re-seeding; a freshly started one seeds the empty table.
    await t.services.prices.load();
    expect((await stored()).size).toBe(0);
    const restarted = new PriceService(new PriceRepository(t.database), new ChangeBus(t.services.cache));
    await restarted.load();
    expect(restarted.lookup('gpt-4o').input).toBe(1.25);
    const count = await t.database.db.selectFrom('prices').select('model').execute();
    expect(count).toHaveLength(DEFAULT_PRICES.length);
  });
});
