import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../test/databases.js';
import type { SourceFixture } from '../../test/import/fixture.js';
import { reportCounts, runImportCli, sourceArgument } from '../../test/import/harness.js';
import { buildOneHubSource } from '../../test/import/sources/one-hub.js';
import { type DatabaseHandle, openDatabase } from '../platform/db/index.js';

const TABLES = ['users', 'tokens', 'channels', 'redemptions', 'logs'] as const;

describe.each(availableDialects)('an interrupted import on %s', (dialect) => {
  let source: TestDatabase;
  let target: TestDatabase;
  let fixture: SourceFixture;
  let handle: DatabaseHandle;

  const counts = async () => {
    const result: Record<string, number> = {};
    for (const table of [...TABLES, 'statistics', 'midjourneys', 'tasks', 'telegram_menus'] as const) {
      const row = await handle.db
        .selectFrom(table)
        .select((expression) => expression.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow();
      result[table] = Number(row.total);
    }
    return result;
  };
  /** Imports in batches of 2, throwing in `step` once `when` says so. */
  const interruptedIn = (step: string, hook: 'afterBatch' | 'insideBatch') =>
    runImportCli(['--from', sourceArgument(source), '--batch', '2'], target, {
      [hook]: (current: string) => {
        if (current === step) throw new Error(`interrupted during ${step}`);
      },
    });

  beforeAll(async () => {
    source = await createTestDatabase(dialect);
    fixture = await buildOneHubSource(source, { extraLogs: 7 });
    target = await createTestDatabase(dialect);
    handle = openDatabase(target.target);
  });
  afterAll(async () => {
    await handle?.close();
    await source?.drop();
    await target?.drop();
  });

  it('stops with exit code 1, keeping the batches already committed', async () => {
    const first = await interruptedIn('users', 'afterBatch');
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('run the same command again to continue');
    expect((await counts()).users).toBe(2);
  });

  it('continues where it stopped; a batch cut inside its transaction leaves nothing behind', async () => {
    const second = await interruptedIn('statistics', 'afterBatch');
    expect(second.code).toBe(1);
    expect(await counts()).toMatchObject({ users: 6, tokens: 8, statistics: 2, logs: 0 });
    // Inside the transaction: the first batch of logs is rolled back with its mark.
    const third = await interruptedIn('logs', 'insideBatch');
    expect(third.code).toBe(1);
    expect((await counts()).logs).toBe(0);
    // The tasks come last: one cut inside a batch, one after a committed batch.
    expect((await interruptedIn('midjourneys', 'insideBatch')).code).toBe(1);
    expect(await counts()).toMatchObject({ logs: fixture.counts.logs, midjourneys: 0, tasks: 0 });
    expect((await interruptedIn('tasks', 'afterBatch')).code).toBe(1);
    expect(await counts()).toMatchObject({ midjourneys: 2, tasks: 2 });
    const last = await runImportCli(['--from', sourceArgument(source), '--batch', '2'], target);
    expect(last.code).toBe(0);
    expect(last.stdout).toContain('resumed after an interruption');
    expect(reportCounts(last.stdout, 'users')).toEqual([6, 6, 0]);
    expect(reportCounts(last.stdout, 'logs')).toEqual([fixture.counts.logs, fixture.counts.logs, 0]);
  });

  it('ends with every row exactly once', async () => {
    expect(await counts()).toEqual({
      users: fixture.counts.users,
      tokens: fixture.counts.tokens,
      channels: fixture.counts.channels,
      redemptions: fixture.counts.redemptions,
      logs: fixture.counts.logs,
      statistics: fixture.counts.statistics,
      midjourneys: 2,
      tasks: 2,
      telegram_menus: 2,
    });
    const ids = await handle.db.selectFrom('logs').select('id').orderBy('id').execute();
    expect(ids.map((row) => Number(row.id))).toEqual(
      Array.from({ length: fixture.counts.logs }, (_, index) => index + 1),
    );
  });

  it('does nothing when the same source is imported again', async () => {
    const again = await runImportCli(['--from', sourceArgument(source)], target);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already imported completely');
    expect((await counts()).users).toBe(fixture.counts.users);
  });
});
