import { LogType } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import { LogRepository } from './repo.js';

// Behind a trusted proxy the client address is whatever the left of X-Forwarded-For says, of any length.
const LONG_ADDRESS = `203.0.113.${'7'.repeat(300)}`;

describe.each(availableDialects)('log rows with values longer than their columns on %s', (dialect) => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayTest({ dialect, env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => r?.close());

  it('keeps the consume log (and its statistics) of a billed request whose client address is too long', async () => {
    const response = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${r.apiKey}`,
        'content-type': 'application/json',
        'x-forwarded-for': `${LONG_ADDRESS}, 10.0.0.1`,
      },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    await response.text();
    await r.t.app.relay.flush();
    const log = await r.t.database.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', LogType.consume)
      .where('request_id', '=', String(response.headers.get('x-request-id')))
      .executeTakeFirst();
    expect(log, 'the consume log row was lost').toBeDefined();
    expect(log?.source_ip).toBe(LONG_ADDRESS.slice(0, 128));
    const statistics = await r.t.database.db
      .selectFrom('statistics')
      .select('request_count')
      .where('user_id', '=', r.userId)
      .executeTakeFirst();
    expect(Number(statistics?.request_count)).toBe(1);
  });

  it('keeps the other log types, and the change they record, whatever the address', async () => {
    const repository = new LogRepository();
    await repository.insert(r.t.database.db, {
      userId: r.userId,
      username: 'relayuser',
      type: LogType.topup,
      content: 'long address',
      sourceIp: LONG_ADDRESS,
    });
    const row = await r.t.database.db
      .selectFrom('logs')
      .select('source_ip')
      .where('content', '=', 'long address')
      .executeTakeFirstOrThrow();
    expect(row.source_ip).toBe(LONG_ADDRESS.slice(0, 128));
  });
});
