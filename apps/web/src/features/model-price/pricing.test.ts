import type { PriceView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { type AvailableModels, displayPrice, filterRows, ownerCounts, toRows } from './pricing.js';

const price = (fields: Partial<PriceView>): PriceView => ({
  model: 'm',
  type: 'tokens',
  channel_type: 1,
  input: 1,
  output: 1,
  locked: false,
  extra_ratios: {},
  ...fields,
});

describe('displayPrice', () => {
  it('turns ratios into dollars per 1K and per 1M tokens, times the group ratio', () => {
    expect(displayPrice(price({ input: 1.5, output: 7.5 }), 1)).toEqual({
      type: 'tokens',
      input: { perThousand: 0.003, perMillion: 3 },
      output: { perThousand: 0.015, perMillion: 15 },
    });
    expect(displayPrice(price({ input: 1.5, output: 7.5 }), 2)).toEqual({
      type: 'tokens',
      input: { perThousand: 0.006, perMillion: 6 },
      output: { perThousand: 0.03, perMillion: 30 },
    });
  });

  it('prices `times` models per call: 1000 × input quota, i.e. input × $0.002', () => {
    expect(displayPrice(price({ type: 'times', input: 25, output: 0 }), 1)).toEqual({ type: 'times', perCall: 0.05 });
    expect(displayPrice(price({ type: 'times', input: 25, output: 0 }), 0.5)).toEqual({
      type: 'times',
      perCall: 0.025,
    });
  });

  it('treats a broken group ratio as 1 and negative prices as free', () => {
    expect(displayPrice(price({ input: -1, output: 1 }), Number.NaN)).toEqual({
      type: 'tokens',
      input: { perThousand: 0, perMillion: 0 },
      output: { perThousand: 0.002, perMillion: 2 },
    });
  });
});

describe('rows', () => {
  const models: AvailableModels = {
    'gpt-4o': { groups: ['default'], owned_by: 'OpenAI', price: price({ model: 'gpt-4o' }) },
    'claude-3': { groups: ['default', 'vip'], owned_by: 'Anthropic', price: price({ model: 'claude-3' }) },
    'gpt-4o-mini': { groups: ['vip'], owned_by: 'OpenAI', price: price({ model: 'gpt-4o-mini' }) },
    mj_imagine: { groups: ['default'], owned_by: 'Midjourney', price: price({ type: 'times' }) },
  };
  const rows = toRows(models);

  it('lists models by name with their type', () => {
    expect(rows.map((row) => row.model)).toEqual(['claude-3', 'gpt-4o', 'gpt-4o-mini', 'mj_imagine']);
    expect(rows.at(-1)?.type).toBe('times');
  });

  it('filters by search text, owner and group', () => {
    const names = (filter: Partial<Parameters<typeof filterRows>[1]>) =>
      filterRows(rows, { search: '', owner: '', group: '', ...filter }).map((row) => row.model);
    expect(names({ search: 'GPT' })).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(names({ search: 'anthro' })).toEqual(['claude-3']);
    expect(names({ owner: 'OpenAI', group: 'vip' })).toEqual(['gpt-4o-mini']);
    expect(names({ group: 'default' })).toEqual(['claude-3', 'gpt-4o', 'mj_imagine']);
  });

  it('counts models per owner, largest first', () => {
    expect(ownerCounts(rows)).toEqual([
      { owner: 'OpenAI', count: 2 },
      { owner: 'Anthropic', count: 1 },
      { owner: 'Midjourney', count: 1 },
    ]);
  });
});
