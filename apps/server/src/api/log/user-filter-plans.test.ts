import { LogType } from '@one-hub/contracts';
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useMigratedDatabase } from '../../../test/databases.js';
import { logRow } from '../../../test/log-rows.js';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { LogQueryRepository } from './query-repo.js';
import { LogService } from './service.js';

/** Keeps every query the repository runs, so the test can ask the planner about the same SQL. */
function recorder(): { plugin: KyselyPlugin; queries: RootOperationNode[] } {
  const queries: RootOperationNode[] = [];
  return {
    queries,
    plugin: {
      transformQuery: (args) => {
        queries.push(args.node);
        return args.node;
      },
      transformResult: async (args) => args.result,
    },
  };
}

/**
 * A user's own logs filtered by model or token, and the statistics by token, walk an index that
 * starts with those filters (migration 0014) rather than all of the user's rows; the sums read
 * the index alone. SQLite's planner chooses by the equality columns an index matches, whatever
 * the table holds, so its plan is stable on a small table (the other databases' planners weigh
 * row counts: bench/log-scale.ts measures them at 10M rows).
 */
describe('plans of the user-scoped log filters on sqlite', () => {
  const handle = useMigratedDatabase('sqlite');

  beforeAll(async () => {
    // Another user's consume log, earlier the same day as the rows below: with it the statistics
    // have an oldest log, so they sum that partial day from the logs and whole days from the roll-up.
    await handle.db
      .insertInto('logs')
      .values(logRow({ user_id: 999, token_name: 'other', model_name: 'other', created_at: 1_699_999_990 }))
      .execute();
  });

  async function plansOf(run: (service: LogService, recorded: DatabaseHandle) => Promise<unknown>): Promise<string[]> {
    const { plugin, queries } = recorder();
    const recorded = { ...handle, db: handle.db.withPlugin(plugin) };
    await run(new LogService(recorded), recorded);
    const plans: string[] = [];
    for (const node of queries) {
      const compiled = handle.db.getExecutor().compileQuery(node, { queryId: 'plan' });
      const explained = await handle.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      plans.push(explained.rows.map((row) => row.detail).join('; '));
    }
    return plans;
  }

  const user = { id: 150 } as Parameters<LogService['listOwn']>[0];
  const root = { id: 1, role: 100 } as Parameters<LogService['list']>[0];
  const page = { page: 1, size: 10 };

  it('lists and counts a user own logs by model through (user_id, model_name, created_at, id)', async () => {
    const plans = await plansOf((service) => service.listOwn(user, { ...page, model_name: 'gpt-4o' }));
    // The page, and the capped count (its subquery is seen on its own too).
    expect(plans.length).toBeGreaterThanOrEqual(2);
    for (const plan of plans) expect(plan).toContain('idx_logs_user_model_time (user_id=? AND model_name=?)');
    // The page comes in index order: no sort step.
    expect(plans[0]).not.toContain('TEMP B-TREE');
  });

  it('lists a user own logs by token, and sums their quota, from (user_id, token_name, …) alone', async () => {
    const list = await plansOf((service) => service.listOwn(user, { ...page, token_name: 'user150-key2' }));
    for (const plan of list) expect(plan).toContain('idx_logs_user_token_time (user_id=? AND token_name=?)');
    expect(list[0]).not.toContain('TEMP B-TREE');
    const stat = await plansOf((service) => service.ownStat(user, { token_name: 'user150-key2' }));
    // The partial edge day from the pair's index alone; the whole days from the token days (0028).
    expect(stat).toContainEqual(
      expect.stringContaining('COVERING INDEX idx_logs_user_token_time (user_id=? AND token_name=? AND created_at'),
    );
    expect(stat).toContainEqual(expect.stringContaining('idx_statistics_token_days_user (user_id=? AND token_name=?)'));
  });

  it('sums the quota of any user token for administrators from (token_name, …) alone', async () => {
    const stat = await plansOf((service) => service.stat(root, { token_name: 'user150-key2' }));
    // Either index that starts with the key and carries type and quota (0014's, or 0027's with the
    // model next) holds exactly the key's entries: the edge day's sum reads one of them alone.
    expect(stat).toContainEqual(
      expect.stringMatching(/COVERING INDEX idx_logs_token_(time_quota|model_time) \(token_name=\? AND created_at/),
    );
    expect(stat).toContainEqual(expect.stringContaining('idx_statistics_token_days_token (token_name=?)'));
    const list = await plansOf((service) => service.list(root, { ...page, token_name: 'user150-key2' }));
    expect(list[0]).toContain('idx_logs_token_time_quota (token_name=?)');
    expect(list[0]).not.toContain('TEMP B-TREE');
  });

  it("walks the same index for an admin, whose view leaves root's and other admins' logs out", async () => {
    const hiddenUserIds = [1, 2, 3];
    const list = await plansOf((_, recorded) =>
      new LogQueryRepository(recorded).list({ tokenName: 'user150-key2', hiddenUserIds }, page),
    );
    expect(list[0]).toContain('idx_logs_token_time_quota (token_name=?)');
    expect(list[0]).not.toContain('TEMP B-TREE');
    const newest = await plansOf((_, recorded) => new LogQueryRepository(recorded).list({ hiddenUserIds }, page));
    expect(newest[0]).not.toContain('TEMP B-TREE');
  });

  it('walks an index that starts with both filters of a pair an administrator sends (migration 0027)', async () => {
    const pairs: [Record<string, string | number>, string][] = [
      [
        { username: 'user150', token_name: 'user150-key2' },
        'idx_logs_username_token_time (username=? AND token_name=?)',
      ],
      [{ username: 'user150', model_name: 'gpt-4o' }, 'idx_logs_username_model_time (username=? AND model_name=?)'],
      [{ username: 'user150', channel_id: 4 }, 'idx_logs_username_channel_time (username=? AND channel_id=?)'],
      [
        { token_name: 'user150-key2', model_name: 'gpt-4o' },
        'idx_logs_token_model_time (token_name=? AND model_name=?)',
      ],
    ];
    for (const [filters, index] of pairs) {
      const list = await plansOf((service) => service.list(root, { ...page, ...filters }));
      for (const plan of list) expect(plan).toContain(index);
      expect(list[0]).not.toContain('TEMP B-TREE');
    }
    const topUps = await plansOf((service) => service.list(root, { ...page, username: 'user150', log_type: 1 }));
    for (const plan of topUps) expect(plan).toContain('idx_logs_username_type_time (username=? AND type=?)');
    const ownTopUps = await plansOf((service) => service.listOwn(user, { ...page, log_type: 1 }));
    for (const plan of ownTopUps) expect(plan).toContain('idx_logs_user_type_time (user_id=? AND type=?)');
    expect(ownTopUps[0]).not.toContain('TEMP B-TREE');
    // A name no account has: the roll-ups cannot answer it, so the sum reads the pair's index alone.
    const byUser = await plansOf((service) => service.stat(root, { username: 'user150', token_name: 'user150-key2' }));
    expect(byUser).toContainEqual(
      expect.stringContaining('COVERING INDEX idx_logs_username_token_time (username=? AND token_name=?)'),
    );
    // A key and a model: the edge day from the pair's index alone, whole days from the token days.
    const byModel = await plansOf((service) =>
      service.stat(root, { token_name: 'user150-key2', model_name: 'gpt-4o' }),
    );
    expect(byModel).toContainEqual(
      expect.stringContaining('COVERING INDEX idx_logs_token_model_time (token_name=? AND model_name=? AND created_at'),
    );
    expect(byModel).toContainEqual(
      expect.stringContaining('idx_statistics_token_days_token (token_name=? AND model_name=?'),
    );
  });

  it('keeps the other types out of the sums the covering indexes answer', async () => {
    const base = { user_id: 150, model_name: 'gpt-4o', token_name: 'user150-key2' };
    await handle.db
      .insertInto('logs')
      .values([
        logRow({ ...base, quota: 30 }),
        logRow({ ...base, quota: 12, created_at: 1_700_000_100 }),
        logRow({ ...base, type: LogType.topup, quota: 5_000 }),
        logRow({ ...base, quota: 7, user_id: 151 }),
      ])
      .execute();
    const service = new LogService(handle);
    expect((await service.ownStat(user, { token_name: 'user150-key2' })).quota).toBe(42);
    expect((await service.stat(root, { token_name: 'user150-key2' })).quota).toBe(49);
    const own = await service.listOwn(user, { ...page, model_name: 'gpt-4o' });
    // Newest first, then the higher id of two made in the same second.
    expect(own.data.map((log) => log.quota)).toEqual([12, 5_000, 30]);
  });
});
