import { describe, expect, it } from 'vitest';
import { compatibleVendors } from '../compatible.js';
import { openAiTarget, upstreamUrl } from './request.js';

const target = (type: number, baseUrl: string, path = '/v1/chat/completions') =>
  openAiTarget({ type, key: 'k', other: '' }, baseUrl, path, 'gpt-4o').url;

describe('upstream URLs of OpenAI-compatible vendors', () => {
  it('uses each vendor’s documented base URL and OpenAI’s paths under it', () => {
    const defaults = Object.fromEntries(
      compatibleVendors
        .filter((vendor) => vendor.defaultBaseUrl)
        .map((v) => [v.slug, target(v.type, v.defaultBaseUrl)]),
    );
    expect(defaults).toMatchObject({
      openai: 'https://api.openai.com/v1/chat/completions',
      deepseek: 'https://api.deepseek.com/v1/chat/completions',
      moonshot: 'https://api.moonshot.cn/v1/chat/completions',
      groq: 'https://api.groq.com/openai/v1/chat/completions',
      mistral: 'https://api.mistral.ai/v1/chat/completions',
      openrouter: 'https://openrouter.ai/api/v1/chat/completions',
      xai: 'https://api.x.ai/v1/chat/completions',
      siliconflow: 'https://api.siliconflow.cn/v1/chat/completions',
      lingyi: 'https://api.lingyiwanwu.com/v1/chat/completions',
      ollama: 'http://localhost:11434/v1/chat/completions',
      // GitHub Models serves OpenAI's paths at the root of its endpoint, without /v1.
      github: 'https://models.inference.ai.azure.com/chat/completions',
    });
  });

  it('keeps GitHub Models’ root paths on its newer endpoint and for every endpoint', () => {
    expect(target(49, 'https://models.github.ai/inference/')).toBe(
      'https://models.github.ai/inference/chat/completions',
    );
    expect(target(49, 'https://models.github.ai/inference', '/v1/embeddings')).toBe(
      'https://models.github.ai/inference/embeddings',
    );
    // The others keep /v1, once.
    expect(target(8, 'https://proxy.example/v1/')).toBe('https://proxy.example/v1/chat/completions');
    expect(upstreamUrl('https://api.anthropic.com', '/v1/messages')).toBe('https://api.anthropic.com/v1/messages');
  });
});
