import { readFileSync } from 'node:fs';
import { providerType } from '../../../src/domain/channel-types/registry.js';
import type { AdapterContext, Json } from '../../../src/relay/providers/types.js';

/** Test helpers for the Cohere adapter: fixtures and a context. */

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}

export function fixtureJson(name: string): Json {
  return JSON.parse(fixture(name).toString('utf8')) as Json;
}

export function context(overrides: Partial<AdapterContext> = {}): AdapterContext {
  return {
    key: 'co-test-key-0123456789',
    channelType: providerType('cohere'),
    baseUrl: 'https://api.cohere.com',
    upstreamModel: 'command-a-03-2025',
    other: '',
    plugin: {},
    headers: {},
    stream: false,
    now: 1_760_000_000,
    responseId: 'chatcmpl-cohere1',
    ...overrides,
  };
}
