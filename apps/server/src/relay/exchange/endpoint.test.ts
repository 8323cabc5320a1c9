import { describe, expect, it } from 'vitest';
import { characterCount, countTextTokens, TextTally } from '../billing/metering.js';
import { imagePromptTokens } from '../surfaces/media.js';
import { openAiUsage, tokenUsage } from './endpoint.js';
import type { RelayInput } from './types.js';

const image = (fields: Record<string, unknown>): RelayInput => ({ model: 'x', stream: false, fields });

describe('image prompt tokens (reference §4.2)', () => {
  it.each([
    ['dall-e-2', {}, 1250],
    ['dall-e-2', { size: '256x256' }, 1000],
    ['dall-e-2', { size: '512x512', n: 3 }, 3375],
    ['dall-e-3', {}, 1000],
    ['dall-e-3', { quality: 'hd' }, 2000],
    ['dall-e-3', { size: '1024x1792' }, 2000],
    ['dall-e-3', { size: '1792x1024', quality: 'hd' }, 3000],
    ['recraftv3', { style: 'vector_illustration' }, 2000],
    ['gpt-image-1', { size: '1536x1024', n: 2 }, 2000],
    ['dall-e-2', { size: 'unknown' }, 1000],
  ])('%s %j → %i', (model, fields, tokens) => {
    expect(imagePromptTokens(model, image(fields))).toBe(tokens);
  });
});

describe('usage in billing form', () => {
  it('maps input/output token usage with its details', () => {
    expect(
      tokenUsage({
        input_tokens: 30,
        input_tokens_details: { cached_tokens: 10 },
        output_tokens: 20,
        output_tokens_details: { reasoning_tokens: 5 },
      }),
    ).toEqual({
      prompt_tokens: 30,
      completion_tokens: 20,
      prompt_tokens_details: { cached_tokens: 10 },
      completion_tokens_details: { reasoning_tokens: 5 },
    });
    expect(tokenUsage({ type: 'tokens', input_tokens: 4, input_token_details: { audio_tokens: 4 } })).toEqual({
      prompt_tokens: 4,
      completion_tokens: 0,
      prompt_tokens_details: { audio_tokens: 4 },
    });
  });

  it('treats durations, zeros and junk as no usage, so our own count applies', () => {
    expect(tokenUsage({ type: 'duration', seconds: 3 })).toBeUndefined();
    expect(tokenUsage({ input_tokens: 0, output_tokens: 0 })).toBeUndefined();
    expect(tokenUsage('12')).toBeUndefined();
    expect(openAiUsage({ prompt_tokens: 0, completion_tokens: 0 })).toBeUndefined();
    expect(openAiUsage({ prompt_tokens: 3, completion_tokens: 0 })).toEqual({ prompt_tokens: 3, completion_tokens: 0 });
  });
});

describe('counting', () => {
  it('counts streamed text as one string, however it was split', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(1000);
    const tally = new TextTally();
    for (let index = 0; index < text.length; index += 7) tally.push(text.slice(index, index + 7));
    expect(tally.total()).toBe(countTextTokens(text));
  });

  it('counts speech input in characters', () => {
    expect(characterCount('héllo 世界 👋')).toBe(10);
    expect(characterCount(undefined)).toBe(0);
  });
});
