import { LogType } from '@one-hub/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { type MockUpstream, startMockUpstream } from '../../../test/mocks/openai-upstream.js';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';

interface LogEntry {
  type: number;
  content: string;
  quota: number;
  channel_id: number;
  channel: { id: number; name: string } | null;
  model_name: string;
  token_name: string;
  username: string;
  is_stream: boolean;
  prompt_tokens: number;
  metadata: Record<string, unknown>;
}

const chat = (r: RelayTestContext, apiKey = r.apiKey, body: Record<string, unknown> = {}) =>
  fetch(`${r.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...body }),
  });

/** Log rows of one type as the admin list serves them, after pending rows are written. */
async function logsOfType(r: RelayTestContext, type: number): Promise<LogEntry[]> {
  await r.t.app.relay.flush();
  const response = await r.admin('GET', `/api/log/?log_type=${type}&size=100&order=-id`);
  expect(response.status).toBe(200);
  return (response.body.data as { data: LogEntry[] }).data;
}

describe.each(availableDialects)('error log rows of failed relay requests on %s', (dialect) => {
  let r: RelayTestContext;
  let backup: MockUpstream;
  let backupId: number;
  let userCookie: string;
  const firstId = 1;

  beforeAll(async () => {
    r = await startRelayTest({ dialect });
    backup = await startMockUpstream({ reply: 'from the backup' });
    backupId = await r.addChannel({ name: 'backup', base_url: backup.url, priority: 0 });
    userCookie = await r.t.login('relayuser', 'password-123');
  });
  afterAll(async () => {
    await r?.close();
    await backup?.close();
  });
  afterEach(async () => {
    r.upstream.behaviour.failWith = undefined;
    backup.behaviour.failWith = undefined;
    // Each test counts its own rows (the statistics roll-up keeps what was counted).
    await r.t.app.relay.flush();
    await r.t.database.db.deleteFrom('logs').where('type', 'in', [LogType.consume, LogType.error]).execute();
  });

  it('retries on the other channel by default, and a request that then succeeds leaves no error row', async () => {
    r.upstream.behaviour.failWith = { status: 500, message: 'upstream exploded' };
    const answer = await chat(r);
    expect(answer.status).toBe(200);
    expect(await logsOfType(r, LogType.error)).toEqual([]);
    const consumed = await logsOfType(r, LogType.consume);
    expect(consumed).toHaveLength(1);
    expect(consumed[0]?.channel_id).toBe(backupId);
  });

  it('records the final failure once, naming the last channel, with secrets masked and no charge', async () => {
    const secret = `quoted ${r.upstream.behaviour.apiKey} with api_key=hunter2secret and Bearer abc.def-123`;
    r.upstream.behaviour.failWith = { status: 500, message: `first broke: ${secret}` };
    backup.behaviour.failWith = { status: 503, message: `backup broke: ${secret}` };
    const before = await storedQuota(r);
    const answer = await chat(r, r.apiKey, { stream: true });
    expect(answer.status).toBe(502);

    const rows = await logsOfType(r, LogType.error);
    expect(rows).toHaveLength(1);
    const row = rows[0] as LogEntry;
    expect(row).toMatchObject({
      type: LogType.error,
      quota: 0,
      prompt_tokens: 0,
      channel_id: backupId,
      channel: { id: backupId, name: 'backup' },
      model_name: 'gpt-4o-mini',
      token_name: 'test key',
      username: 'relayuser',
      is_stream: true,
    });
    expect(row.content).toContain('backup broke');
    for (const leaked of [r.upstream.behaviour.apiKey, 'hunter2secret', 'abc.def-123']) {
      expect(row.content).not.toContain(leaked);
    }
    expect(row.metadata).toMatchObject({ status: 502, attempts: 2, channels_tried: [firstId, backupId] });
    expect(await storedQuota(r)).toBe(before);
    expect(await logsOfType(r, LogType.consume)).toEqual([]);
  });

  it("shows the user their own error rows with log_type=5, without the channel's name", async () => {
    r.upstream.behaviour.failWith = { status: 500, message: 'down' };
    backup.behaviour.failWith = { status: 500, message: 'down too' };
    expect((await chat(r)).status).toBe(502);
    await r.t.app.relay.flush();
    const own = await r.t.app.inject({
      method: 'GET',
      url: '/api/log/self?log_type=5',
      headers: { cookie: userCookie },
    });
    expect(own.statusCode).toBe(200);
    const rows = (own.json() as { data: { data: LogEntry[] } }).data.data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: LogType.error, channel: null, quota: 0 });
  });

  it("writes no error row for the client's own mistakes: bad input, a bad key, an upstream 400", async () => {
    expect((await chat(r, r.apiKey, { messages: 'not a list' })).status).toBe(400);
    expect((await chat(r, 'sk-not-a-key')).status).toBe(401);
    expect((await chat(r, r.apiKey, { model: 'no-such-model' })).status).toBe(404);
    r.upstream.behaviour.failWith = { status: 400, message: 'messages: too long', type: 'invalid_request_error' };
    expect((await chat(r)).status).toBe(400);
    expect(await logsOfType(r, LogType.error)).toEqual([]);
  });

  it('leaves error rows out of the log statistics and the daily roll-up', async () => {
    r.upstream.behaviour.failWith = { status: 500, message: 'down' };
    backup.behaviour.failWith = { status: 500, message: 'down too' };
    expect((await chat(r)).status).toBe(502);
    expect(await logsOfType(r, LogType.error)).toHaveLength(1);
    const stat = await r.admin('GET', '/api/log/stat?username=relayuser');
    expect(stat.body.data).toMatchObject({ quota: 0, rpm: 0, tpm: 0 });
    const own = await r.t.app.inject({ method: 'GET', url: '/api/log/self/stat', headers: { cookie: userCookie } });
    expect((own.json() as { data: unknown }).data).toMatchObject({ quota: 0, rpm: 0, tpm: 0 });
    const rolledUp = await r.t.database.db
      .selectFrom('statistics')
      .select(['request_count'])
      .where('user_id', '=', r.userId)
      .execute();
    // The first test's successful request is the only one counted.
    expect(rolledUp.reduce((sum, row) => sum + Number(row.request_count), 0)).toBe(1);
  });

  // Last: both channels then rest for the rest of the file.
  it('records a request no channel could take (all resting after a 429) with channel 0', async () => {
    r.upstream.behaviour.failWith = { status: 429, message: 'Rate limit reached' };
    backup.behaviour.failWith = { status: 429, message: 'Rate limit reached' };
    expect((await chat(r)).status).toBe(429);
    expect((await chat(r)).status).toBe(503);
    const rows = await logsOfType(r, LogType.error);
    expect(rows.map((row) => [row.channel_id, row.metadata.status])).toEqual([
      [0, 503],
      [backupId, 429],
    ]);
    expect(rows[0]?.metadata).toMatchObject({ attempts: 0, channels_tried: [] });
  });
});
