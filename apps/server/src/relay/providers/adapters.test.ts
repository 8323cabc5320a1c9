import { describe, expect, it } from 'vitest';
import { compatibleVendors } from '../../domain/channel-types/compatible.js';
import { providerRegistry, providerType } from '../../domain/channel-types/registry.js';
import { chatAdapterFor } from './adapters.js';
import { openAiAdapter } from './openai/adapter.js';

/** Compatible vendors whose adapter adds endpoints of their own to OpenAI's (MiniMax's speech). */
const COMPATIBLE_WITH_OWN_ENDPOINTS = [providerType('minimax')];

describe('chat adapters by channel type', () => {
  it('serves compatible vendors with the OpenAI adapter', () => {
    for (const vendor of compatibleVendors) {
      if (COMPATIBLE_WITH_OWN_ENDPOINTS.includes(vendor.type)) continue;
      expect(chatAdapterFor(vendor.type), vendor.slug).toBe(openAiAdapter);
    }
  });

  it('has an adapter for exactly the types whose registry entry names one', () => {
    for (const provider of providerRegistry.values()) {
      expect(chatAdapterFor(provider.type) !== undefined, provider.slug).toBe(provider.adapter !== undefined);
    }
    // MiniMax's chat is OpenAI's (reference §5.2), passed through; its adapter adds its own speech API.
    expect(chatAdapterFor(providerType('minimax'))?.speaksOpenAi).toBe(true);
  });
});
