import { describe, expect, it } from 'vitest';
import { deleteLogsQuery, logListQuery, tokensPerSecond } from './log.js';

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
