import { describe, expect, it } from 'vitest';
import { providerType } from '../../domain/channel-types/registry.js';
import { chatAdapterFor } from '../providers/adapters.js';
import { geminiEndpoint, surfaceEndpoints } from '../surfaces/native.js';
import { endpoints } from '../surfaces/openai.js';
import { exchangeFor } from './exchange.js';
import { nativeExchange } from './native.js';
import { openAiPassThrough } from './pass-through.js';
import { translatedChat, translatedWhole } from './translated.js';
import type { Endpoint } from './types.js';

/** The lookup that replaced tryChannel's branches: which exchange takes an endpoint to a channel. */

const endpoint = (path: string): Endpoint => {
  const found = [...endpoints, ...surfaceEndpoints].find((candidate) => candidate.path === path);
  if (!found) throw new Error(`no endpoint ${path}`);
  return found;
};
const lookup = (path: string, slug: string, model = 'some-model') =>
  exchangeFor(endpoint(path), providerType(slug), model, chatAdapterFor(providerType(slug)));

describe('the exchange for an endpoint and a channel', () => {
  it('passes OpenAI endpoints through to OpenAI-format channels', () => {
    for (const path of ['/v1/chat/completions', '/v1/embeddings', '/v1/audio/speech', '/v1/responses']) {
      expect(lookup(path, 'openai')).toBe(openAiPassThrough);
    }
  });

  it('translates a chat for a channel of another format, and a surface for an OpenAI channel', () => {
    expect(lookup('/v1/chat/completions', 'anthropic')).toBe(translatedChat);
    expect(lookup('/v1/messages', 'openai')).toBe(translatedChat);
    expect(lookup('/v1/responses', 'anthropic')).toBe(translatedChat);
  });

  it('passes a surface through to a channel of its own format, one exchange per pass-through', () => {
    const anthropic = lookup('/v1/messages', 'anthropic');
    expect([openAiPassThrough, translatedChat]).not.toContain(anthropic);
    expect(lookup('/claude/v1/messages', 'anthropic')).toBe(anthropic);
    const gemini = exchangeFor(
      geminiEndpoint,
      providerType('gemini'),
      'gemini-2.5-flash',
      chatAdapterFor(providerType('gemini')),
    );
    expect([openAiPassThrough, translatedChat, anthropic]).not.toContain(gemini);
    const native = anthropicBindingPassThrough();
    expect(nativeExchange(native)).toBe(anthropic);
  });

  it('translates embeddings and rerank whole where the adapter serves them, and refuses the rest', async () => {
    expect(lookup('/v1/embeddings', 'cohere')).toBe(translatedWhole);
    expect(lookup('/v1/rerank', 'cohere')).toBe(translatedWhole);
    const refused = lookup('/v1/embeddings', 'anthropic');
    expect([openAiPassThrough, translatedWhole]).not.toContain(refused);
    const failure = await refused({
      channel: { id: 7, name: 'claude' },
      endpoint: endpoint('/v1/embeddings'),
    } as never);
    expect(failure).toMatchObject({ retry: true, disable: false, coolDown: false });
    expect('error' in failure && failure.error.message).toBe('channel #7 (claude) cannot serve /v1/embeddings');
  });
});

function anthropicBindingPassThrough() {
  const surface = endpoint('/v1/messages').surface;
  const passThrough = surface?.passThrough(
    providerType('anthropic'),
    'claude-sonnet-4',
    chatAdapterFor(providerType('anthropic')),
  );
  if (!passThrough || passThrough === 'openai') throw new Error('no native pass-through for Anthropic');
  return passThrough;
}
