import { LogType } from '@one-hub/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdmin } from '../../../test/api/root-and-plain.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { logRow } from '../../../test/log-rows.js';
import { providerType } from '../../domain/channel-types/registry.js';
import { nowSeconds } from '../../platform/clock.js';
import { insertReturningId, type NewLogRow } from '../../platform/db/index.js';
import { addLogsToRollUps } from '../statistics/rollup.js';
import { LogQueryRepository } from './query-repo.js';

interface Row {
  id: number;
  user_id: number;
  content: string;
  channel: { id: number; name: string } | null;
  metadata: Record<string, unknown>;
  is_stream: boolean;
  quota: number;
}

describe.each(availableDialects)('logs API on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let aliceId: number;
  let bob: string;
  let bobId: number;
  let alphaId: number;
  let goneId: number;
  /** Seeded history starts here, far enough back to be outside the rpm/tpm minute. */
  const base = nowSeconds() - 100_000;
  const range = `start_timestamp=${base}&end_timestamp=${base + 400}`;

  function call(method: 'GET' | 'DELETE', url: string, cookie?: string) {
    return t.app.inject({ method, url, headers: cookie ? { cookie } : {} });
  }

  async function contents(url: string, cookie: string): Promise<string[]> {
    const response = await call('GET', url, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().data.data as Row[]).map((row) => row.content).sort();
  }

  async function insertChannel(name: string, deletedAt: number | null): Promise<number> {
    const row = {
      type: providerType('openai'),
      key: 'secret',
      status: 1,
      name,
      weight: 1,
      created_time: base,
      test_time: 0,
      response_time: 0,
      base_url: '',
      other: '',
      balance: 0,
      balance_updated_time: 0,
      models: 'gpt-4',
      group: 'default',
      tag: '',
      used_quota: 0,
      model_mapping: '{}',
      model_headers: '{}',
      custom_parameter: '{}',
      priority: 0,
      proxy: '',
      test_model: '',
      only_chat: false,
      pre_cost: 1,
      compatible_response: false,
      allow_extra_body: false,
      disabled_stream: '[]',
      plugin: '{}',
      deleted_at: deletedAt,
    };
    return insertReturningId(t.database, t.database.db.insertInto('channels').values(row));
  }

  function log(content: string, fields: Partial<NewLogRow>): NewLogRow {
    return logRow({ user_id: aliceId, username: 'alice', created_at: base, content, ...fields });
  }

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    const root = await t.login('root', ROOT_PASSWORD);
    ({ cookie: alice, id: aliceId } = await t.createUser('alice'));
    ({ cookie: bob, id: bobId } = await t.createUser('bob'));
    admin = (await createAdmin(t, root, 'admin1')).cookie;
    alphaId = await insertChannel('alpha', null);
    goneId = await insertChannel('gone', base);
    const aliceConsume = { token_name: 'tokA', source_ip: '1.1.1.1' };
    const bobConsume = { user_id: bobId, username: 'bob', token_name: 'tokB', source_ip: '2.2.2.2' };
    const metadata = JSON.stringify({
      group_name: 'default',
      group_ratio: 1.5,
      cached_tokens: 5,
      cached_tokens_ratio: 0.5,
    });
    const now = nowSeconds();
    const rows = [
      log('L1', {
        ...aliceConsume,
        model_name: 'gpt-4',
        channel_id: alphaId,
        quota: 100,
        request_id: 'req-a1',
        metadata,
      }),
      log('L2', { ...aliceConsume, created_at: base + 100, model_name: 'gpt-3.5', channel_id: goneId, quota: 50 }),
      log('L3', { created_at: base + 200, type: LogType.topup, quota: 1000, metadata: 'not json' }),
      log('L4', { ...bobConsume, created_at: base + 300, model_name: 'gpt-4', channel_id: alphaId, quota: 70 }),
      log('L5', { ...bobConsume, created_at: base + 400, type: LogType.manage, quota: 5, request_id: 'req-b5' }),
      log('L6', {
        ...aliceConsume,
        created_at: now - 5,
        model_name: 'gpt-4',
        channel_id: alphaId,
        quota: 30,
        prompt_tokens: 3,
        completion_tokens: 4,
        is_stream: true,
      }),
      log('L7', {
        ...bobConsume,
        created_at: now - 5,
        channel_id: alphaId,
        quota: 40,
        prompt_tokens: 6,
        completion_tokens: 7,
      }),
    ];
    // As the log writer stores them: the rows, and their consume totals in the daily roll-up.
    await t.database.db.insertInto('logs').values(rows).execute();
    await addLogsToRollUps(t.database.db, t.database.dialect, rows);
  });
  afterAll(() => t?.close());

  it('refuses admin routes to anonymous callers (401) and plain users (403), and self routes to anonymous ones', async () => {
    const adminRoutes: Array<[Parameters<typeof call>[0], string]> = [
      ['GET', '/api/log/'],
      ['GET', '/api/log/stat'],
      ['DELETE', `/api/log/?target_timestamp=${base + 1000}`],
    ];
    for (const [method, url] of adminRoutes) {
      expect((await call(method, url)).statusCode, `${method} ${url}`).toBe(401);
      const forbidden = await call(method, url, alice);
      expect(forbidden.statusCode, `${method} ${url}`).toBe(403);
      expect(forbidden.json().success).toBe(false);
    }
    for (const url of ['/api/log/self', '/api/log/self/', '/api/log/self/stat']) {
      expect((await call('GET', url)).statusCode, url).toBe(401);
    }
    expect(await contents(`/api/log/?${range}`, admin)).toEqual(['L1', 'L2', 'L3', 'L4', 'L5']);
  });

  it('filters the admin list by each filter', async () => {
    const cases: Array<[string, string[]]> = [
      [`log_type=2&${range}`, ['L1', 'L2', 'L4']],
      [`log_type=0&${range}`, ['L1', 'L2', 'L3', 'L4', 'L5']],
      [`start_timestamp=${base + 100}&end_timestamp=${base + 300}`, ['L2', 'L3', 'L4']],
      ['model_name=gpt-4', ['L1', 'L4', 'L6']],
      ['username=bob', ['L4', 'L5', 'L7']],
      ['token_name=tokA', ['L1', 'L2', 'L6']],
      ['token_name=tok', []],
      [`channel_id=${alphaId}`, ['L1', 'L4', 'L6', 'L7']],
      ['source_ip=2.2.2.2', ['L4', 'L5', 'L7']],
      ['request_id=req-a1', ['L1']],
      [`username=bob&log_type=2&${range}`, ['L4']],
    ];
    for (const [query, expected] of cases) {
      expect(await contents(`/api/log/?${query}`, admin), query).toEqual(expected);
    }
  });

  it('pages and orders the admin list', async () => {
    const first = (await call('GET', `/api/log/?${range}&order=-quota&page=1&size=2`, admin)).json().data;
    expect(first).toMatchObject({ page: 1, size: 2, total_count: 5 });
    expect(first.data.map((row: Row) => row.content)).toEqual(['L3', 'L1']);
    const third = (await call('GET', `/api/log/?${range}&order=-quota&page=3&size=2`, admin)).json().data;
    expect(third.data.map((row: Row) => row.content)).toEqual(['L5']);
    const byUser = (await call('GET', `/api/log/?${range}&order=user_id,created_at`, admin)).json().data;
    expect(byUser.data.map((row: Row) => row.content)).toEqual(['L1', 'L2', 'L3', 'L4', 'L5']);
    const newestFirst = (await call('GET', `/api/log/?${range}`, admin)).json().data;
    expect(newestFirst.data.map((row: Row) => row.content)).toEqual(['L5', 'L4', 'L3', 'L2', 'L1']);
  });

  it('refuses bad query values with a 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['/api/log/?order=content', "'content'"],
      ['/api/log/?size=101', 'size'],
      ['/api/log/?log_type=9', 'log_type'],
      ['/api/log/?start_timestamp=yesterday', 'start_timestamp'],
      ['/api/log/?end_timestamp=-5', 'end_timestamp'],
      ['/api/log/?channel_id=abc', 'channel_id'],
      ['/api/log/?channel_id=99999999999', 'channel_id'],
      ['/api/log/?username=a&username=b', 'username'],
      ['/api/log/stat?channel=x', 'channel'],
      ['/api/log/self?log_type=1.5', 'log_type'],
      ['/api/log/self/stat?start_timestamp=x', 'start_timestamp'],
    ];
    for (const [url, field] of cases) {
      const response = await call('GET', url, url.includes('/self') ? alice : admin);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().success).toBe(false);
      expect(response.json().message, url).toContain(field);
    }
  });

  it('presents rows with the channel preloaded in one query, parsed metadata, booleans and numbers', async () => {
    const lookups = vi.spyOn(LogQueryRepository.prototype, 'channelNames');
    try {
      const response = await call('GET', `/api/log/?order=created_at&size=100`, admin);
      expect(lookups).toHaveBeenCalledTimes(1);
      const rows = response.json().data.data as Row[];
      const byContent = new Map(rows.map((row) => [row.content, row]));
      const first = byContent.get('L1');
      expect(first).toMatchObject({
        user_id: aliceId,
        username: 'alice',
        channel_id: alphaId,
        channel: { id: alphaId, name: 'alpha' },
        quota: 100,
        created_at: base,
        is_stream: false,
        token_id: 0,
        request_id: 'req-a1',
        metadata: { group_name: 'default', group_ratio: 1.5, cached_tokens: 5, cached_tokens_ratio: 0.5 },
      });
      expect(typeof first?.id).toBe('number');
      expect(byContent.get('L2')?.channel).toBeNull();
      expect(byContent.get('L3')?.channel).toBeNull();
      expect(byContent.get('L3')?.metadata).toEqual({});
      expect(byContent.get('L6')?.is_stream).toBe(true);
      expect(byContent.get('L7')?.channel).toEqual({ id: alphaId, name: 'alpha' });
    } finally {
      lookups.mockRestore();
    }
  });

  it("shows a user only their own logs, whatever they ask for, and never another's", async () => {
    const own = (await call('GET', '/api/log/self?size=100', alice)).json().data;
    const rows = own.data as Row[];
    expect(rows.map((row) => row.content).sort()).toEqual(['L1', 'L2', 'L3', 'L6']);
    expect(rows.every((row) => row.user_id === aliceId && row.id > 0 && row.channel === null)).toBe(true);
    expect(await contents('/api/log/self?username=bob&channel_id=0&size=100', alice)).toEqual(['L1', 'L2', 'L3', 'L6']);
    expect(await contents('/api/log/self?request_id=req-b5', alice)).toEqual([]);
    expect(await contents('/api/log/self/?size=100', bob)).toEqual(['L4', 'L5', 'L7']);
  });

  it("filters a user's own logs", async () => {
    const cases: Array<[string, string[]]> = [
      [`log_type=2&${range}`, ['L1', 'L2']],
      [`log_type=1`, ['L3']],
      [`start_timestamp=${base + 50}&end_timestamp=${base + 200}`, ['L2', 'L3']],
      ['model_name=gpt-4', ['L1', 'L6']],
      ['token_name=tokA&order=-quota', ['L1', 'L2', 'L6']],
      ['request_id=req-a1', ['L1']],
    ];
    for (const [query, expected] of cases) {
      expect(await contents(`/api/log/self?${query}`, alice), query).toEqual(expected);
    }
  });

  it('sums consume quota over the filters and counts the last minute as rpm and tpm', async () => {
    const stat = async (url: string, cookie: string) => {
      const response = await call('GET', url, cookie);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data;
    };
    expect(await stat(`/api/log/stat?${range}`, admin)).toEqual({ quota: 220, rpm: 2, tpm: 20 });
    expect(await stat(`/api/log/stat?${range}&username=alice`, admin)).toEqual({ quota: 150, rpm: 1, tpm: 7 });
    expect(await stat(`/api/log/stat?channel=${alphaId}`, admin)).toEqual({ quota: 240, rpm: 2, tpm: 20 });
    expect(await stat(`/api/log/stat?channel_id=${goneId}`, admin)).toEqual({ quota: 50, rpm: 0, tpm: 0 });
    expect(await stat('/api/log/stat?model_name=gpt-4&token_name=tokB', admin)).toEqual({ quota: 70, rpm: 0, tpm: 0 });
    expect(await stat('/api/log/self/stat', alice)).toEqual({ quota: 180, rpm: 1, tpm: 7 });
    expect(await stat('/api/log/self/stat?username=bob', alice)).toEqual({ quota: 180, rpm: 1, tpm: 7 });
    expect(await stat(`/api/log/self/stat?${range}`, bob)).toEqual({ quota: 70, rpm: 1, tpm: 13 });
  });

  it('deletes only consume logs older than target_timestamp, and refuses a missing or future target', async () => {
    const countAll = async () => {
      const row = await t.database.db
        .selectFrom('logs')
        .select(sql<number | string>`count(*)`.as('total'))
        .executeTakeFirstOrThrow();
      return Number(row.total);
    };
    const before = await countAll();
    for (const url of ['/api/log/', '/api/log/?target_timestamp=', '/api/log/?target_timestamp=soon']) {
      const response = await call('DELETE', url, admin);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toContain('target_timestamp');
    }
    const future = await call('DELETE', `/api/log/?target_timestamp=${nowSeconds() + 3600}`, admin);
    expect(future.statusCode).toBe(400);
    expect(future.json().message).toContain('target_timestamp');
    expect(await countAll()).toBe(before);

    const deleted = await call('DELETE', `/api/log/?target_timestamp=${base + 350}`, admin);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ success: true, data: 3 });
    expect(await countAll()).toBe(before - 3);
    expect(await contents('/api/log/?size=100&order=created_at', admin)).toEqual(
      expect.arrayContaining(['L3', 'L5', 'L6', 'L7']),
    );
    expect(await contents('/api/log/?log_type=2&size=100', admin)).toEqual(['L6', 'L7']);
  });
});
