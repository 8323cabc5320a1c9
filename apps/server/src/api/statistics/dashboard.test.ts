import type { DashboardRow } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeRow } from '../../../test/api/consume-rows.js';
import { daysAgo } from '../../../test/api/days.js';
import { startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { LogWriter } from '../log/writer.js';

describe.each(availableDialects)('GET /api/user/dashboard on %s', (dialect) => {
  let t: TestApp;
  let alice: { id: number; cookie: string };
  let bob: { id: number; cookie: string };

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    alice = await t.createUser('alice');
    bob = await t.createUser('bob');
    const writer = new LogWriter(t.database, { flushIntervalMs: 60_000 });
    // Two channels of the same model on the same day fold into one dashboard row.
    for (const quota of [1, 2, 3]) writer.push(consumeRow(alice.id, 0, 'gpt-4o', quota, 1 + (quota % 2)));
    writer.push(consumeRow(alice.id, 0, 'claude', 50));
    writer.push(consumeRow(alice.id, 7, 'gpt-4o', 70));
    writer.push(consumeRow(alice.id, 8, 'gpt-4o', 80));
    writer.push(consumeRow(alice.id, 30, 'gpt-4o', 300));
    writer.push(consumeRow(bob.id, 0, 'gpt-4o', 1000));
    await writer.close();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function dashboard(cookie: string): Promise<DashboardRow[]> {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/dashboard', headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.success).toBe(true);
    return body.data;
  }

  it('returns the caller’s rows of today and the seven days before, per date and model, with Go field names', async () => {
    const rows = await dashboard(alice.cookie);
    expect(rows).toEqual([
      {
        Date: daysAgo(7).date,
        ModelName: 'gpt-4o',
        RequestCount: 1,
        Quota: 70,
        PromptTokens: 10,
        CompletionTokens: 20,
        RequestTime: 300,
      },
      {
        Date: daysAgo(0).date,
        ModelName: 'claude',
        RequestCount: 1,
        Quota: 50,
        PromptTokens: 10,
        CompletionTokens: 20,
        RequestTime: 300,
      },
      {
        Date: daysAgo(0).date,
        ModelName: 'gpt-4o',
        RequestCount: 3,
        Quota: 6,
        PromptTokens: 30,
        CompletionTokens: 60,
        RequestTime: 900,
      },
    ]);
  });

  it('shows each user only their own usage', async () => {
    const rows = await dashboard(bob.cookie);
    expect(rows.map((row) => [row.ModelName, row.Quota])).toEqual([['gpt-4o', 1000]]);
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/dashboard' });
    expect(response.statusCode).toBe(401);
  });

  it('reports the rate limit of the caller’s group with nothing used yet', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/dashboard/rate',
      headers: { cookie: alice.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      rpm: 0,
      maxRPM: 600,
      usageRpmRate: 0,
      tpm: 0,
      maxTPM: 0,
      usageTpmRate: 0,
    });
  });
});
