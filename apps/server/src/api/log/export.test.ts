import { LogType, type LogView } from '@one-hub/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { channelBody } from '../../../test/api/channel-support.js';
import { createRankLadder, type RankLadder, useRootAndPlain } from '../../../test/api/root-and-plain.js';
import { csvRecords } from '../../../test/csv-parse.js';
import { availableDialects } from '../../../test/databases.js';
import { logRow } from '../../../test/log-rows.js';
import type { NewLogRow } from '../../platform/db/index.js';

/** Issue 36 item 2: the log exports give exactly the rows the lists give, to the same callers. */
describe.each(availableDialects)('log export on %s', (dialect) => {
  const s = useRootAndPlain(dialect);
  const base = 1_700_000_000;
  const range = `start_timestamp=${base}&end_timestamp=${base + 100}`;
  let ladder: RankLadder;
  let channelId: number;

  function get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return s.t.app.inject({ method: 'GET', url, headers });
  }

  const asCookie = (cookie: string) => ({ cookie });

  /** The JSON lines of an export, each parsed. */
  async function jsonLines(url: string, headers: Record<string, string>): Promise<LogView[]> {
    const response = await get(url, headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson');
    if (response.body === '') return [];
    expect(response.body.endsWith('\n')).toBe(true);
    return response.body
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line));
  }

  async function listRows(url: string, headers: Record<string, string>): Promise<LogView[]> {
    const response = await get(url, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.data;
  }

  async function accessToken(cookie: string): Promise<string> {
    const response = await s.call('POST', '/api/user/token', cookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  beforeAll(async () => {
    ladder = await createRankLadder(s.t, s.root, 'exp');
    const created = await s.call('POST', '/api/channel/', s.root, channelBody({ name: 'alpha' }));
    expect(created.statusCode, created.body).toBe(200);
    const channel = await s.t.database.db
      .selectFrom('channels')
      .select('id')
      .where('name', '=', 'alpha')
      .executeTakeFirst();
    channelId = Number(channel?.id);
    const user = { user_id: ladder.userId, username: 'exp_user', source_ip: '10.0.0.1' };
    const row = (content: string, at: number, fields: Partial<NewLogRow>) =>
      logRow({ content, created_at: base + at, model_name: 'm-a', token_name: 'tokA', ...user, ...fields });
    const route = { route: [{ channel: 9, outcome: 'skipped' }], group_name: 'default' };
    await s.t.database.db
      .insertInto('logs')
      .values([
        row('say "hi", then\nleave', 1, { quota: 11, channel_id: channelId, metadata: JSON.stringify(route) }),
        row('=1+2', 2, { quota: 12, model_name: 'm-b', token_name: 'tokB', is_stream: true, request_id: 'req-2' }),
        // Same second as the row before: the id breaks the tie, as in the list.
        row('tie', 2, { quota: 15, model_name: 'm-b' }),
        row('top-up', 3, { quota: 13, type: LogType.topup, model_name: '', token_name: '' }),
        row('admin', 4, { quota: 14, user_id: ladder.admin.id, username: 'exp_adm', source_ip: '10.0.0.2' }),
        row('peer', 5, { quota: 16, user_id: ladder.peerId, username: 'exp_peer' }),
        row('root', 6, { quota: 17, user_id: ladder.rootId, username: 'root', channel_id: channelId }),
        row('late', 500, { quota: 18 }),
      ])
      .execute();
  });

  it('exports to root exactly the rows and fields the admin list shows, for each filter', async () => {
    const filters = [
      range,
      `log_type=${LogType.consume}&${range}`,
      'model_name=m-b',
      'username=exp_user',
      'token_name=tokB',
      `channel_id=${channelId}`,
      `start_timestamp=${base + 2}&end_timestamp=${base + 4}`,
      'source_ip=10.0.0.2',
      'request_id=req-2',
      `username=exp_user&log_type=${LogType.consume}&model_name=m-a`,
    ];
    for (const filter of filters) {
      const listed = await listRows(`/api/log/?${filter}&size=100`, asCookie(s.root));
      expect(listed.length, filter).toBeGreaterThan(0);
      expect(await jsonLines(`/api/log/export?${filter}&format=jsonl`, asCookie(s.root)), filter).toEqual(listed);
      const csv = await get(`/api/log/export?${filter}`, asCookie(s.root));
      expect(csv.statusCode).toBe(200);
      expect(
        csvRecords(csv.body).map((record) => Number(record.id)),
        filter,
      ).toEqual(listed.map((log) => log.id));
    }
  });

  it('writes CSV with the list names, a header first, and each value as one field', async () => {
    const response = await get(`/api/log/export?${range}&format=csv`, asCookie(s.root));
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="logs-\d{8}-\d{6}\.csv"$/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body.split('\r\n')[0]).toBe(
      'id,created_at,type,user_id,username,token_id,token_name,model_name,quota,prompt_tokens,completion_tokens,' +
        'channel_id,channel,request_time,is_stream,source_ip,request_id,content,metadata',
    );
    const records = csvRecords(response.body);
    expect(records.map((record) => record.content)).toEqual([
      'root',
      'peer',
      'admin',
      'top-up',
      'tie',
      "'=1+2",
      'say "hi", then\nleave',
    ]);
    const first = records.at(-1);
    expect(first).toMatchObject({
      created_at: String(base + 1),
      type: String(LogType.consume),
      username: 'exp_user',
      token_name: 'tokA',
      quota: '11',
      channel_id: String(channelId),
      channel: 'alpha',
      is_stream: 'false',
    });
    expect(JSON.parse(first?.metadata ?? '')).toEqual({
      route: [{ channel: 9, outcome: 'skipped' }],
      group_name: 'default',
    });
    expect(records.find((record) => record.content === "'=1+2")).toMatchObject({ is_stream: 'true', channel: '' });
  });

  it("exports a user's own rows as its own list shows them, whatever other names the query gives", async () => {
    const user = asCookie(ladder.userCookie);
    for (const filter of [
      '',
      range,
      'model_name=m-b',
      'token_name=tokB',
      `log_type=${LogType.topup}`,
      'request_id=req-2',
    ]) {
      const listed = await listRows(`/api/log/self?${filter}&size=100`, user);
      expect(listed.length, filter).toBeGreaterThan(0);
      expect(await jsonLines(`/api/log/self/export?${filter}&format=jsonl`, user), filter).toEqual(listed);
    }
    const own = await jsonLines('/api/log/self/export?format=jsonl&username=root&user_id=1', user);
    expect(new Set(own.map((log) => log.username))).toEqual(new Set(['exp_user']));
    expect(own).toHaveLength(5);
    // The route explanation and channel names are operator data (see LogService.listOwn).
    expect(own.every((log) => log.channel === null && !('route' in log.metadata))).toBe(true);
    const plain = await get('/api/log/self/export', asCookie(s.plain));
    expect(plain.statusCode).toBe(200);
    expect(csvRecords(plain.body)).toEqual([]);
  });

  it('keeps an admin to the users it outranks, and refuses the admin export to a plain user', async () => {
    const admin = asCookie(ladder.admin.cookie);
    const names = (await jsonLines('/api/log/export?format=jsonl', admin)).map((log) => log.username);
    expect(new Set(names)).toEqual(new Set(['exp_user', 'exp_adm']));
    for (const username of ['root', 'exp_peer']) {
      expect(await jsonLines(`/api/log/export?format=jsonl&username=${username}`, admin), username).toEqual([]);
      const csv = await get(`/api/log/export?username=${username}`, admin);
      expect(csvRecords(csv.body), username).toEqual([]);
    }
    const refused = await get('/api/log/export', asCookie(ladder.userCookie));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().success).toBe(false);
  });

  it('serves both exports to an access token in the Authorization header, with or without Bearer', async () => {
    const adminToken = await accessToken(ladder.admin.cookie);
    const userToken = await accessToken(ladder.userCookie);
    const byToken = await jsonLines('/api/log/export?format=jsonl', { authorization: adminToken });
    expect(byToken).toEqual(await jsonLines('/api/log/export?format=jsonl', asCookie(ladder.admin.cookie)));
    const own = await jsonLines('/api/log/self/export?format=jsonl', { authorization: `Bearer ${userToken}` });
    expect(own.map((log) => log.content)).toContain('late');
    expect(new Set(own.map((log) => log.user_id))).toEqual(new Set([ladder.userId]));
    const refused = await get('/api/log/export', { authorization: userToken });
    expect(refused.statusCode).toBe(403);
    const wrong = await get('/api/log/self/export', { authorization: 'not-a-token' });
    expect(wrong.statusCode).toBe(401);
  });

  it('refuses anonymous callers with 401 and an envelope, never a file', async () => {
    for (const url of ['/api/log/export', '/api/log/self/export', '/api/log/self/export?format=jsonl']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(401);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(response.json().success).toBe(false);
    }
  });

  it('refuses a bad format or filter with a 400 naming it, before any file starts', async () => {
    const cases: Array<[string, string]> = [
      ['/api/log/export?format=xlsx', 'format'],
      ['/api/log/export?format=JSONL', 'format'],
      ['/api/log/self/export?format=json', 'format'],
      ['/api/log/export?log_type=9', 'log_type'],
      ['/api/log/self/export?start_timestamp=yesterday', 'start_timestamp'],
    ];
    for (const [url, field] of cases) {
      const response = await get(url, asCookie(s.root));
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-disposition']).toBeUndefined();
      expect(response.json().message, url).toContain(field);
    }
  });
});
