import type { GroupBudgetWindowView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { availableDialects } from '../../../test/databases.js';
import { windowAt } from '../../domain/budget-windows.js';

/**
 * `GET /api/user_group/:id` adds `budget_windows` (issue 33): per window of the group's budgets,
 * how many members have use in their current window, how many reached the allowance, and the member
 * nearest to it, counted from `budget_usage` (the rows the relay writes each second).
 */
const HOUR = 3_600_000;

describe.each(availableDialects)('a user group’s budget windows on %s', (dialect) => {
  const s = useRootAndPlain(dialect);

  const member = async (name: string, group: string) => {
    const { id } = await s.t.createUser(name);
    expect((await s.call('PUT', '/api/user/', s.root, { id, group })).statusCode).toBe(200);
    return id;
  };
  const use = (subject: string, period: string, started: number, used: Partial<Record<string, number>>) =>
    s.t.database.db
      .insertInto('budget_usage')
      .values({
        subject,
        period,
        started_at: started,
        quota: used.quota ?? 0,
        requests: used.requests ?? 0,
        tokens: used.tokens ?? 0,
        updated_at: started,
      })
      .execute();
  const createGroup = async (symbol: string, budgets: object[]) => {
    const created = await s.call('POST', '/api/user_group/', s.root, { symbol, name: symbol, budgets });
    expect(created.statusCode).toBe(200);
    return (created.json().data as { id: number }).id;
  };
  const windowsOf = async (id: number) => {
    const read = await s.call('GET', `/api/user_group/${id}`, s.root);
    expect(read.statusCode).toBe(200);
    return (read.json().data as { budget_windows: GroupBudgetWindowView[] }).budget_windows;
  };

  it('counts the members using and using up each window, and names the one nearest its limit', async () => {
    const id = await createGroup('crew', [
      { period: 'day', requests: 10, quota: 1000 },
      { period: 'week', tokens: 500 },
    ]);
    const now = Date.now();
    const ann = await member('crewann', 'crew');
    const bob = await member('crewbob', 'crew');
    const cid = await member('crewcid', 'crew');
    const outsider = await member('outsider', 'default');
    await use(`user:${ann}`, 'day', now - HOUR, { requests: 10, quota: 200 });
    await use(`user:${bob}`, 'day', now - 2 * HOUR, { requests: 3, quota: 900 });
    // Ended a day ago: a window that no longer holds counts nothing.
    await use(`user:${cid}`, 'day', now - 25 * HOUR, { requests: 9 });
    // Another group's member, and subjects that are not users (a key and a plan with the same ids).
    await use(`user:${outsider}`, 'day', now - HOUR, { requests: 10 });
    await use(`key:${ann}`, 'day', now - HOUR, { requests: 10 });
    await use(`sub:${bob}`, 'day', now - HOUR, { requests: 10 });
    await use(`user:${bob}`, 'week', now - 3 * 24 * HOUR, { tokens: 600 });
    await use(`user:${cid}`, 'week', now - HOUR, { tokens: 100 });

    const [day, week] = await windowsOf(id);
    expect(day).toMatchObject({ period: 'day', requests: 10, quota: 1000, tokens: null });
    expect(day).toMatchObject({ members_using: 2, members_exhausted: 1 });
    // Ann used all her requests (100%), Bob 90% of the money: Ann is nearest her limit.
    expect(day?.top).toMatchObject({ user_id: ann, username: 'crewann', used_requests: 10, used_quota: 200 });
    expect((day?.top?.resets_at ?? 0) - (day?.top?.started_at ?? 0)).toBe(24 * 3600);
    expect(week).toMatchObject({ period: 'week', tokens: 500, members_using: 2, members_exhausted: 1 });
    expect(week?.top).toMatchObject({ user_id: bob, username: 'crewbob', used_tokens: 600 });
  });

  it('shows an allowance nobody used with no members and no top member', async () => {
    const id = await createGroup('quiet', [{ period: '5h', requests: 5 }]);
    await member('quietone', 'quiet');
    expect(await windowsOf(id)).toEqual([
      { period: '5h', quota: null, requests: 5, tokens: null, members_using: 0, members_exhausted: 0, top: null },
    ]);
    expect(await windowsOf(await createGroup('bare', []))).toEqual([]);
  });

  it('counts only the current calendar window when windows follow the calendar', async () => {
    await s.t.services.options.update('BudgetWindowMode', 'calendar');
    try {
      const id = await createGroup('clock', [{ period: 'day', requests: 4 }]);
      const now = Date.now();
      const today = windowAt('day', { mode: 'calendar', timeZone: 'UTC' }, now).start;
      const early = await member('clockearly', 'clock');
      const late = await member('clocklate', 'clock');
      const rolling = await member('clockroll', 'clock');
      await use(`user:${early}`, 'day', today, { requests: 4 });
      // Yesterday's calendar window, and a window opened while windows were rolling.
      await use(`user:${late}`, 'day', today - 24 * HOUR, { requests: 2 });
      await use(`user:${rolling}`, 'day', today + 1, { requests: 3 });
      const [day] = await windowsOf(id);
      expect(day).toMatchObject({ members_using: 1, members_exhausted: 1 });
      expect(day?.top).toMatchObject({ user_id: early, used_requests: 4, started_at: today / 1000 });
    } finally {
      await s.t.services.options.update('BudgetWindowMode', 'rolling');
    }
  });

  it('is for administrators only', async () => {
    const id = await createGroup('private', [{ period: 'day', requests: 1 }]);
    expect((await s.call('GET', `/api/user_group/${id}`, s.plain)).statusCode).toBe(403);
  });
});
