import { describe, expect, it } from 'vitest';
import { unpricedModels } from './unpricedModels.js';

const prices = [{ model: 'gpt-4o-mini' }, { model: 'claude-*' }, { model: 'gpt-4o' }];

describe('the models of a channel that have no price', () => {
  it('names models no exact or wildcard price matches, once each, in order', () => {
    expect(unpricedModels(['gpt-4o-mini', 'house-7b', 'claude-opus-4', 'qwen-max', 'house-7b'], '', prices)).toEqual([
      'house-7b',
      'qwen-max',
    ]);
  });

  it('skips wildcard models of the channel and blank names', () => {
    expect(unpricedModels(['house-*', ''], '', prices)).toEqual([]);
  });

  it('checks the billed name: the mapping target, or the requested name for a "+" target', () => {
    const mapping = JSON.stringify({ 'gpt-4o': 'house-7b', 'qwen-max': 'gpt-4o-mini', 'gpt-4o-mini': '+house-8b' });
    expect(unpricedModels(['gpt-4o', 'qwen-max', 'gpt-4o-mini'], mapping, prices)).toEqual(['house-7b']);
  });

  it('ignores a mapping that is not a JSON object yet', () => {
    expect(unpricedModels(['gpt-4o', 'house-7b'], '{"gpt-4o": ', prices)).toEqual(['house-7b']);
    expect(unpricedModels(['gpt-4o'], '["house-7b"]', prices)).toEqual([]);
  });
});
