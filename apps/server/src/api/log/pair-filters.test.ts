import { LogType, Role } from '@one-hub/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import { logRow } from '../../../test/log-rows.js';
import { nowSeconds } from '../../platform/clock.js';
import type { NewLogRow, UserRow } from '../../platform/db/index.js';
import { LogService } from './service.js';
import { insertLogRows } from './writer.js';

type Filters = { username?: string; token_name?: string; model_name?: string; channel_id?: number };

/**
 * The filter pairs the Logs screen sends together (migration 0027's indexes): every pair answers
 * exactly the rows matching both filters, newest first, with their count and summed quota, and a
 * pair that matches nothing (a key the user does not have, a model the user or the key never
 * called, a channel the user never used) an empty page and zero statistics, on every database.
 */
describe.each(availableDialects)('log filter pairs on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);
  let service: LogService;
  const rows: NewLogRow[] = [];
  const root = { id: 0, role: Role.root } as UserRow;
  const owner = { id: 21 } as UserRow;

  beforeAll(async () => {
    service = new LogService(handle);
    const now = nowSeconds();
    // Over three days, so the statistics read whole days from the roll-up and the edges from the logs.
    const users = [
      { user_id: 21, username: 'pair_a', token_name: 'pair_a-key', models: ['gpt-4o', 'gpt-4o-mini'], channel: 3 },
      { user_id: 22, username: 'pair_b', token_name: 'pair_b-key', models: ['claude-3', 'gpt-4o'], channel: 7 },
    ];
    for (let index = 0; index < 24; index++) {
      const user = users[index % 2] ?? users[0];
      if (!user) continue;
      const { models, channel, ...account } = user;
      rows.push(
        logRow({
          ...account,
          model_name: models[index % 4 < 2 ? 0 : 1] ?? '',
          channel_id: channel + (index % 3 === 0 ? 1 : 0),
          quota: 100 + index,
          prompt_tokens: 10,
          created_at: now - 3 * 86_400 + index * 10_800,
        }),
      );
    }
    rows.push(logRow({ user_id: 21, username: 'pair_a', type: LogType.topup, quota: 5_000, created_at: now - 100 }));
    await handle.db.transaction().execute((transaction) => insertLogRows(transaction, dialect, rows));
  });

  function expected(filters: Filters, userId?: number) {
    const matching = rows
      .map((row, index) => ({ row, id: index + 1 }))
      .filter(
        ({ row }) =>
          (userId === undefined || row.user_id === userId) &&
          (filters.username === undefined || row.username === filters.username) &&
          (filters.token_name === undefined || row.token_name === filters.token_name) &&
          (filters.model_name === undefined || row.model_name === filters.model_name) &&
          (filters.channel_id === undefined || row.channel_id === filters.channel_id),
      )
      .sort((left, right) => right.row.created_at - left.row.created_at || right.id - left.id);
    const consume = matching.filter(({ row }) => row.type === LogType.consume);
    return {
      quotas: matching.map(({ row }) => row.quota),
      quota: consume.reduce((sum, { row }) => sum + row.quota, 0),
    };
  }

  const pairs: [string, Filters][] = [
    ['username + key', { username: 'pair_a', token_name: 'pair_a-key' }],
    ['username + key the user does not have', { username: 'pair_a', token_name: 'pair_b-key' }],
    ['model + username', { model_name: 'gpt-4o', username: 'pair_b' }],
    ['model + username never calling it', { model_name: 'claude-3', username: 'pair_a' }],
    ['key + model', { token_name: 'pair_b-key', model_name: 'claude-3' }],
    ['key + model it never called', { token_name: 'pair_a-key', model_name: 'claude-3' }],
    ['channel + username', { channel_id: 4, username: 'pair_a' }],
    ['channel + username never using it', { channel_id: 7, username: 'pair_a' }],
  ];

  it.each(pairs)('lists and sums %s exactly', async (_, filters) => {
    const want = expected(filters);
    const page = await service.list(root, { page: 1, size: 100, ...filters });
    expect(page.data.map((log) => log.quota)).toEqual(want.quotas);
    expect(page.total_count).toBe(want.quotas.length);
    const { channel_id: channel, ...rest } = filters;
    const stat = await service.stat(root, { ...rest, ...(channel ? { channel } : {}) });
    expect(stat.quota).toBe(want.quota);
    if (want.quotas.length === 0) expect(stat).toEqual({ quota: 0, rpm: 0, tpm: 0 });
  });

  it('answers a pair that matches nothing with an empty page and zero statistics', async () => {
    for (const [name, filters] of pairs.filter(([name]) => / (not|never) /.test(name))) {
      expect(await service.list(root, { page: 1, size: 10, ...filters }), name).toMatchObject({
        data: [],
        total_count: 0,
      });
    }
  });

  it("narrows a user's own logs by key and model together, and by log type", async () => {
    for (const filters of [
      { token_name: 'pair_a-key', model_name: 'gpt-4o' },
      { token_name: 'pair_a-key', model_name: 'claude-3' },
      { token_name: 'pair_b-key', model_name: 'gpt-4o' },
    ]) {
      const want = expected(filters, owner.id);
      const page = await service.listOwn(owner, { page: 1, size: 100, ...filters });
      expect(page.data.map((log) => log.quota)).toEqual(want.quotas);
      expect(page.total_count).toBe(want.quotas.length);
      expect((await service.ownStat(owner, filters)).quota).toBe(want.quota);
    }
    const topUps = await service.listOwn(owner, { page: 1, size: 10, log_type: LogType.topup });
    expect(topUps).toMatchObject({ total_count: 1, data: [{ quota: 5_000 }] });
    const errors = await service.list(root, { page: 1, size: 10, log_type: LogType.error, username: 'pair_a' });
    expect(errors).toMatchObject({ total_count: 0, data: [] });
  });
});
