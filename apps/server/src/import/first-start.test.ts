import { afterAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp } from '../../test/app.js';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../test/databases.js';
import { environmentFor, runImportCli, sourceArgument } from '../../test/import/harness.js';
import { buildOneHubSource } from '../../test/import/sources/one-hub.js';

/** The target as a first `npm start` leaves it: root, with its first-start balance credited. */
async function startedOnce(target: TestDatabase, signIn: boolean): Promise<void> {
  const t = await startTestApp({ env: { ...environmentFor(target), INITIAL_ROOT_QUOTA: '100000000' } });
  try {
    if (signIn) await t.login('root', ROOT_PASSWORD);
  } finally {
    await t.close();
  }
}

describe.each(availableDialects)('importing after the server was started once (%s)', (dialect) => {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of databases) await database.drop();
  });

  it('replaces the untouched first-start root by the source users, without --merge', async () => {
    const [source, target] = [await createTestDatabase(dialect), await createTestDatabase(dialect)];
    databases.push(source, target);
    const fixture = await buildOneHubSource(source);
    await startedOnce(target, false);
    const run = await runImportCli(['--from', sourceArgument(source)], target);
    expect(run.code, run.stderr).toBe(0);
    const t = await startTestApp({ env: environmentFor(target) });
    try {
      const root = fixture.users.find((user) => user.username === 'root');
      await expect(t.login('root', root?.password ?? '')).resolves.toMatch(/^session=/);
      const roots = await t.database.db.selectFrom('users').select('id').where('username', '=', 'root').execute();
      expect(roots).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('still refuses once that root has signed in (it may have done something worth keeping)', async () => {
    const [source, target] = [await createTestDatabase(dialect), await createTestDatabase(dialect)];
    databases.push(source, target);
    await buildOneHubSource(source);
    await startedOnce(target, true);
    const run = await runImportCli(['--from', sourceArgument(source)], target);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/already has users.*--merge/s);
  });
});
