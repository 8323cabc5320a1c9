import type { InvoiceModelRow, InvoiceMonth, Paged } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { formatLocalDate } from '../statistics/dates.js';
import { lastMonthOf } from './service.js';

/** The first day of the month `months` before this one (0: this month). */
function monthBefore(months: number): string {
  const now = new Date();
  return formatLocalDate(new Date(now.getFullYear(), now.getMonth() - months, 1));
}

/**
 * Monthly invoices on each database: a past month is built once from the daily statistics, summed
 * per user and model; users read their own months and lines; the setting turns the feature off.
 */
describe.each(availableDialects)('monthly invoices on %s', (dialect) => {
  let t: TestApp;
  let alice: { id: number; cookie: string };
  let bob: { id: number; cookie: string };
  const lastMonth = monthBefore(1);
  const twoAgo = monthBefore(2);

  const asRoot = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: ROOT_TOKEN }, ...(payload ? { payload } : {}) });
  const asUser = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    alice = await t.createUser('invalice');
    bob = await t.createUser('invbob');
    const day = (month: string, dayOfMonth: number) => `${month.slice(0, 8)}${String(dayOfMonth).padStart(2, '0')}`;
    const row = (date: string, userId: number, channelId: number, model: string, requests: number, quota: number) => ({
      date,
      user_id: userId,
      channel_id: channelId,
      model_name: model,
      request_count: requests,
      quota,
      prompt_tokens: requests * 10,
      completion_tokens: requests * 20,
      request_time: requests * 100,
    });
    await t.database.db
      .insertInto('statistics')
      .values([
        row(day(lastMonth, 1), alice.id, 1, 'gpt-4o', 2, 500),
        row(day(lastMonth, 15), alice.id, 2, 'gpt-4o', 3, 700),
        row(day(lastMonth, 28), alice.id, 1, 'claude-sonnet-4-6', 1, 9_000),
        row(day(lastMonth, 3), bob.id, 1, 'gpt-4o', 5, 50),
        row(day(twoAgo, 10), alice.id, 1, 'gpt-4o', 4, 400),
        // This month's usage is not invoiced yet.
        row(day(monthBefore(0), 1), alice.id, 1, 'gpt-4o', 9, 999),
      ])
      .execute();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers an empty list while UserInvoiceMonth is off and no month was built, as One Hub does', async () => {
    const answer = await asUser(alice.cookie, '/api/user/invoice');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toMatchObject({ data: [], total_count: 0 });
    const detail = await asUser(alice.cookie, `/api/user/invoice/detail?date=${lastMonth}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toEqual([]);
  });

  it('builds past months once, sums them per user and model, and refuses a month not yet over', async () => {
    expect((await asRoot('PUT', '/api/option/', { key: 'UserInvoiceMonth', value: 'true' })).statusCode).toBe(200);
    // The master node's daily job builds last month, once.
    expect(await t.services.invoices.buildLastMonth()).toEqual({ date: lastMonth, count: 3 });
    expect(await t.services.invoices.buildLastMonth()).toBeUndefined();
    const built = await asRoot('POST', `/api/option/invoice/update/${lastMonth.slice(0, 8)}17`);
    expect(built.statusCode).toBe(200);
    expect(built.json().data).toEqual({ date: lastMonth, count: 3 });
    expect((await asRoot('POST', `/api/option/invoice/gen/${lastMonth}`)).statusCode).toBe(409);
    expect((await asRoot('POST', `/api/option/invoice/gen/${monthBefore(0)}`)).statusCode).toBe(400);
    expect((await asRoot('POST', '/api/option/invoice/gen/2026-13-01')).statusCode).toBe(400);
    // The daily job builds only what is missing: the month before last here.
    expect(lastMonthOf(new Date())).toBe(lastMonth);
    expect((await asRoot('POST', `/api/option/invoice/gen/${twoAgo}`)).json().data).toEqual({ date: twoAgo, count: 1 });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/option/invoice/gen/${twoAgo}`,
          headers: { cookie: alice.cookie },
        })
      ).statusCode,
    ).toBe(403);
  });

  it("shows each user their own months and a month's lines per model", async () => {
    const months = (await asUser(alice.cookie, '/api/user/invoice')).json().data as Paged<InvoiceMonth>;
    expect(months.total_count).toBe(2);
    expect(months.data).toEqual([
      {
        date: lastMonth,
        request_count: 6,
        quota: 10_200,
        prompt_tokens: 60,
        completion_tokens: 120,
        request_time: 600,
      },
      { date: twoAgo, request_count: 4, quota: 400, prompt_tokens: 40, completion_tokens: 80, request_time: 400 },
    ]);
    const byQuota = (await asUser(alice.cookie, '/api/user/invoice?order=quota')).json().data as Paged<InvoiceMonth>;
    expect(byQuota.data.map((month) => month.date)).toEqual([twoAgo, lastMonth]);
    expect((await asUser(alice.cookie, '/api/user/invoice?order=user_id')).statusCode).toBe(400);

    const lines = (await asUser(alice.cookie, `/api/user/invoice/detail?date=${lastMonth}`)).json()
      .data as InvoiceModelRow[];
    expect(lines.map((line) => [line.model_name, line.request_count, line.quota])).toEqual([
      ['claude-sonnet-4-6', 1, 9_000],
      ['gpt-4o', 5, 1_200],
    ]);
    const bobs = (await asUser(bob.cookie, '/api/user/invoice')).json().data as Paged<InvoiceMonth>;
    expect(bobs.data).toEqual([
      { date: lastMonth, request_count: 5, quota: 50, prompt_tokens: 50, completion_tokens: 100, request_time: 500 },
    ]);
    expect((await asUser(bob.cookie, '/api/user/invoice/detail?date=2026-02-15')).statusCode).toBe(400);
  });

  it('rebuilds a month with update after its statistics changed', async () => {
    await t.database.db
      .updateTable('statistics')
      .set({ quota: 60 })
      .where('user_id', '=', bob.id)
      .where('date', '>=', lastMonth)
      .execute();
    const rebuilt = await asRoot('POST', `/api/option/invoice/update/${lastMonth}`);
    expect(rebuilt.json().data).toEqual({ date: lastMonth, count: 3 });
    const bobs = (await asUser(bob.cookie, '/api/user/invoice')).json().data as Paged<InvoiceMonth>;
    expect(bobs.data[0]?.quota).toBe(60);
  });
});
