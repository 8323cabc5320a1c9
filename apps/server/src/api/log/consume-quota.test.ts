import { LogType } from '@one-hub/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, useMigratedDatabase } from '../../../test/databases.js';
import type { NewLogRow } from '../../platform/db/index.js';
import { localDateOf } from '../statistics/dates.js';
import { ConsumeQuotaReader } from './consume-quota.js';
import { type LogFilter, LogQueryRepository } from './query-repo.js';
import { LogWriter } from './writer.js';

/** Unix seconds of a local wall-clock time `days` after 2024-03-08. */
function localTime(days: number, hours: number, minutes = 0, seconds = 0): number {
  return Math.floor(new Date(2024, 2, 8 + days, hours, minutes, seconds).getTime() / 1000);
}

/** The same pseudo-random rows on every run and every database. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const USERS = ['ann', 'ben', 'cat'];
const MODELS = ['gpt-4o', 'claude', 'gemini'];
const TYPES = [LogType.consume, LogType.consume, LogType.consume, LogType.consume, LogType.topup, LogType.error];

/** Seven days of logs, plus rows on the very first and last second of some days. */
function makeRows(userIds: number[]): NewLogRow[] {
  const random = generator(42);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const times = Array.from({ length: 600 }, () => localTime(0, 0) + Math.floor(random() * 7 * 86_400));
  times.push(localTime(2, 0), localTime(2, 23, 59, 59), localTime(3, 0), localTime(5, 23, 59, 59));
  return times.map((created_at) => {
    const user = Math.floor(random() * USERS.length);
    return {
      user_id: userIds[user] ?? 0,
      username: USERS[user] ?? '',
      created_at,
      type: pick(TYPES),
      content: '',
      quota: 1 + Math.floor(random() * 1000),
      source_ip: '',
      token_name: `key-${Math.floor(random() * 2)}`,
      model_name: pick(MODELS),
      prompt_tokens: 10,
      completion_tokens: 20,
      channel_id: 1 + Math.floor(random() * 2),
      request_time: 100,
      is_stream: false,
      metadata: '{}',
      token_id: 0,
      request_id: '',
    };
  });
}

const FILTERS: Array<[string, (ids: number[]) => LogFilter]> = [
  ['no filter', () => ({})],
  ['one user', (ids) => ({ userId: ids[1] })],
  ['username', () => ({ username: 'cat' })],
  ['model', () => ({ modelName: 'claude' })],
  ['channel', () => ({ channelId: 2 })],
  ['user and model', (ids) => ({ userId: ids[0], modelName: 'gpt-4o' })],
  // Keys from the token days (migration 0028), but with a channel, which they do not have.
  ['token', () => ({ tokenName: 'key-1' })],
  ['token and user', (ids) => ({ tokenName: 'key-0', userId: ids[1] })],
  ['token and username', () => ({ tokenName: 'key-1', username: 'cat' })],
  ['token and model', () => ({ tokenName: 'key-0', modelName: 'claude' })],
  ['token and channel (summed from the logs)', () => ({ tokenName: 'key-1', channelId: 2 })],
  ['a token, all but one user', (ids) => ({ tokenName: 'key-1', hiddenUserIds: [ids[0] ?? 0] })],
  // An admin's view: the users it does not outrank are left out (issue 29).
  ['all but one user', (ids) => ({ hiddenUserIds: [ids[0] ?? 0] })],
  ['a model, all but two users', (ids) => ({ modelName: 'claude', hiddenUserIds: [ids[0] ?? 0, ids[2] ?? 0] })],
  ['a username, all but another user', (ids) => ({ username: 'cat', hiddenUserIds: [ids[0] ?? 0] })],
];

const RANGES: Array<[string, number | undefined, number | undefined]> = [
  ['all time', undefined, undefined],
  ['whole days', localTime(1, 0), localTime(3, 23, 59, 59)],
  ['partial days at both edges', localTime(1, 13, 17), localTime(4, 8, 2, 9)],
  ['inside one day', localTime(2, 9), localTime(2, 17, 30)],
  ['start only, mid-day', localTime(3, 6, 45), undefined],
  ['end only, mid-day', undefined, localTime(4, 11, 11)],
  ['first second of a day to the first second of the next', localTime(2, 0), localTime(3, 0)],
  ['last second of a day to the last second of the next', localTime(2, 23, 59, 59), localTime(3, 23, 59, 59)],
  ['end after now', localTime(5, 12), localTime(9, 0)],
  ['end before start', localTime(4, 0), localTime(3, 0)],
];

/** "Now" for the reader: the midnight after the last day that has logs. */
const NOW = localTime(6, 23, 59, 59) + 1;

describe.each(availableDialects)('log statistics from the daily roll-up on %s', (dialect) => {
  const handle = useMigratedDatabase(dialect);
  let logs: LogQueryRepository;
  let reader: ConsumeQuotaReader;
  const userIds: number[] = [];

  beforeAll(async () => {
    for (const [index, username] of USERS.entries()) {
      await handle.db
        .insertInto('users')
        .values({ username, password: '', aff_code: `aff${index}`, created_time: 0 } as never)
        .execute();
      const row = await handle.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
      userIds.push(Number(row?.id));
    }
    // Written as the relay writes them: in batches, each with its roll-up in the same transaction.
    const writer = new LogWriter(handle, { batchSize: 50, flushIntervalMs: 60_000 });
    for (const row of makeRows(userIds)) writer.push(row);
    await writer.close();
    logs = new LogQueryRepository(handle);
    reader = new ConsumeQuotaReader(handle, logs);
  });

  /** Every filter over every range: the reader's answer against a plain sum over the logs. */
  async function compareWithScan(): Promise<void> {
    let nonZero = 0;
    for (const [filterName, makeFilter] of FILTERS) {
      for (const [rangeName, start, end] of RANGES) {
        const filter = { ...makeFilter(userIds), startTimestamp: start, endTimestamp: end };
        const scanned =
          end !== undefined && start !== undefined && end < start ? 0 : (await logs.consumeTotals(filter)).quota;
        if (scanned > 0) nonZero++;
        expect(await reader.quota(filter, NOW), `${filterName}, ${rangeName}`).toBe(scanned);
      }
    }
    // The comparison means something only if most cases have usage to count.
    expect(nonZero).toBeGreaterThan(FILTERS.length * (RANGES.length - 2));
  }

  it('gives exactly what summing the logs gives, for every filter and range', async () => {
    await compareWithScan();
  });

  it('answers 0 for a hidden user, whether named by id or by username', async () => {
    const hiddenUserIds = [userIds[1] ?? 0];
    expect(await reader.quota({ userId: userIds[1], hiddenUserIds }, NOW)).toBe(0);
    expect(await reader.quota({ username: 'ben', hiddenUserIds, startTimestamp: localTime(1, 0) }, NOW)).toBe(0);
    expect(await reader.quota({ username: 'ben' }, NOW)).toBeGreaterThan(0);
  });

  it('reads whole days from the roll-up and only partial days from the logs', async () => {
    const day = localDateOf(localTime(2, 12));
    const row = await handle.db
      .selectFrom('statistics')
      .select(['user_id', 'channel_id', 'model_name'])
      .where('date', '=', day)
      .executeTakeFirstOrThrow();
    const wholeDay = { startTimestamp: localTime(2, 0), endTimestamp: localTime(2, 23, 59, 59) };
    const partDay = { startTimestamp: localTime(2, 0), endTimestamp: localTime(2, 23, 0) };
    const byModel = { modelName: row.model_name };
    const read = async () => [
      await reader.quota(wholeDay, NOW),
      await reader.quota(partDay, NOW),
      await reader.quota({ ...wholeDay, ...byModel }, NOW),
      await reader.quota({ ...partDay, ...byModel }, NOW),
    ];
    /** Changes one roll-up row and its day's total alike, as a write would. */
    const shift = async (amount: number) => {
      await handle.db
        .updateTable('statistics')
        .set((eb) => ({ quota: eb('quota', '+', amount) }))
        .where('date', '=', day)
        .where('user_id', '=', row.user_id)
        .where('channel_id', '=', row.channel_id)
        .where('model_name', '=', row.model_name)
        .execute();
      await handle.db
        .updateTable('statistics_days')
        .set((eb) => ({ quota: eb('quota', '+', amount) }))
        .where('date', '=', day)
        .execute();
    };
    const [whole, part, wholeModel, partModel] = await read();
    await shift(1_000_000);
    try {
      expect(await read()).toEqual([(whole ?? 0) + 1_000_000, part, (wholeModel ?? 0) + 1_000_000, partModel]);
    } finally {
      await shift(-1_000_000);
    }
  });

  it('still matches the logs after the oldest consume logs were deleted mid-day', async () => {
    const deleted = await logs.deleteConsumeLogsBefore(localTime(1, 14, 30));
    expect(deleted).toBeGreaterThan(0);
    await compareWithScan();
  });

  it('answers 0 when no consume log is left', async () => {
    await logs.deleteConsumeLogsBefore(NOW + 1);
    expect(await reader.quota({}, NOW)).toBe(0);
    expect(await reader.quota({ modelName: 'claude', startTimestamp: localTime(1, 0) }, NOW)).toBe(0);
  });
});
