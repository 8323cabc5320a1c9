import { describe, expect, it } from 'vitest';
import { shownNames, UNPRICED_NAMES_SHOWN, unpricedPolicy } from './unpricedNote.js';

const options = (policy?: string) => ({
  values: policy === undefined ? {} : { UnpricedModelPolicy: policy },
  secretsSet: {},
});

describe('the unpriced-models note', () => {
  it('says "refuse" or "fallback" as the setting reads, and "unknown" to someone who may not read it', () => {
    expect(unpricedPolicy(options('refuse'))).toBe('refuse');
    expect(unpricedPolicy(options('fallback'))).toBe('fallback');
    // Never set: the default, the fallback price.
    expect(unpricedPolicy(options())).toBe('fallback');
    expect(unpricedPolicy(undefined)).toBe('unknown');
  });

  it('shows the first twelve names and counts the rest', () => {
    const names = Array.from({ length: 15 }, (_, index) => `model-${index + 1}`);
    expect(UNPRICED_NAMES_SHOWN).toBe(12);
    expect(shownNames(names)).toEqual({ shown: names.slice(0, 12), more: 3 });
    expect(shownNames(names.slice(0, 12))).toEqual({ shown: names.slice(0, 12), more: 0 });
    expect(shownNames(['only'])).toEqual({ shown: ['only'], more: 0 });
  });
});
