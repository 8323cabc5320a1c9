import { describe, expect, it } from 'vitest';
import { addMockChannel, useChannelFixture } from '../../test/channel-fixture.js';
import { availableDialects } from '../../test/databases.js';
import { providerType } from '../domain/channel-types/registry.js';
import { vendorUrl } from './upstream.js';

describe('vendorUrl', () => {
  it('joins paths inside and outside /v1 to base URLs with and without /v1', () => {
    expect(vendorUrl('https://api.deepseek.com', '/user/balance')).toBe('https://api.deepseek.com/user/balance');
    expect(vendorUrl('https://api.deepseek.com/v1/', '/user/balance')).toBe('https://api.deepseek.com/user/balance');
    expect(vendorUrl('https://proxy.example.com/v1', '/v1/dashboard/billing/usage')).toBe(
      'https://proxy.example.com/v1/dashboard/billing/usage',
    );
  });
});

describe.each(availableDialects)('channel balances and model lists on %s', (dialect) => {
  const fixture = useChannelFixture(dialect);

  const addChannel = (fields: Record<string, unknown> = {}) => addMockChannel(fixture, { name: 'billing', ...fields });
  const stored = async (id: number) => (await fixture.call('GET', `/api/channel/${id}`, fixture.root)).json().data;

  it("reads an OpenAI-style balance as the hard limit minus this month's usage, and stores it", async () => {
    const id = await addChannel();
    const response = await fixture.call('GET', `/api/channel/update_balance/${id}`, fixture.root);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, message: '', balance: 94.5 });
    const [subscription, usage] = fixture.mock.received;
    expect(subscription?.url).toBe('/v1/dashboard/billing/subscription');
    expect(subscription?.authorization).toBe(`Bearer ${fixture.mock.behaviour.apiKey}`);
    const now = new Date();
    const monthStart = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
    expect(usage?.url).toMatch(new RegExp(`^/v1/dashboard/billing/usage\\?start_date=${monthStart}&end_date=`));
    const channel = await stored(id);
    expect(Number(channel.balance)).toBe(94.5);
    expect(channel.balance_updated_time).toBeGreaterThan(0);
  });

  it('reads DeepSeek, Moonshot and SiliconFlow balances from their own endpoints', async () => {
    const deepSeek = await addChannel({ type: providerType('deepseek') });
    const deepSeekAnswer = await fixture.call('GET', `/api/channel/update_balance/${deepSeek}`, fixture.root);
    expect(deepSeekAnswer.json()).toMatchObject({ success: true, balance: 15.25 });
    expect(fixture.mock.received.at(-1)?.url).toBe('/user/balance');
    expect(Number((await stored(deepSeek)).balance)).toBe(15.25);

    fixture.mock.behaviour.deepSeekBalances = [{ currency: 'CNY', total_balance: '110.00' }];
    const inYuan = await fixture.call('GET', `/api/channel/update_balance/${deepSeek}`, fixture.root);
    expect(inYuan.json().balance).toBe(110);

    const moonshot = await addChannel({ type: providerType('moonshot'), base_url: `${fixture.mock.url}/v1` });
    expect((await fixture.call('GET', `/api/channel/update_balance/${moonshot}`, fixture.root)).json().balance).toBe(
      49.58894,
    );
    expect(fixture.mock.received.at(-1)?.url).toBe('/v1/users/me/balance');

    const siliconFlow = await addChannel({ type: providerType('siliconflow') });
    expect((await fixture.call('GET', `/api/channel/update_balance/${siliconFlow}`, fixture.root)).json().balance).toBe(
      88.88,
    );
    expect(fixture.mock.received.at(-1)?.url).toBe('/v1/user/info');

    // Stability reports credits; a credit is a US cent.
    const stability = await addChannel({ type: providerType('stability') });
    const credits = await fixture.call('GET', `/api/channel/update_balance/${stability}`, fixture.root);
    expect(credits.json()).toMatchObject({ success: true, balance: 6.336 });
    expect(fixture.mock.received.at(-1)).toMatchObject({
      url: '/v1/user/balance',
      authorization: `Bearer ${fixture.mock.behaviour.apiKey}`,
    });
  });

  it('refuses types without a balance API, plain users, and reports upstream errors', async () => {
    const mistral = await addChannel({ type: providerType('mistral') });
    const unsupported = await fixture.call('GET', `/api/channel/update_balance/${mistral}`, fixture.root);
    expect(unsupported.statusCode).toBe(400);
    expect(unsupported.json()).toMatchObject({ success: false, message: 'this channel type has no balance API' });

    const id = await addChannel({ key: 'sk-wrong' });
    expect((await fixture.call('GET', `/api/channel/update_balance/${id}`, fixture.plain)).statusCode).toBe(403);
    const refused = await fixture.call('GET', `/api/channel/update_balance/${id}`, fixture.root);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toContain('Incorrect API key provided');
    expect(fixture.mock.received.every((request) => !request.url.includes('mistral'))).toBe(true);
  });

  it('refreshes every enabled channel that has a balance API and counts the updated ones', async () => {
    const list = await fixture.call('GET', '/api/channel/?size=100&filter_tag=1', fixture.root);
    const ids = list.json().data.data.map((row: { id: number }) => row.id);
    if (ids.length > 0) await fixture.call('DELETE', '/api/channel/batch', fixture.root, { ids });
    await addChannel();
    await addChannel({ type: providerType('deepseek') });
    await addChannel({ type: providerType('mistral') });
    await addChannel({ key: 'sk-wrong' });
    const disabled = await addChannel();
    await fixture.call('PUT', '/api/channel/', fixture.root, { id: disabled, status: 2 });

    const response = await fixture.call('GET', '/api/channel/update_balance', fixture.root);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ success: true, data: 2 });
    expect((await stored(disabled)).balance_updated_time).toBe(0);
  });

  it('lists the upstream models of a channel being edited, with its first key line', async () => {
    const response = await fixture.call('POST', '/api/channel/provider_models_list', fixture.root, {
      type: providerType('openai'),
      key: `${fixture.mock.behaviour.apiKey}\nsk-second-key`,
      base_url: fixture.mock.url,
      model_headers: '{"x-team":"blue"}',
      name: 'ignored',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: '',
      data: ['gpt-4o', 'gpt-4o-mini', 'text-embedding-3-small'],
    });
    expect(fixture.mock.received[0]).toMatchObject({ method: 'GET', url: '/v1/models' });
    expect(fixture.mock.received[0]?.authorization).toBe(`Bearer ${fixture.mock.behaviour.apiKey}`);
    expect(fixture.mock.received[0]?.headers['x-team']).toBe('blue');
  });

  it('lists the upstream models of a stored channel by id, and refuses what it cannot list', async () => {
    const id = await addChannel({ type: providerType('deepseek'), base_url: `${fixture.mock.url}/v1` });
    const byId = await fixture.call('POST', '/api/channel/provider_models_list', fixture.root, { id });
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json().data).toEqual(['gpt-4o', 'gpt-4o-mini', 'text-embedding-3-small']);
    expect(fixture.mock.received.at(-1)?.url).toBe('/v1/models');

    const claude = await fixture.call('POST', '/api/channel/provider_models_list', fixture.root, {
      type: providerType('anthropic'),
      key: 'sk-ant',
    });
    expect(claude.statusCode).toBe(400);
    expect(claude.json().message).toBe('this channel type cannot list its models yet');
    expect((await fixture.call('POST', '/api/channel/provider_models_list', fixture.root, {})).statusCode).toBe(400);
    expect((await fixture.call('POST', '/api/channel/provider_models_list', fixture.plain, { id })).statusCode).toBe(
      403,
    );

    const refused = await fixture.call('POST', '/api/channel/provider_models_list', fixture.root, {
      type: providerType('openai'),
      key: 'sk-wrong',
      base_url: fixture.mock.url,
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toContain('Incorrect API key provided');
    expect(refused.body).not.toContain('sk-wrong');
  });
});
