import { describe, expect, it } from 'vitest';
import { currentStarts, ROLLING_MS, type WindowClock, windowAt, windowHolds } from './budget-windows.js';

/** The range of starts a stored window must fall in (the group view's SQL) says what windowHolds says. */
describe('currentStarts', () => {
  const now = Date.UTC(2026, 11, 6, 17, 30, 0);
  const rolling: WindowClock = { mode: 'rolling', timeZone: 'UTC' };
  const calendar: WindowClock = { mode: 'calendar', timeZone: 'Asia/Shanghai' };
  const within = (range: { from: number; to: number }, start: number) => range.from <= start && start <= range.to;

  it('takes a rolling window that started within its length before now, and none that starts later', () => {
    const range = currentStarts('day', rolling, now);
    for (const start of [now, now - 1, now - ROLLING_MS.day + 1, now - ROLLING_MS.day, now + 1]) {
      expect(within(range, start), `start ${now - start} ms ago`).toBe(windowHolds('day', rolling, start, now));
    }
    expect(within(range, now - ROLLING_MS.day + 1)).toBe(true);
    expect(within(range, now - ROLLING_MS.day)).toBe(false);
  });

  it('takes only the current calendar window’s start in the site’s time zone', () => {
    const today = windowAt('day', calendar, now).start;
    expect(currentStarts('day', calendar, now)).toEqual({ from: today, to: today });
    expect(new Date(today).toISOString()).toBe('2026-12-06T16:00:00.000Z');
    for (const start of [today, today + 1, today - 1, today - ROLLING_MS.day]) {
      expect(within(currentStarts('day', calendar, now), start)).toBe(windowHolds('day', calendar, start, now));
    }
  });
});
