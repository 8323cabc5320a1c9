import { csvDocument } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { breakdownCsv, tableFileStem, topUsersCsv } from './tableCsv.js';

describe('analytics table CSV', () => {
  it('writes the top users in rank order under the API names, quota as the integer quota', () => {
    const rows = topUsersCsv([
      {
        user_id: 7,
        username: 'ann',
        display_name: 'Ann, B.',
        request_count: 3,
        quota: 1500,
        prompt_tokens: 10,
        completion_tokens: 20,
        request_time: 900,
      },
      {
        user_id: 9,
        username: '',
        display_name: '',
        request_count: 1,
        quota: 5,
        prompt_tokens: 1,
        completion_tokens: 2,
        request_time: 100,
      },
    ]);
    expect(csvDocument(rows)).toBe(
      'rank,user_id,username,display_name,request_count,quota,prompt_tokens,completion_tokens,request_time\r\n' +
        '1,7,ann,"Ann, B.",3,1500,10,20,900\r\n' +
        '2,9,,,1,5,1,2,100\r\n',
    );
  });

  it('names the breakdown’s first column after its grouping', () => {
    const rows = breakdownCsv('channel', [
      { label: 'alpha', quota: 9, requests: 2, promptTokens: 3, completionTokens: 4, tokens: 7, requestTime: 50 },
    ]);
    expect(rows).toEqual([
      ['channel', 'request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'],
      ['alpha', 2, 9, 3, 4, 50],
    ]);
  });

  it('puts the period in the file name when there is one', () => {
    expect(tableFileStem('top-users', '2026-12-01', '2026-12-07')).toBe('top-users_2026-12-01_2026-12-07');
    expect(tableFileStem('breakdown', undefined, undefined)).toBe('breakdown');
  });
});
