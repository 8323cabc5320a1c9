import { LOG_COUNT_CAP } from '@one-hub/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import { logRow } from '../../../test/log-rows.js';
import type { NewLogRow } from '../../platform/db/index.js';
import { LogQueryRepository, logSortKeys } from './query-repo.js';

function row(index: number, fields: Partial<NewLogRow> = {}): NewLogRow {
  return logRow({
    username: 'many',
    created_at: 1_700_000_000 + index,
    content: `row-${index}`,
    quota: index,
    model_name: 'common',
    channel_id: 1,
    ...fields,
  });
}

describe('log list order', () => {
  it('is newest first by time, then id; other orders break ties by time and id in their direction', () => {
    const describe = (order?: string) =>
      logSortKeys(order).map((key) => `${key.direction === 'desc' ? '-' : ''}${key.column}`);
    expect(describe()).toEqual(['-created_at', '-id']);
    expect(describe('-quota')).toEqual(['-quota', '-created_at', '-id']);
    expect(describe('model_name')).toEqual(['model_name', 'created_at', 'id']);
    expect(describe('created_at')).toEqual(['created_at', 'id']);
    expect(describe('id')).toEqual(['id']);
    expect(() => logSortKeys('content')).toThrow(/cannot sort by field 'content'/);
  });
});

describe.each(availableDialects)('log list at scale on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);
  let repo: LogQueryRepository;

  beforeAll(async () => {
    const rows = Array.from({ length: LOG_COUNT_CAP + 5 }, (_, index) => row(index));
    for (let start = 0; start < rows.length; start += 500) {
      await handle.db
        .insertInto('logs')
        .values(rows.slice(start, start + 500))
        .execute();
    }
    // Written last but made first: the list puts them by time, not by id.
    await handle.db
      .insertInto('logs')
      .values([row(-2, { model_name: 'rare', content: 'late-a' }), row(-1, { model_name: 'rare', content: 'late-b' })])
      .execute();
    repo = new LogQueryRepository(handle);
  }, 60_000);

  it('counts matching rows up to the cap, exactly below it', async () => {
    const all = await repo.list({}, { page: 1, size: 3 });
    expect(all.total_count).toBe(LOG_COUNT_CAP);
    expect(all.data.map((log) => log.content)).toEqual([
      `row-${LOG_COUNT_CAP + 4}`,
      `row-${LOG_COUNT_CAP + 3}`,
      `row-${LOG_COUNT_CAP + 2}`,
    ]);
    const rare = await repo.list({ modelName: 'rare' }, { page: 1, size: 10 });
    expect(rare.total_count).toBe(2);
    expect(rare.data.map((log) => log.content)).toEqual(['late-b', 'late-a']);
  });

  it('still serves pages past the cap', async () => {
    const last = await repo.list({}, { page: LOG_COUNT_CAP + 7, size: 1 });
    expect(last.data.map((log) => log.content)).toEqual(['late-a']);
  });

  it('cleans up more than one batch of old consume logs', async () => {
    expect(await repo.deleteConsumeLogsBefore(1_700_000_000 + 7_000)).toBe(7_002);
    const left = await repo.list({}, { page: 1, size: 1, order: 'created_at' });
    expect(left.total_count).toBe(LOG_COUNT_CAP + 5 - 7_000);
    expect(left.data.map((log) => log.content)).toEqual(['row-7000']);
  });
});
