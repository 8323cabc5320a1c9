import { describe, expect, it } from 'vitest';
import { daysBetween, isCalendarDay, multiUserStatsQuery, splitUsernames, topUsersQuery } from './statistics.js';

describe('calendar days', () => {
  it('accepts real YYYY-MM-DD days only', () => {
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isCalendarDay('2023-02-29')).toBe(false);
    expect(isCalendarDay('2024-13-01')).toBe(false);
    expect(isCalendarDay('2024-1-01')).toBe(false);
    expect(isCalendarDay('1704067200')).toBe(false);
  });

  it('counts whole days between two dates, across DST and years', () => {
    expect(daysBetween('2024-03-30', '2024-04-02')).toBe(3);
    expect(daysBetween('2024-12-31', '2025-01-01')).toBe(1);
    expect(daysBetween('2024-01-02', '2024-01-01')).toBe(-1);
  });
});

describe('user comparison query', () => {
  it('splits, trims and de-duplicates the usernames, keeping their order', () => {
    expect(splitUsernames(' bob, alice,,bob , ')).toEqual(['bob', 'alice']);
    const query = multiUserStatsQuery.parse({
      usernames: 'bob, alice',
      start_time: '2024-01-01',
      end_time: '2024-01-31',
    });
    expect(query).toEqual({ usernames: ['bob', 'alice'], start_time: '2024-01-01', end_time: '2024-01-31' });
  });

  it('allows a range of at most 400 days', () => {
    const base = { usernames: 'a' };
    expect(multiUserStatsQuery.safeParse({ ...base, start_time: '2024-01-01', end_time: '2025-02-04' }).success).toBe(
      true,
    );
    expect(multiUserStatsQuery.safeParse({ ...base, start_time: '2024-01-01', end_time: '2025-02-05' }).success).toBe(
      false,
    );
  });
});

describe('top users query', () => {
  it('ranks by quota, ten users, unless told otherwise', () => {
    expect(topUsersQuery.parse({ start_timestamp: '1', end_timestamp: '2' })).toEqual({
      start_timestamp: 1,
      end_timestamp: 2,
      order: 'quota',
      limit: 10,
    });
    expect(
      topUsersQuery.parse({ start_timestamp: 1, end_timestamp: 2, order: 'request_count', limit: '50' }).limit,
    ).toBe(50);
  });
});
