import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, channelBody } from '../../../test/api/channel-support.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { providerType } from '../../domain/channel-types/registry.js';
import type { AvailableModelView } from './available-models.js';

describe.each(availableDialects)('GET /api/available_model on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let vipUser: string;
  let call: ReturnType<typeof caller>;

  const available = async (cookie?: string): Promise<Record<string, AvailableModelView>> => {
    const response = await call('GET', '/api/available_model', cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    return response.json().data;
  };

  const addChannel = async (fields: Record<string, unknown>): Promise<number> => {
    const created = await call('POST', '/api/channel/', root, channelBody(fields));
    expect(created.statusCode, created.body).toBe(200);
    return created.json().data[0].id;
  };

  const addPrice = async (model: string, fields: Record<string, unknown> = {}) => {
    const body = { model, type: 'tokens', channel_type: providerType('openai'), input: 1, output: 2, ...fields };
    const created = await call('POST', '/api/prices/single', root, body);
    expect(created.statusCode, created.body).toBe(200);
  };

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    call = caller(t);
    root = await t.login('root', ROOT_PASSWORD);
    const vip = await t.createUser('vipper');
    const moved = await call('PUT', '/api/user/', root, { id: vip.id, group: 'vip' });
    expect(moved.statusCode, moved.body).toBe(200);
    vipUser = await t.login('vipper', 'password-123');

    await addPrice('acme-chat', { channel_type: providerType('anthropic'), input: 1.5, output: 7.5 });
    await addPrice('acme-image', { type: 'times', channel_type: providerType('anthropic'), input: 20, output: 0 });
    await addPrice('acme-*', { channel_type: providerType('anthropic'), input: 3, output: 3 });
    await addPrice('other-model');

    await addChannel({
      name: 'public',
      models: 'acme-chat,unpriced-model',
      group: 'default',
      type: providerType('openai'),
    });
    await addChannel({ name: 'wild', models: 'acme-*', group: 'default,vip' });
    await addChannel({ name: 'vip only', models: 'vip-model', group: 'vip' });
    const disabled = await addChannel({ name: 'off', models: 'switched-off', group: 'default' });
    expect((await call('PUT', '/api/channel/', root, { id: disabled, status: 2 })).statusCode).toBe(200);
    const deleted = await addChannel({ name: 'gone', models: 'deleted-model', group: 'default' });
    expect((await call('DELETE', `/api/channel/${deleted}`, root)).statusCode).toBe(200);
  });
  afterAll(() => t?.close());

  it('lists, for anyone, the models of enabled channels in public groups', async () => {
    const models = await available();
    expect(Object.keys(models)).toEqual(['acme-chat', 'acme-image', 'unpriced-model']);
    expect(models['acme-chat']).toEqual({
      groups: ['default'],
      owned_by: 'Anthropic',
      price: {
        model: 'acme-chat',
        type: 'tokens',
        channel_type: providerType('anthropic'),
        input: 1.5,
        output: 7.5,
        locked: false,
        extra_ratios: {},
      },
    });
    expect(models['acme-image']?.price).toMatchObject({ type: 'times', input: 20 });
  });

  it('expands wildcard channel models into the priced models they match, never the wildcard itself', async () => {
    const models = await available();
    expect(Object.keys(models).some((model) => model.includes('*'))).toBe(false);
    // Matched by `acme-*` on a channel; `other-model` is priced but matched by nothing.
    expect(models['acme-image']?.groups).toEqual(['default']);
    expect(models['other-model']).toBeUndefined();
  });

  it('prices an unpriced model at the fallback and names the maker of its channel', async () => {
    const models = await available();
    expect(models['unpriced-model']).toMatchObject({
      owned_by: 'OpenAI',
      price: { type: 'tokens', input: 30, output: 30 },
    });
  });

  it('adds the models of the signed-in caller’s own group', async () => {
    const models = await available(vipUser);
    expect(Object.keys(models)).toEqual(['acme-chat', 'acme-image', 'unpriced-model', 'vip-model']);
    expect(models['vip-model']?.groups).toEqual(['vip']);
    expect(models['acme-image']?.groups).toEqual(['default', 'vip']);
    // Root stays in the default group, so the vip channel is not theirs.
    expect(Object.keys(await available(root))).not.toContain('vip-model');
  });

  it('leaves out disabled groups', async () => {
    const groups = await t.services.groups.visibleTo('vip');
    const vipId = groups.vip?.id ?? 0;
    expect((await call('PUT', `/api/user_group/enable/${vipId}`, root)).statusCode).toBe(200);
    try {
      const models = await available(vipUser);
      expect(models['vip-model']).toBeUndefined();
      expect(models['acme-image']?.groups).toEqual(['default']);
    } finally {
      expect((await call('PUT', `/api/user_group/enable/${vipId}`, root)).statusCode).toBe(200);
    }
  });

  it('follows channel changes at once', async () => {
    const id = await addChannel({ name: 'late', models: 'late-model', group: 'default' });
    expect(Object.keys(await available())).toContain('late-model');
    expect((await call('PUT', '/api/channel/', root, { id, status: 2 })).statusCode).toBe(200);
    expect(Object.keys(await available())).not.toContain('late-model');
  });
});
