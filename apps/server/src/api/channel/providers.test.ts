import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/api/channel-support.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { providerRegistry, providerType } from '../../domain/channel-types/registry.js';

/** The retired types: Google's PaLM and Tencent's old API, listed so their stored channels load. */
const RETIRED = [providerType('palm'), providerType('tencent')];
/** Every channel type, as the registry lists them (domain/channel-types/registry.test.ts checks the list against the reference). */
const TYPE_IDS = [...providerRegistry.keys()];

describe.each(availableDialects)('provider and model lists on %s', (dialect) => {
  let t: TestApp;
  let root: string;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    call = caller(t);
    root = await t.login('root', ROOT_PASSWORD);
  });
  afterAll(() => t?.close());

  it('lists providers for the console', async () => {
    const response = await call('GET', '/api/providers', root);
    expect(response.statusCode).toBe(200);
    const providers = response.json().data;
    expect(providers).toHaveLength(TYPE_IDS.length);
    expect(providers.find((provider: { slug: string }) => provider.slug === 'azure')).toEqual({
      type: providerType('azure'),
      slug: 'azure',
      name: 'Azure OpenAI',
      default_base_url: '',
      base_url_required: true,
      key_hint: 'Azure OpenAI resource key',
      extra_fields: [{ name: 'other', label: 'API version', kind: 'text', required: true, placeholder: '2024-10-21' }],
      balance: false,
      supported: true,
    });
    // The picker offers exactly the types with an adapter or a task relay; the retired ones stay
    // listed for stored channels.
    const offered = providers
      .filter((provider: { supported: boolean }) => provider.supported)
      .map((provider: { type: number }) => provider.type);
    expect(offered).toEqual(TYPE_IDS.filter((type) => !RETIRED.includes(type)));
    // Retired types say so, and why; supported ones carry no `retired` field.
    const retired = providers.filter((provider: { retired?: string }) => provider.retired !== undefined);
    expect(retired.map((provider: { type: number }) => provider.type)).toEqual(RETIRED);
    expect(retired.every((provider: { supported: boolean }) => !provider.supported)).toBe(true);
    expect(retired[0].retired).toMatch(/Gemini/);
    const balanceTypes = providers
      .filter((provider: { balance: boolean }) => provider.balance)
      .map((provider: { type: number }) => provider.type);
    const balanceSlugs = ['openai', 'custom', 'deepseek', 'moonshot', 'stability', 'siliconflow', 'recraft'];
    expect(balanceTypes).toEqual(balanceSlugs.map(providerType));
  });

  it('lists priced models in OpenAI model-list shape, not enveloped', async () => {
    // Read the count first: another module may seed default prices at start-up.
    const before = (await call('GET', '/api/channel/models', root)).json().data.length;
    await t.database.db
      .insertInto('prices')
      .values([
        {
          model: 'zz-test-model-a',
          type: 'tokens',
          channel_type: providerType('anthropic'),
          input: 1,
          output: 1,
          locked: false,
          extra_ratios: '{}',
        },
        {
          model: 'zz-test-model-b',
          type: 'tokens',
          channel_type: 9999,
          input: 1,
          output: 1,
          locked: false,
          extra_ratios: '{}',
        },
      ])
      .execute();
    const body = (await call('GET', '/api/channel/models', root)).json();
    expect(body.object).toBe('list');
    expect(body.data).toHaveLength(before + 2);
    expect(body.data).toContainEqual({
      id: 'zz-test-model-a',
      object: 'model',
      created: 1677649963,
      owned_by: 'Anthropic Claude',
    });
    expect(body.data).toContainEqual(expect.objectContaining({ id: 'zz-test-model-b', owned_by: 'unknown' }));
  });
});
