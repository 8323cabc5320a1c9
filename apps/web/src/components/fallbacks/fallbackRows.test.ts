import { describe, expect, it } from 'vitest';
import { checkFallbackRows, fallbacksToRows, rowsToFallbacks } from './fallbackRows.js';

const t = (key: string, values?: Record<string, unknown>) => (values ? `${key}:${JSON.stringify(values)}` : key);

describe('fallback rows', () => {
  it('round-trips a map through the rows, dropping rows left empty', () => {
    const map = { 'gpt-4o': ['gpt-4o-mini', 'claude-3-5-haiku'] };
    const rows = [...fallbacksToRows(map), { model: ' ', fallbacks: ' , ' }];
    expect(rows[0]).toEqual({ model: 'gpt-4o', fallbacks: 'gpt-4o-mini, claude-3-5-haiku' });
    expect(rowsToFallbacks(rows)).toEqual(map);
    expect(checkFallbackRows(rows, t)).toEqual({ fallbacks: map, errors: {} });
  });

  it('names each row’s problem on its input', () => {
    const rows = [
      { model: '', fallbacks: 'x' },
      { model: 'a', fallbacks: '' },
      { model: 'b', fallbacks: 'b' },
      { model: 'c', fallbacks: 'd, d' },
      { model: 'e', fallbacks: 'f1, f2, f3, f4, f5, f6' },
      { model: 'a', fallbacks: 'z' },
    ];
    expect(checkFallbackRows(rows, t)).toEqual({
      fallbacks: null,
      errors: {
        'fallbacks.0.model': 'fallback:errors.modelRequired',
        'fallbacks.1.fallbacks': 'fallback:errors.listRequired',
        'fallbacks.2.fallbacks': 'fallback:errors.self',
        'fallbacks.3.fallbacks': 'fallback:errors.twice',
        'fallbacks.4.fallbacks': 'fallback:errors.tooMany:{"max":5}',
        'fallbacks.5.model': 'fallback:errors.modelTwice',
      },
    });
  });

  it('refuses a cycle through several rows, on the row it starts from', () => {
    const rows = [
      { model: 'x', fallbacks: 'y' },
      { model: 'y', fallbacks: 'z' },
      { model: 'z', fallbacks: 'x' },
    ];
    expect(checkFallbackRows(rows, t).errors).toEqual({
      'fallbacks.0.fallbacks': 'fallback:errors.cycle:{"cycle":"x → y → z → x"}',
    });
  });
});
