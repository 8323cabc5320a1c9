import type { PriceView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';
import { ChangeBus } from '../../platform/changes.js';
import { DEFAULT_PRICES } from './defaults.js';
import { PriceRepository } from './repo.js';
import { PriceService } from './service.js';

describe.each(availableDialects)('prices on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  const storedModels = async () =>
    (await s.t.database.db.selectFrom('prices').select('model').execute()).map((row) => row.model);
  const price = (model: string, fields: Partial<PriceView> = {}) => ({
    model,
    type: 'tokens',
    channel_type: providerType('openai'),
    input: 1,
    output: 2,
    ...fields,
  });

  it('seeds the built-in prices on first load and serves them publicly, by channel type then model', async () => {
    const response = await s.call('GET', '/api/prices');
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const list: PriceView[] = response.json().data;
    expect(list).toHaveLength(DEFAULT_PRICES.length);
    expect(list).toContainEqual({
      model: 'gpt-4o',
      type: 'tokens',
      channel_type: providerType('openai'),
      input: 1.25,
      output: 5,
      locked: false,
      extra_ratios: { cached_tokens: 0.5 },
    });
    const keys = list.map((entry) => [entry.channel_type, entry.model] as const);
    const sorted = [...keys].sort((left, right) => left[0] - right[0] || (left[1] < right[1] ? -1 : 1));
    expect(keys).toEqual(sorted);
    expect((await storedModels()).length).toBe(DEFAULT_PRICES.length);
  });

  it('serves the built-in list, the owners, and refuses unknown list types', async () => {
    const defaults = (await s.call('GET', '/api/prices?type=default')).json().data;
    expect(defaults).toHaveLength(DEFAULT_PRICES.length);
    const old = await s.call('GET', '/api/prices?type=old');
    expect(old.statusCode).toBe(400);
    expect(old.json().message).toContain('type');
    const owners = (await s.call('GET', '/api/ownedby')).json().data;
    expect(owners['1']).toEqual({ id: 1, name: 'OpenAI', icon: '' });
    expect(owners['14'].name).toBe('Anthropic');
  });

  it('refuses price administration to anonymous callers (401) and plain users (403)', async () => {
    const routes = [
      ['GET', '/api/prices/model_list'],
      ['GET', '/api/prices/updateService'],
      ['POST', '/api/prices/single'],
      ['PUT', '/api/prices/single/gpt-4o'],
      ['DELETE', '/api/prices/single/gpt-4o'],
      ['POST', '/api/prices/multiple'],
      ['PUT', '/api/prices/multiple/delete'],
      ['POST', '/api/prices/sync'],
    ] as const;
    for (const [method, url] of routes) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : price('intruder');
      expect((await s.call(method, url, undefined, body)).statusCode, `${method} ${url}`).toBe(401);
      expect((await s.call(method, url, s.plain, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await storedModels()).not.toContain('intruder');
    expect(s.t.services.prices.lookup('gpt-4o').input).toBe(1.25);
  });

  it('creates a price that the relay sees at once; a second one for the same model is a 409', async () => {
    const created = await s.call('POST', '/api/prices/single', s.root, {
      ...price('acme-chat', { input: 3, output: 6 }),
      extra_ratios: { cached_tokens: 0.25 },
    });
    expect(created.statusCode).toBe(200);
    expect(s.t.services.prices.lookup('acme-chat')).toMatchObject({
      input: 3,
      output: 6,
      locked: false,
      extra_ratios: { cached_tokens: 0.25 },
    });
    const again = await s.call('POST', '/api/prices/single', s.root, price('acme-chat', { input: 9 }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('model already exists');
    expect(s.t.services.prices.lookup('acme-chat').input).toBe(3);
    const list: string[] = (await s.call('GET', '/api/prices/model_list', s.root)).json().data;
    expect(list).toContain('acme-chat');
    expect(list).toContain('gpt-4o');
  });

  it('refuses bad prices with a 400 naming the field, and writes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...price(''), model: '' }, 'model'],
      [price('a*b'), 'model'],
      [price('*'), 'model'],
      [price('x'.repeat(101)), 'model'],
      [price('bad-type', { type: 'hours' as 'tokens' }), 'type'],
      [price('bad-channel', { channel_type: -1 }), 'channel_type'],
      [price('bad-channel-2', { channel_type: 1.5 }), 'channel_type'],
      [price('bad-input', { input: -0.1 }), 'input'],
      [{ model: 'no-output', type: 'tokens', channel_type: providerType('openai'), input: 1 }, 'output'],
      [{ ...price('bad-locked'), locked: 'yes' }, 'locked'],
      [{ ...price('bad-kind'), extra_ratios: { magic_tokens: 2 } }, 'extra_ratios'],
      [{ ...price('bad-ratio'), extra_ratios: { cached_tokens: -1 } }, 'extra_ratios.cached_tokens'],
    ];
    const before = await storedModels();
    for (const [body, field] of cases) {
      const response = await s.call('POST', '/api/prices/single', s.root, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toContain(field);
    }
    expect((await storedModels()).sort()).toEqual(before.sort());
  });

  it('accepts a wildcard price, used for models it prefixes when no exact price exists', async () => {
    expect((await s.call('POST', '/api/prices/single', s.root, price('acme-*', { input: 7 }))).statusCode).toBe(200);
    expect((await s.call('POST', '/api/prices/single', s.root, price('acme-vision-*', { input: 8 }))).statusCode).toBe(
      200,
    );
    expect(s.t.services.prices.lookup('acme-vision-2').input).toBe(8);
    expect(s.t.services.prices.lookup('acme-audio').input).toBe(7);
    expect(s.t.services.prices.lookup('acme-chat').input).toBe(3);
    expect(s.t.services.prices.lookup('nobody-knows-this')).toMatchObject({ input: 30, output: 30 });
  });

  it('updates a price named in the URL (encoded), renaming it unless the new name is taken', async () => {
    const slashed = 'vendor/model-a';
    expect((await s.call('POST', '/api/prices/single', s.root, price(slashed))).statusCode).toBe(200);
    const url = `/api/prices/single/${encodeURIComponent(slashed)}`;
    const updated = await s.call('PUT', url, s.root, price(slashed, { input: 4, type: 'times', locked: true }));
    expect(updated.statusCode).toBe(200);
    expect(s.t.services.prices.lookup(slashed)).toMatchObject({ type: 'times', input: 4, locked: true });

    const taken = await s.call('PUT', url, s.root, price('acme-chat'));
    expect(taken.statusCode).toBe(409);
    expect(s.t.services.prices.lookup('acme-chat').input).toBe(3);

    expect((await s.call('PUT', url, s.root, price('vendor/model-b', { input: 5 }))).statusCode).toBe(200);
    const models = await storedModels();
    expect(models).toContain('vendor/model-b');
    expect(models).not.toContain(slashed);
    expect(s.t.services.prices.lookup('vendor/model-b').input).toBe(5);

    expect((await s.call('PUT', '/api/prices/single/missing-model', s.root, price('missing-model'))).statusCode).toBe(
      404,
    );
    const bad = await s.call('PUT', `/api/prices/single/${encodeURIComponent('vendor/model-b')}`, s.root, {
      ...price('vendor/model-b'),
      input: 'cheap',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('input');
    expect(s.t.services.prices.lookup('vendor/model-b').input).toBe(5);
  });

  it('keeps the name from the URL when the update body leaves it out', async () => {
    const { model: _model, ...withoutModel } = price('acme-chat', { input: 3.5 });
    expect((await s.call('PUT', '/api/prices/single/acme-chat', s.root, withoutModel)).statusCode).toBe(200);
    expect(s.t.services.prices.lookup('acme-chat').input).toBe(3.5);
  });

  it('deletes a price by its encoded name; an absent one is a 404', async () => {
    const url = `/api/prices/single/${encodeURIComponent('vendor/model-b')}`;
    expect((await s.call('DELETE', url, s.root)).statusCode).toBe(200);
    expect(await storedModels()).not.toContain('vendor/model-b');
    expect(s.t.services.prices.lookup('vendor/model-b').input).toBe(30);
    const again = await s.call('DELETE', url, s.root);
    expect(again.statusCode).toBe(404);
    // An empty name matches no route at all.
    expect((await s.call('DELETE', '/api/prices/single/', s.root)).statusCode).toBe(404);
  });

  it("names One Hub's price list as the update service unless UPDATE_PRICE_SERVICE says otherwise", async () => {
    const response = await s.call('GET', '/api/prices/updateService', s.root);
    expect(response.json()).toMatchObject({
      success: true,
      data: 'https://raw.githubusercontent.com/MartialBE/one-api/prices/prices.json',
    });
  });

  it('fails a lookup until loaded rather than guessing a price, then follows other nodes’ changes', async () => {
    const otherNode = new PriceService(new PriceRepository(s.t.database), new ChangeBus(s.t.services.cache));
    expect(() => otherNode.lookup('acme-chat')).toThrow(expect.objectContaining({ status: 503 }));
    await otherNode.load();
    expect(otherNode.lookup('acme-chat').input).toBe(3.5);
    await s.call('PUT', '/api/prices/single/acme-chat', s.root, price('acme-chat', { input: 6 }));
    await expect.poll(() => otherNode.lookup('acme-chat').input).toBe(6);
  });
});
