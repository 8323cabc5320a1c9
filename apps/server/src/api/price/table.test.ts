import type { PriceView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { providerType } from '../../domain/channel-types/registry.js';
import { FALLBACK_PRICE } from '../../domain/prices.js';
import { DEFAULT_PRICES } from './defaults.js';
import { PriceTable } from './table.js';

function price(model: string, input: number, channelType = providerType('openai')): PriceView {
  return { model, type: 'tokens', channel_type: channelType, input, output: input, locked: false, extra_ratios: {} };
}

describe('PriceTable.lookup', () => {
  it('prefers the exact model over any wildcard', () => {
    const table = new PriceTable([price('gpt-4*', 1), price('gpt-4o', 2)]);
    expect(table.lookup('gpt-4o').input).toBe(2);
  });

  it('picks the wildcard with the longest matching prefix, whatever the order', () => {
    const wildcards = [price('gpt-*', 1), price('gpt-4o*', 3), price('gpt-4*', 2)];
    for (const order of [wildcards, [...wildcards].reverse()]) {
      const table = new PriceTable(order);
      expect(table.lookup('gpt-4o-mini-2099').input).toBe(3);
      expect(table.lookup('gpt-4-turbo').input).toBe(2);
      expect(table.lookup('gpt-3.5').input).toBe(1);
    }
  });

  it('falls back to 30/30 per token for an unknown model', () => {
    const table = new PriceTable([price('gpt-4*', 1)]);
    expect(table.lookup('claude-3')).toBe(FALLBACK_PRICE);
    expect(FALLBACK_PRICE).toMatchObject({ type: 'tokens', input: 30, output: 30 });
  });

  it('returns the same frozen object every time, so callers cannot change prices', () => {
    const table = new PriceTable([price('m', 1)]);
    const first = table.lookup('m');
    expect(table.lookup('m')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.extra_ratios)).toBe(true);
  });

  it('lists prices by channel type, then model', () => {
    const table = new PriceTable([price('b', 1, 14), price('z', 1, 1), price('a', 1, 14)]);
    expect(table.sorted.map((entry) => entry.model)).toEqual(['z', 'a', 'b']);
  });
});

describe('the built-in price list', () => {
  it('has one entry per model, valid ratios, and prices the models the relay expects', () => {
    const models = DEFAULT_PRICES.map((entry) => entry.model);
    expect(new Set(models).size).toBe(models.length);
    for (const entry of DEFAULT_PRICES) {
      expect(entry.input).toBeGreaterThanOrEqual(0);
      expect(entry.output).toBeGreaterThanOrEqual(0);
    }
    const table = new PriceTable(DEFAULT_PRICES);
    expect(table.lookup('gpt-4o')).toMatchObject({ input: 1.25, output: 5, channel_type: providerType('openai') });
    expect(table.lookup('claude-3-7-sonnet-20250219')).toMatchObject({
      input: 1.5,
      output: 7.5,
      channel_type: providerType('anthropic'),
    });
    expect(table.lookup('gemini-2.5-pro').channel_type).toBe(providerType('gemini'));
    expect(table.lookup('deepseek-chat').channel_type).toBe(providerType('deepseek'));
    expect(table.lookup('mj_imagine')).toMatchObject({
      type: 'times',
      input: 50,
      channel_type: providerType('midjourney'),
    });
  });
});
