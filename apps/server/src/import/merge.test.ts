import { writeFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../test/app.js';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../test/databases.js';
import type { SourceFixture } from '../../test/import/fixture.js';
import { environmentFor, reportCounts, runImportCli, sourceArgument } from '../../test/import/harness.js';
import { buildOneHubSource } from '../../test/import/sources/one-hub.js';
import { expectedBobsTasks, importedTasksOf } from '../../test/import/sources/one-hub-tasks.js';
import { providerType } from '../domain/channel-types/registry.js';

/** A target that is already in use: root, a user named like one of the source's, a channel and a setting. */
async function prepareUsedTarget(target: TestDatabase): Promise<void> {
  const t = await startTestApp({ env: environmentFor(target) });
  try {
    await t.createUser('alice');
    // A third user, so the imported ids cannot happen to equal the source's.
    await t.createUser('zed');
    const admin = (method: 'POST' | 'PUT', url: string, payload: object) =>
      t.app.inject({ method, url, headers: { authorization: ROOT_TOKEN }, payload });
    expect(
      (
        await admin('POST', '/api/channel/', {
          name: 'existing',
          type: providerType('openai'),
          key: 'sk-existing',
          models: 'gpt-4o',
          group: 'default',
        })
      ).statusCode,
    ).toBe(200);
    expect((await admin('PUT', '/api/option/', { key: 'SystemName', value: 'New Hub' })).statusCode).toBe(200);
    await t.database.db
      .insertInto('telegram_menus')
      .values({ command: 'help', description: 'ours', parse_mode: 'HTML', reply_message: 'Our help.' })
      .execute();
  } finally {
    await t.close();
  }
}

describe.each(availableDialects)('importing into a database in use (%s)', (dialect) => {
  let source: TestDatabase;
  let target: TestDatabase;
  let fixture: SourceFixture;
  let t: TestApp;

  const idOf = async (username: string) =>
    (await t.database.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow())
      .id;

  beforeAll(async () => {
    source = await createTestDatabase(dialect);
    fixture = await buildOneHubSource(source);
    target = await createTestDatabase(dialect);
    await prepareUsedTarget(target);
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await target?.drop();
  });

  it('is refused without --merge, writing nothing', async () => {
    const refused = await runImportCli(['--from', sourceArgument(source)], target);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/already has users.*--merge/s);
    t = await startTestApp({ env: environmentFor(target) });
    const users = await t.database.db.selectFrom('users').select('username').orderBy('id').execute();
    expect(users.map((user) => user.username)).toEqual(['root', 'alice', 'zed']);
    await t.close();
  });

  it('with --merge skips clashing usernames (and what is theirs) and adds the rest under new ids', async () => {
    const merged = await runImportCli(['--from', sourceArgument(source), '--merge'], target);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toContain('merged into the existing data');
    expect(reportCounts(merged.stdout, 'users')).toEqual([6, 4, 2]);
    expect(merged.stdout).toContain('users:alice: a user with this username already exists in the target');
    expect(merged.stdout).toContain('users:root: a user with this username already exists in the target');
    expect(merged.stdout).toContain('tokens:1: its owner (user 2) was not imported');
    expect(merged.stdout).toMatch(/logs \(\d+ rows\): user 2 was not imported/);
    expect(merged.stdout).toContain('options:SystemName: the target already has it');
    expect(reportCounts(merged.stdout, 'midjourneys')).toEqual([2, 1, 1]);
    expect(reportCounts(merged.stdout, 'tasks')).toEqual([2, 1, 1]);
    expect(merged.stdout).toMatch(/midjourneys: user 2 was not imported/);
    expect(reportCounts(merged.stdout, 'telegram_menus')).toEqual([2, 1, 1]);
    expect(merged.stdout).toContain('telegram_menus:help: the target already has this command; kept');
    t = await startTestApp({ env: environmentFor(target) });
    expect(t.services.options.get('SystemName')).toBe('New Hub');
  });

  it('remaps owners, inviters, log and statistics users and channels to the new ids', async () => {
    const erin = await idOf('erin');
    const bob = await idOf('bob');
    expect(erin).not.toBe(6);
    expect(bob).not.toBe(3);
    await expect(
      t.login('erin', fixture.users.find((user) => user.username === 'erin')?.password ?? ''),
    ).resolves.toMatch(/^session=/);
    // dave was invited by the source's alice, who was not imported.
    expect(
      (
        await t.database.db
          .selectFrom('users')
          .select('inviter_id')
          .where('username', '=', 'dave')
          .executeTakeFirstOrThrow()
      ).inviter_id,
    ).toBe(0);
    const bobsKey = await t.database.db
      .selectFrom('tokens')
      .select('user_id')
      .where('name', '=', 'key 6')
      .executeTakeFirstOrThrow();
    expect(bobsKey.user_id).toBe(bob);
    const mock = await t.database.db
      .selectFrom('channels')
      .select('id')
      .where('name', '=', 'mock openai')
      .executeTakeFirstOrThrow();
    expect(mock.id).not.toBe(fixture.mockChannelId);
    const bobsLog = await t.database.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', bob)
      .executeTakeFirstOrThrow();
    expect(bobsLog.channel_id).toBe(mock.id);
    const bobsDay = await t.database.db
      .selectFrom('statistics')
      .selectAll()
      .where('user_id', '=', bob)
      .executeTakeFirstOrThrow();
    expect(bobsDay.channel_id).toBe(mock.id);
    const aliceTarget = await idOf('alice');
    const aliceKeys = await t.database.db
      .selectFrom('tokens')
      .select('id')
      .where('user_id', '=', aliceTarget)
      .execute();
    expect(aliceKeys).toHaveLength(0);
  });

  it('remaps the users, channels and keys of carried tasks; an existing Telegram command keeps its reply', async () => {
    const bob = await idOf('bob');
    const mock = await t.database.db
      .selectFrom('channels')
      .select('id')
      .where('name', '=', 'mock openai')
      .executeTakeFirstOrThrow();
    const key = await t.database.db
      .selectFrom('tokens')
      .select('id')
      .where('name', '=', 'key 6')
      .executeTakeFirstOrThrow();
    expect(key.id).not.toBe(6);
    const carried = await importedTasksOf(t.database.db, bob);
    const expected = expectedBobsTasks({ user: bob, channel: mock.id, token: key.id });
    expect(carried.image).toMatchObject(expected.image);
    expect(carried.song).toMatchObject(expected.song);
    expect(await t.database.db.selectFrom('midjourneys').select('id').execute()).toHaveLength(1);
    expect(carried.menus.map((menu) => [menu.command, menu.reply_message])).toEqual([
      ['help', 'Our help.'],
      ['start', 'Hello\\! Send /help'],
    ]);
  });

  it('does not import the same source twice', async () => {
    await t.close();
    const again = await runImportCli(['--from', sourceArgument(source), '--merge'], target);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already imported completely');
    t = await startTestApp({ env: environmentFor(target) });
    const users = await t.database.db.selectFrom('users').select('id').execute();
    expect(users).toHaveLength(7);
  });
});

describe('sources and arguments the importer refuses', () => {
  let target: TestDatabase;
  beforeAll(async () => {
    target = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await target?.drop();
  });

  it('refuses a database that is none of the known products, with exit code 2', async () => {
    const other = await createTestDatabase('sqlite');
    const database = new BetterSqlite3(other.target.sqlitePath);
    database.exec('create table notes (id integer primary key, body text)');
    database.close();
    const refused = await runImportCli(['--from', `sqlite:${other.target.sqlitePath}`], target);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the source is not a database this importer knows');
    expect(refused.stderr).toContain('notes');
    await other.drop();
  });

  it('refuses a missing file, a file that is not a database, a missing --from and unknown arguments', async () => {
    expect((await runImportCli(['--from', '/nonexistent/one-api.db'], target)).stderr).toContain(
      'no SQLite database at',
    );
    const notDatabase = `${target.target.sqlitePath}.txt`;
    writeFileSync(notDatabase, 'hello');
    const garbage = await runImportCli(['--from', notDatabase], target);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain('cannot open the source');
    for (const args of [[], ['--from'], ['--from', 'x.db', '--batch', '0'], ['--frm', 'x.db']]) {
      const run = await runImportCli(args, target);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain('Usage: npm run import');
    }
  });

  it('refuses to import a database into itself', async () => {
    const run = await runImportCli(['--from', target.target.sqlitePath], target);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the source is the database this server is configured with');
  });
});
