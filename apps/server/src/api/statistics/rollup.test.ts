import { LogType } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import type { NewLogRow } from '../../platform/db/index.js';
import { LogWriter } from '../log/writer.js';
import { localDateOf } from './dates.js';

/** Unix seconds of a local wall-clock time `days` after 2024-03-10. */
function localTime(days: number, hours: number, minutes = 0, seconds = 0): number {
  return Math.floor(new Date(2024, 2, 10 + days, hours, minutes, seconds).getTime() / 1000);
}

function consumeLog(fields: Partial<NewLogRow> & { model_name: string; created_at: number }): NewLogRow {
  return {
    user_id: 1,
    username: 'rollup',
    type: LogType.consume,
    content: '',
    quota: 10,
    source_ip: '',
    token_name: 'key',
    prompt_tokens: 3,
    completion_tokens: 4,
    channel_id: 7,
    request_time: 100,
    is_stream: false,
    metadata: '{}',
    token_id: 0,
    request_id: '',
    ...fields,
  };
}

interface Totals {
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}

describe.each(availableDialects)('statistics roll-up by the log writer on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);

  async function statisticsOf(model: string) {
    const rows = await handle.db
      .selectFrom('statistics')
      .selectAll()
      .where('model_name', '=', model)
      .orderBy('date')
      .orderBy('user_id')
      .orderBy('channel_id')
      .execute();
    return rows.map((row) => ({
      date: row.date,
      user_id: Number(row.user_id),
      channel_id: Number(row.channel_id),
      request_count: Number(row.request_count),
      quota: Number(row.quota),
      prompt_tokens: Number(row.prompt_tokens),
      completion_tokens: Number(row.completion_tokens),
      request_time: Number(row.request_time),
    }));
  }

  /** The same sums computed from the logs that were actually written, grouped here in JavaScript. */
  async function sumsOfWrittenLogs(model: string) {
    const logs = await handle.db
      .selectFrom('logs')
      .selectAll()
      .where('model_name', '=', model)
      .where('type', '=', LogType.consume)
      .execute();
    const groups = new Map<string, { date: string; user_id: number; channel_id: number } & Totals>();
    for (const log of logs) {
      const date = localDateOf(Number(log.created_at));
      const key = `${date}|${log.user_id}|${log.channel_id}`;
      const group = groups.get(key) ?? {
        date,
        user_id: Number(log.user_id),
        channel_id: Number(log.channel_id),
        request_count: 0,
        quota: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        request_time: 0,
      };
      group.request_count += 1;
      group.quota += Number(log.quota);
      group.prompt_tokens += Number(log.prompt_tokens);
      group.completion_tokens += Number(log.completion_tokens);
      group.request_time += Number(log.request_time);
      groups.set(key, group);
    }
    return [...groups.values()].sort(
      (left, right) =>
        left.date.localeCompare(right.date) || left.user_id - right.user_id || left.channel_id - right.channel_id,
    );
  }

  it('adds several batches into the same row', async () => {
    const writer = new LogWriter(handle, { batchSize: 100, flushIntervalMs: 60_000 });
    for (let index = 0; index < 450; index++) {
      writer.push(consumeLog({ model_name: 'many-batches', created_at: localTime(0, 12), quota: index }));
    }
    await writer.flush();
    await writer.close();
    expect(await statisticsOf('many-batches')).toEqual([
      {
        date: '2024-03-10',
        user_id: 1,
        channel_id: 7,
        request_count: 450,
        quota: (449 * 450) / 2,
        prompt_tokens: 1350,
        completion_tokens: 1800,
        request_time: 45_000,
      },
    ]);
  });

  it('splits logs either side of local midnight into two days, and users and channels into their own rows', async () => {
    const writer = new LogWriter(handle, { batchSize: 7, flushIntervalMs: 60_000 });
    const times = [localTime(0, 23, 59, 30), localTime(1, 0, 0, 0), localTime(1, 0, 0, 30), localTime(1, 23, 59, 59)];
    for (const [index, created_at] of times.entries()) {
      for (const user_id of [1, 2]) {
        for (const channel_id of [7, 8]) {
          writer.push(consumeLog({ model_name: 'two-days', created_at, user_id, channel_id, quota: 100 + index }));
        }
      }
    }
    await writer.flush();
    await writer.close();
    const rows = await statisticsOf('two-days');
    expect(rows.map((row) => `${row.date} u${row.user_id} c${row.channel_id} n${row.request_count}`)).toEqual([
      '2024-03-10 u1 c7 n1',
      '2024-03-10 u1 c8 n1',
      '2024-03-10 u2 c7 n1',
      '2024-03-10 u2 c8 n1',
      '2024-03-11 u1 c7 n3',
      '2024-03-11 u1 c8 n3',
      '2024-03-11 u2 c7 n3',
      '2024-03-11 u2 c8 n3',
    ]);
    expect(rows.find((row) => row.date === '2024-03-11' && row.user_id === 2)?.quota).toBe(101 + 102 + 103);
    expect(rows).toEqual(await sumsOfWrittenLogs('two-days'));
  });

  it('counts only consume logs, and never a row the database refused', async () => {
    const writer = new LogWriter(handle, { batchSize: 20, flushIntervalMs: 60_000, onError: () => {} });
    for (let index = 0; index < 40; index++) {
      const row = consumeLog({ model_name: 'mixed', created_at: localTime(2, 10, index), quota: index });
      if (index % 5 === 0) writer.push({ ...row, type: LogType.topup });
      else if (index === 13) writer.push({ ...row, content: null as unknown as string });
      else writer.push(row);
    }
    await writer.flush();
    await writer.close();
    const [row] = await statisticsOf('mixed');
    // 40 rows, 8 top-ups, 1 refused.
    expect(row?.request_count).toBe(31);
    expect(await statisticsOf('mixed')).toEqual(await sumsOfWrittenLogs('mixed'));
  });

  it('loses no counts when several writers (nodes) add to the same rows at once', async () => {
    const writers = Array.from({ length: 4 }, () => new LogWriter(handle, { batchSize: 25, flushIntervalMs: 60_000 }));
    for (const [number, writer] of writers.entries()) {
      for (let index = 0; index < 100; index++) {
        const created_at = localTime(3 + (index % 2), 9);
        writer.push(consumeLog({ model_name: 'nodes', created_at, user_id: 1 + (index % 3), quota: number + 1 }));
      }
    }
    await Promise.all(writers.map((writer) => writer.flush()));
    await Promise.all(writers.map((writer) => writer.close()));
    const rows = await statisticsOf('nodes');
    expect(rows.reduce((sum, row) => sum + row.request_count, 0)).toBe(400);
    expect(rows.reduce((sum, row) => sum + row.quota, 0)).toBe(100 * (1 + 2 + 3 + 4));
    expect(rows).toEqual(await sumsOfWrittenLogs('nodes'));
  });
});
