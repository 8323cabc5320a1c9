import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';

function currentMinute(): number {
  return Math.floor(Date.now() / 60_000);
}

describe.each(availableDialects)('relayed requests on the dashboard (%s)', (dialect) => {
  let r: RelayTestContext;
  let cookie: string;

  beforeAll(async () => {
    r = await startRelayTest({ dialect });
    cookie = await r.t.login('relayuser', 'password-123');
    // Below 60 RPM the limiter is a fixed window, which counts every request exactly.
    const groups = await r.admin('GET', '/api/user_group/?size=100');
    const list = (groups.body.data as { data: Array<Record<string, unknown>> }).data;
    const defaultGroup = list.find((group) => group.symbol === 'default');
    const updated = await r.admin('PUT', '/api/user_group/', { ...defaultGroup, api_rate: 30 });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  });
  afterAll(async () => {
    await r?.close();
  });

  it('counts the relayed requests against the group limit and rolls their usage into the dashboard', async () => {
    const minute = currentMinute();
    for (let index = 0; index < 3; index++) {
      await r.client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    }
    const rate = await r.t.app.inject({ method: 'GET', url: '/api/user/dashboard/rate', headers: { cookie } });
    expect(rate.statusCode, rate.body).toBe(200);
    const data = rate.json().data;
    expect(data.maxRPM).toBe(30);
    expect([data.tpm, data.maxTPM, data.usageTpmRate]).toEqual([0, 0, 0]);
    // A new minute may start between the requests and the reading; then fewer are counted.
    if (currentMinute() === minute) expect(data.rpm).toBe(3);
    else expect(data.rpm).toBeLessThanOrEqual(3);
    expect(data.usageRpmRate).toBe(Math.round((data.rpm / 30) * 10_000) / 100);

    await r.t.app.relay.flush();
    const dashboard = await r.t.app.inject({ method: 'GET', url: '/api/user/dashboard', headers: { cookie } });
    const rows = dashboard.json().data as Array<{ ModelName: string; RequestCount: number; Quota: number }>;
    const logs = await r.t.database.db
      .selectFrom('logs')
      .select(['quota'])
      .where('type', '=', 2)
      .where('user_id', '=', r.userId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.ModelName).toBe('gpt-4o-mini');
    expect(rows[0]?.RequestCount).toBe(3);
    expect(rows[0]?.Quota).toBe(logs.reduce((sum, log) => sum + Number(log.quota), 0));
    expect(rows[0]?.Quota).toBeGreaterThan(0);
  });
});
