import { LogType } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';

// gpt-4o-mini is priced 1 / 2 in these tests and the mock reports 12 prompt + 7 completion tokens.
const COST = 12 * 1 + 7 * 2;

/** LogConsumeEnabled off: requests are charged exactly as before, and no consume log row is written. */
describe('LogConsumeEnabled', () => {
  let r: RelayTestContext;

  beforeAll(async () => {
    r = await startRelayTest();
  }, 60_000);
  afterAll(() => r?.close());

  const setLogging = async (on: boolean) => {
    expect((await r.admin('PUT', '/api/option/', { key: 'LogConsumeEnabled', value: String(on) })).status).toBe(200);
  };
  const rowsOfType = async (type: LogType) => {
    await r.t.app.relay.flush();
    return (await r.t.database.db.selectFrom('logs').select('id').where('type', '=', type).execute()).length;
  };
  const consumeRows = () => rowsOfType(LogType.consume);
  /** Requests counted in the daily statistics the dashboards read (rolled up from consume rows). */
  const statisticsRequests = async () => {
    await r.t.app.relay.flush();
    const rows = await r.t.database.db.selectFrom('statistics').select('request_count').execute();
    return rows.reduce((sum, row) => sum + Number(row.request_count), 0);
  };
  const counters = async () => {
    await r.t.app.relay.flush();
    const user = await r.t.database.db
      .selectFrom('users')
      .select(['used_quota', 'request_count'])
      .where('id', '=', r.userId)
      .executeTakeFirstOrThrow();
    const key = await r.t.database.db
      .selectFrom('tokens')
      .select('used_quota')
      .where('name', '=', 'test key')
      .executeTakeFirstOrThrow();
    return {
      quota: await storedQuota(r),
      userUsed: Number(user.used_quota),
      requests: Number(user.request_count),
      keyUsed: Number(key.used_quota),
    };
  };
  const chat = (stream: boolean) =>
    stream
      ? r.client.chat.completions
          .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true })
          .then(async (chunks) => {
            for await (const _chunk of chunks) {
              // drained
            }
          })
      : r.client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });

  it('writes no consume log row nor statistics while off, and charges the balance, the key and the counters exactly', async () => {
    await setLogging(false);
    const rows = await consumeRows();
    const counted = await statisticsRequests();
    const before = await counters();
    await chat(false);
    await chat(true);
    const after = await counters();
    expect(await consumeRows()).toBe(rows);
    expect(await statisticsRequests()).toBe(counted);
    expect(before.quota - after.quota).toBe(2 * COST);
    expect(after.userUsed - before.userUsed).toBe(2 * COST);
    expect(after.keyUsed - before.keyUsed).toBe(2 * COST);
    expect(after.requests - before.requests).toBe(2);

    // Error rows are not consume logs: a failed request is still written down, at no charge.
    const errors = await rowsOfType(LogType.error);
    r.upstream.behaviour.failWith = { status: 500, message: 'upstream exploded' };
    await expect(chat(false)).rejects.toMatchObject({ status: 502 });
    r.upstream.behaviour.failWith = undefined;
    expect(await rowsOfType(LogType.error)).toBe(errors + 1);
    expect(await storedQuota(r)).toBe(after.quota);
  });

  it('writes the row again once it is back on', async () => {
    await setLogging(true);
    const rows = await consumeRows();
    const counted = await statisticsRequests();
    await chat(false);
    expect(await consumeRows()).toBe(rows + 1);
    expect(await statisticsRequests()).toBe(counted + 1);
    expect(Number((await lastConsumeLog(r)).quota)).toBe(COST);
  });
});
