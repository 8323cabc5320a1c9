import { describe, expect, it } from 'vitest';
import {
  absorbTyping,
  compareErrors,
  compareSearch,
  draftUsernames,
  missingUsernames,
  toCompareQuery,
} from './compareForm.js';

const range = { from: '2025-03-01', to: '2025-03-07' };

describe('usernames box', () => {
  it('turns everything before the last comma into chips, once each', () => {
    expect(absorbTyping(['ann'], 'bob, cy')).toEqual({ usernames: ['ann', 'bob'], pending: 'cy' });
    expect(absorbTyping(['ann'], 'ann,bob,')).toEqual({ usernames: ['ann', 'bob'], pending: '' });
    expect(absorbTyping(['ann'], 'bo')).toEqual({ usernames: ['ann'], pending: 'bo' });
  });

  it('counts the text still typed as a name', () => {
    expect(draftUsernames({ usernames: ['ann'], pending: ' bob ' })).toEqual(['ann', 'bob']);
    expect(draftUsernames({ usernames: ['ann'], pending: 'ann' })).toEqual(['ann']);
  });
});

describe('compare form checks', () => {
  it('asks for at least one name, at most 50, and a valid range', () => {
    expect(compareErrors({ usernames: [], pending: ' ', ...range })).toEqual({ usernames: 'required' });
    const many = Array.from({ length: 51 }, (_, index) => `user${index}`);
    expect(compareErrors({ usernames: many, pending: '', ...range })).toEqual({ usernames: 'tooMany' });
    expect(compareErrors({ usernames: ['ann'], pending: '', from: '2025-03-08', to: '2025-03-07' })).toEqual({
      to: 'reversed',
    });
    expect(compareErrors({ usernames: [], pending: 'ann', ...range })).toEqual({});
  });

  it('builds the query the server reads, and finds the names it did not answer for', () => {
    const query = toCompareQuery({ usernames: ['ann'], pending: 'bob', ...range });
    expect(query).toEqual({ usernames: ['ann', 'bob'], start_time: '2025-03-01', end_time: '2025-03-07' });
    expect(compareSearch(query)).toBe('usernames=ann%2Cbob&start_time=2025-03-01&end_time=2025-03-07');
    expect(missingUsernames(query, [{ username: 'bob' }])).toEqual(['ann']);
  });
});
