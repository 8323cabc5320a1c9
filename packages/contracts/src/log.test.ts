import { describe, expect, it } from 'vitest';
import { deleteLogsQuery, logExportQuery, logListQuery, ownLogExportQuery, tokensPerSecond } from './log.js';

describe('log contracts', () => {
  it('computes output speed as completion tokens over total seconds, 0 when unmeasurable', () => {
    expect(tokensPerSecond(100, 2000)).toBe(50);
    expect(tokensPerSecond(100, 0)).toBe(0);
    expect(tokensPerSecond(0, 1500)).toBe(0);
    expect(tokensPerSecond(Number.NaN, 1500)).toBe(0);
  });

  it('reads query strings: empty filters mean none, numbers are coerced', () => {
    const parsed = logListQuery.parse({ log_type: '2', start_timestamp: '', username: ' bob ', channel_id: '7' });
    expect(parsed).toMatchObject({
      log_type: 2,
      start_timestamp: 0,
      username: 'bob',
      channel_id: 7,
      page: 1,
      size: 10,
    });
    expect(deleteLogsQuery.safeParse({}).success).toBe(false);
    expect(deleteLogsQuery.parse({ target_timestamp: '1700000000' }).target_timestamp).toBe(1_700_000_000);
  });
});

describe('log export query', () => {
  it('takes the list filters without paging, csv by default, and refuses another format by name', () => {
    expect(logExportQuery.parse({ username: 'bob', page: '3', size: '50' })).toEqual({
      username: 'bob',
      format: 'csv',
    });
    expect(ownLogExportQuery.parse({ format: 'jsonl', model_name: 'gpt-4o' })).toEqual({
      format: 'jsonl',
      model_name: 'gpt-4o',
    });
    expect(logExportQuery.parse({ format: '' }).format).toBe('csv');
    const refused = logExportQuery.safeParse({ format: 'xlsx' });
    expect(refused.error?.issues[0]?.message).toBe('format must be csv or jsonl');
    expect(ownLogExportQuery.parse({ username: 'root' })).toEqual({ format: 'csv' });
  });
});
