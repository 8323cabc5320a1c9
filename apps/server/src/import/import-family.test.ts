import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../test/databases.js';
import { environmentFor, reportCounts, runImportCli, sourceArgument } from '../../test/import/harness.js';
import type { FixtureKey, SourceFixture } from '../../test/import/sources/gorm-tables.js';
import { buildNewApiSource } from '../../test/import/sources/new-api.js';
import { buildOneApiSource } from '../../test/import/sources/one-api.js';
import { type MockUpstream, startMockUpstream } from '../../test/mocks/openai-upstream.js';
import { relayInject } from '../../test/relay-inject.js';
import { providerType } from '../domain/channel-types/registry.js';
import type { DialectName } from '../platform/db/index.js';

type Build = (dialect: DialectName) => Promise<{ database: TestDatabase; fixture: SourceFixture }>;
const products: Array<[string, Build]> = [
  ['one-api', buildOneApiSource],
  ['new-api', buildNewApiSource],
];
const cases = products.flatMap(([product, build]) =>
  availableDialects.map((dialect) => [product, dialect, build] as const),
);
const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] };

/**
 * The whole move from one-api and new-api, as an operator makes it: import, start the server,
 * sign in with old passwords, call the relay with old keys, redeem old codes.
 */
describe.each(cases)('importing a %s database on %s', (product, dialect, build) => {
  let upstream: MockUpstream;
  let source: TestDatabase;
  let target: TestDatabase;
  let fixture: SourceFixture;
  let run: { code: number; stdout: string; stderr: string };
  let t: TestApp;

  const live = () => fixture.users.filter((user) => !user.deleted && user.status === 1);
  const balance = async (username: string) => {
    await t.app.relay.flush();
    const row = await t.database.db
      .selectFrom('users')
      .select('quota')
      .where('username', '=', username)
      .executeTakeFirst();
    return Number(row?.quota);
  };
  const relay = (key: string) =>
    relayInject(t.app, {
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}` },
      payload: chat,
    });
  /** A key that should be served: enabled, not expired, no limits in the way, owner enabled and in funds. */
  const usableKey = (): FixtureKey => {
    const owners = new Map(live().map((user) => [user.id, user]));
    const key = fixture.keys.find(
      (candidate) =>
        candidate.status === 1 &&
        !candidate.deleted &&
        candidate.ips.length === 0 &&
        (candidate.models.length === 0 || candidate.models.includes(chat.model)) &&
        (candidate.expiredTime === -1 || candidate.expiredTime > Date.now() / 1000) &&
        (candidate.unlimited || candidate.remainQuota > 0) &&
        (owners.get(candidate.userId)?.quota ?? 0) > 0,
    );
    if (!key) throw new Error('the fixture has no usable key');
    return key;
  };

  beforeAll(async () => {
    upstream = await startMockUpstream();
    ({ database: source, fixture } = await build(dialect));
    target = await createTestDatabase(dialect);
    run = await runImportCli(['--from', sourceArgument(source)], target);
    t = await startTestApp({ env: environmentFor(target) });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
    await source?.drop();
    await target?.drop();
  });

  it('detects the product and writes every user, key, channel and code', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Source: ${product}`);
    expect(reportCounts(run.stdout, 'users')[0]).toBe(fixture.users.length);
    expect(reportCounts(run.stdout, 'users')[1]).toBe(fixture.users.length);
    expect(reportCounts(run.stdout, 'tokens')[1]).toBe(fixture.keys.length);
    expect(reportCounts(run.stdout, 'channels')[1]).toBe(fixture.channels.length);
    // A channel type with no equivalent here is kept, disabled, and the report says why.
    const unsupported = fixture.channels.find((channel) => channel.expectedStatus === 2);
    if (unsupported) expect(run.stdout).toContain(`channels:${unsupported.id}:`);
  });

  it.runIf(product === 'new-api')('carries Midjourney and Suno tasks; video tasks are reported', async () => {
    expect(reportCounts(run.stdout, 'midjourneys')).toEqual([1, 1, 0]);
    expect(reportCounts(run.stdout, 'tasks')).toEqual([2, 1, 1]);
    expect(run.stdout).toMatch(/tasks: platform '50' tasks .*no equivalent here/);
    const image = await t.database.db.selectFrom('midjourneys').selectAll().executeTakeFirstOrThrow();
    expect(image).toMatchObject({ user_id: 3, channel_id: 10, mj_id: 'mj-1', progress: '100%', mode: 'fast' });
    expect(Number(image.submit_time)).toBe(1_712_000_000_123);
    const song = await t.database.db.selectFrom('tasks').selectAll().executeTakeFirstOrThrow();
    expect(song).toMatchObject({ task_id: 't-1', platform: 'suno', user_id: 3, channel_id: 11, progress: 100 });
    expect(JSON.parse(song.data)).toEqual([{ id: 'clip-1', status: 'complete' }]);
  });

  it('lets old users sign in with their old passwords and keeps their balances', async () => {
    for (const user of live()) {
      await expect(t.login(user.username, user.password), user.username).resolves.toMatch(/^session=/);
      expect(await balance(user.username), user.username).toBe(user.quota);
    }
    for (const user of fixture.users.filter((entry) => entry.deleted || entry.status !== 1)) {
      await expect(t.login(user.username, user.password)).rejects.toThrow();
    }
  });

  it('serves an old key, with and without sk-, and bills its owner', async () => {
    const root = fixture.users.find((user) => user.role === 100 && !user.deleted);
    if (!root) throw new Error('the fixture has no root');
    const cookie = await t.login(root.username, root.password);
    const groups = [...new Set(fixture.users.map((user) => user.group || 'default'))].join(',');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/channel/',
      headers: { cookie },
      payload: {
        name: 'mock',
        type: providerType('openai'),
        key: upstream.behaviour.apiKey,
        base_url: upstream.url,
        models: chat.model,
        group: groups,
        priority: 100,
      },
    });
    expect(created.statusCode, created.body).toBe(200);

    const key = usableKey();
    const owner = fixture.users.find((user) => user.id === key.userId);
    const before = await balance(owner?.username ?? '');
    for (const presented of [`sk-${key.key}`, key.key]) {
      const answer = await relay(presented);
      expect(answer.statusCode, answer.body).toBe(200);
    }
    await expect.poll(() => balance(owner?.username ?? '')).toBeLessThan(before);
    const disabled = fixture.keys.find((candidate) => candidate.status === 2 && !candidate.deleted);
    if (disabled) expect((await relay(`sk-${disabled.key}`)).statusCode).toBeGreaterThanOrEqual(400);
  });

  it('redeems an old unused code once, and refuses a used one', async () => {
    const user = live().find((entry) => entry.role === 1) ?? live()[0];
    if (!user) throw new Error('the fixture has no live user');
    const cookie = await t.login(user.username, user.password);
    const topUp = (key: string) =>
      t.app.inject({ method: 'POST', url: '/api/user/topup', headers: { cookie }, payload: { key } });
    const unused = fixture.redemptions.find((code) => code.expectedStatus === 1);
    const used = fixture.redemptions.find((code) => code.expectedStatus === 3);
    if (!unused || !used) throw new Error('the fixture needs an unused and a used code');
    const before = await balance(user.username);
    expect((await topUp(unused.key)).statusCode).toBe(200);
    expect(await balance(user.username)).toBe(before + unused.quota);
    expect((await topUp(unused.key)).statusCode).toBeGreaterThanOrEqual(400);
    expect((await topUp(used.key)).statusCode).toBeGreaterThanOrEqual(400);
  });
});
