import { describe, expect, it } from 'vitest';
import { compatibleVendors } from './compatible.js';
import { providerByType, providerRegistry, providerType } from './registry.js';

// The registry is where One Hub's wire numbers meet their entries, so this test writes the numbers.

/** Every channel type id the reference system defines (its table of type ids), 0 "unknown" aside. */
const REFERENCE_TYPE_IDS = [
  1, 3, 8, 11, 14, 15, 16, 17, 18, 19, 20, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
  42, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56,
];

/** Types without a chat adapter: the retired PaLM (11) and Tencent (23), and the task upstreams. */
const TYPES_WITHOUT_ADAPTER = [11, 23, 34, 41, 53];
/** Asynchronous-task upstreams (relay/tasks/): Midjourney, Suno, Kling. */
const TASK_TYPES = { 34: 'midjourney', 41: 'suno', 53: 'kling' } as const;
/** Types relayed but not tested: a Recraft test image costs credits, and Recraft has no free call but its balance. */
const TYPES_WITHOUT_TEST = [51];
/** Compatible vendors whose adapter adds endpoints of their own to OpenAI's (MiniMax's speech). */
const COMPATIBLE_WITH_OWN_ENDPOINTS = [27];

describe('provider registry', () => {
  it('covers every reference type id once, with unique slugs', () => {
    expect([...providerRegistry.keys()]).toEqual(REFERENCE_TYPE_IDS);
    const slugs = [...providerRegistry.values()].map((provider) => provider.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(providerByType(0)).toBeUndefined();
    expect(providerByType(2)).toBeUndefined();
  });

  it('finds a type id by its slug, and refuses a slug no type has', () => {
    expect(providerType('anthropic')).toBe(14);
    expect(providerType('azure-v1')).toBe(55);
    for (const [type, provider] of providerRegistry) expect(providerType(provider.slug)).toBe(type);
    expect(() => providerType('no-such-vendor')).toThrow("no channel type has the slug 'no-such-vendor'");
  });

  it('serves compatible vendors from their data entries', () => {
    for (const vendor of compatibleVendors) {
      if (COMPATIBLE_WITH_OWN_ENDPOINTS.includes(vendor.type)) continue;
      expect(providerByType(vendor.type)).toMatchObject({
        adapter: 'openai',
        openAiLayout: vendor.openAiLayout ?? 'bearer',
        slug: vendor.slug,
      });
    }
    expect(providerByType(1)).toMatchObject({ defaultBaseUrl: 'https://api.openai.com', apiPrefix: '/v1' });
    expect(providerByType(31)?.defaultBaseUrl).toBe('https://api.groq.com/openai');
    expect(providerByType(49)).toMatchObject({
      defaultBaseUrl: 'https://models.inference.ai.azure.com',
      apiPrefix: '',
    });
    expect(providerByType(8)?.baseUrlRequired).toBe(true);
    expect(providerByType(39)).toMatchObject({ baseUrlRequired: true, defaultBaseUrl: 'http://localhost:11434' });
    expect(providerByType(28)?.balance).toEqual({ path: '/user/balance', reader: 'deepseek' });
    expect(providerByType(14)?.adapter).toBe('anthropic');
  });

  it('names an adapter for every type the relay can call, a test for each of them but Recraft, and task relays', () => {
    // MiniMax's chat is OpenAI's (reference §5.2), passed through; its adapter adds its own speech API.
    expect(providerByType(27)).toMatchObject({ adapter: 'minimax', openAiLayout: 'bearer', apiPrefix: '/v1' });
    // Azure speaks OpenAI's format at its own addresses.
    expect(providerByType(3)).toMatchObject({ adapter: 'openai', openAiLayout: 'azure' });
    expect(providerByType(55)).toMatchObject({ adapter: 'openai', openAiLayout: 'azure-v1' });
    const withoutAdapter = [...providerRegistry.values()].filter((provider) => !provider.adapter);
    expect(withoutAdapter.map((provider) => provider.type)).toEqual(TYPES_WITHOUT_ADAPTER);
    for (const provider of providerRegistry.values()) {
      expect(provider.test !== undefined, provider.slug).toBe(
        provider.adapter !== undefined && !TYPES_WITHOUT_TEST.includes(provider.type),
      );
      // Only a type with an adapter can pass a client surface through.
      if (!provider.adapter) expect(provider.native, provider.slug).toEqual([]);
    }
    for (const [type, relay] of Object.entries(TASK_TYPES)) expect(providerByType(Number(type))?.tasks).toBe(relay);
  });

  it('names the model owners of the reference, from the registry', () => {
    const owners = [...providerRegistry.values()].filter((provider) => provider.owner).map((p) => p.type);
    expect(owners).toEqual([
      1, 11, 14, 15, 16, 17, 18, 19, 20, 23, 25, 26, 27, 28, 29, 30, 31, 33, 34, 35, 36, 37, 38, 39, 40, 41, 43, 44, 45,
      46, 47, 48, 51, 53, 56,
    ]);
    expect(providerByType(17)?.owner).toBe('Qwen');
  });

  it('declares the per-type settings kept in other and plugin', () => {
    expect(providerByType(3)?.extraFields).toContainEqual(expect.objectContaining({ name: 'other', required: true }));
    expect(providerByType(42)?.extraFields[0]).toMatchObject({ name: 'other', label: 'Region|ProjectID' });
    expect(providerByType(25)?.extraFields[0]).toMatchObject({ name: 'other', kind: 'select' });
    expect(providerByType(24)?.extraFields.map((field) => field.name)).toEqual(['other', 'plugin']);
  });
});
