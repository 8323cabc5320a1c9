import { describe, expect, it } from 'vitest';
import { barColor, groupTopWindow, resetTime, sortWindows, windowBars } from './budgetUsage.js';
import { windowFixture } from './windowFixture.js';

const view = windowFixture;

describe('budget usage', () => {
  it('draws one bar per limited measure, capped at 100%', () => {
    const bars = windowBars(view({ quota: 1000, used_quota: 250, tokens: 100, used_tokens: 130, used_requests: 9 }));
    expect(bars).toEqual([
      { measure: 'quota', used: 250, limit: 1000, percent: 25 },
      { measure: 'tokens', used: 130, limit: 100, percent: 100 },
    ]);
  });

  it('says when a window resets, or that none is open', () => {
    expect(resetTime(view({ started_at: 100, resets_at: 18_100 }))).toBe(18_100);
    expect(resetTime(view({}))).toBeNull();
  });

  it('colours by the share used', () => {
    expect([barColor(10), barColor(70), barColor(95)]).toEqual(['primary', 'warning', 'error']);
  });

  it('lists windows shortest first, then plan, key, user, group', () => {
    const sorted = sortWindows([
      view({ scope: 'group', period: 'month' }),
      view({ scope: 'group', period: '5h' }),
      view({ scope: 'user', period: '5h' }),
      view({ scope: 'plan', period: 'week' }),
    ]);
    expect(sorted.map((window) => `${window.scope}-${window.period}`)).toEqual([
      'user-5h',
      'group-5h',
      'plan-week',
      'group-month',
    ]);
  });

  it('draws a group window as its top member’s use against the group’s allowance', () => {
    const top = { user_id: 7, username: 'ann', used_quota: 0, used_requests: 9, used_tokens: 40 };
    const window = {
      period: 'week',
      quota: null,
      requests: 10,
      tokens: null,
      members_using: 3,
      members_exhausted: 0,
    } as const;
    expect(groupTopWindow({ ...window, top: { ...top, started_at: 5, resets_at: 605 } })).toEqual(
      windowFixture({
        scope: 'group',
        period: 'week',
        requests: 10,
        used_requests: 9,
        used_tokens: 40,
        started_at: 5,
        resets_at: 605,
      }),
    );
    expect(windowBars(groupTopWindow({ ...window, top: null }))).toEqual([
      { measure: 'requests', used: 0, limit: 10, percent: 0 },
    ]);
  });
});
