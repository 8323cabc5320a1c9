// The queries `npm run bench:logs` times (bench/log-scale.ts): every list, filter combination and
// statistic of the Logs screen, the dashboard and the analytics, through the services the API
// routes call, on the data bench/log-scale-fill.ts writes. Users by index: 0 (`user1`, the
// heaviest, ~6% of the rows, models 0–3, channels 1–5, key `user1-key0`), 1 (`user2`, ~2%,
// models 7–10, channels 8–12, key `user2-key1`) and 149 (`user150`, a typical user, ~0.13%,
// models 3–6, channels 4–8, key `user150-key2`). "nothing" names a combination that matches no
// row although each filter alone matches many: a key the user does not have, a model the user or
// the key never called, a channel the user never used, a log type never written.
import { LogType, Role } from '@one-hub/contracts';
import { LogService } from '../apps/server/src/api/log/service.js';
import { localDateDaysBefore } from '../apps/server/src/api/statistics/dates.js';
import { StatisticsRepository } from '../apps/server/src/api/statistics/repo.js';
import type { DatabaseHandle, UserRow } from '../apps/server/src/platform/db/index.js';
import { MODELS, modelName, tokenName, username } from './log-scale-fill.js';

export type TimedQuery = [string, () => Promise<unknown>];

/** The filters the Logs screen sends together, named; `list` adds a log type, `stat` never does. */
interface Combination {
  name: string;
  filters: {
    username?: string;
    token_name?: string;
    model_name?: string;
    channel_id?: number;
    start_timestamp?: number;
    end_timestamp?: number;
  };
}

function combinations(now: number): Combination[] {
  const [heavy, other, typical] = [0, 1, 149];
  const week = { start_timestamp: now - 7 * 86_400, end_timestamp: now };
  return [
    { name: 'username + key (heavy user)', filters: { username: username(heavy), token_name: tokenName(heavy) } },
    { name: 'username + key, nothing', filters: { username: username(heavy), token_name: tokenName(other) } },
    { name: 'username + key (typical user)', filters: { username: username(typical), token_name: tokenName(typical) } },
    {
      name: 'username + key, nothing (typical user)',
      filters: { username: username(typical), token_name: tokenName(heavy) },
    },
    { name: 'model + username', filters: { model_name: modelName(0), username: username(heavy) } },
    { name: 'model + username, nothing', filters: { model_name: modelName(7), username: username(heavy) } },
    { name: 'key + model', filters: { token_name: tokenName(heavy), model_name: modelName(0) } },
    { name: 'key + model, nothing', filters: { token_name: tokenName(heavy), model_name: modelName(7) } },
    { name: 'channel + username', filters: { channel_id: 1, username: username(heavy) } },
    { name: 'channel + username, nothing', filters: { channel_id: 8, username: username(heavy) } },
    {
      name: 'username + key, last 7 days',
      filters: { username: username(heavy), token_name: tokenName(heavy), ...week },
    },
    {
      name: 'model + username, last 7 days, nothing',
      filters: { model_name: modelName(7), username: username(heavy), ...week },
    },
  ];
}

/** A user's own filters (key, model, time): the heavy user's. */
function ownCombinations(now: number): Combination[] {
  const week = { start_timestamp: now - 7 * 86_400, end_timestamp: now };
  return [
    { name: 'by key', filters: { token_name: tokenName(0) } },
    { name: 'by key, nothing', filters: { token_name: tokenName(1) } },
    { name: 'by model', filters: { model_name: modelName(0) } },
    { name: 'by model, nothing', filters: { model_name: modelName(7) } },
    { name: 'key + model', filters: { token_name: tokenName(0), model_name: modelName(0) } },
    { name: 'key + model, nothing', filters: { token_name: tokenName(0), model_name: modelName(7) } },
    { name: 'key, last 7 days', filters: { token_name: tokenName(0), ...week } },
    { name: 'key + model, last 7 days', filters: { token_name: tokenName(0), model_name: modelName(0), ...week } },
  ];
}

/** Every query the Logs screen and the usage dashboards send, as their routes call the services. */
export function consoleQueries(handle: DatabaseHandle, now: number): TimedQuery[] {
  const logs = new LogService(handle);
  const statistics = new StatisticsRepository(handle);
  // Root's view: every log, as the Logs screen shows it to root.
  const root = { id: 0, role: Role.root } as UserRow;
  const heavy = { id: 1 } as UserRow;
  const typical = { id: 150 } as UserRow;
  const page = { page: 1, size: 10 };
  const dayAgo = (days: number) => now - days * 86_400;
  const today = new Date(now * 1000);
  const usage = (days: number, by: 'model' | 'channel', userId?: number) => () =>
    statistics.usageByDay(
      {
        ...(userId === undefined ? {} : { userId }),
        fromDate: localDateDaysBefore(today, days - 1),
        toDate: localDateDaysBefore(today, 0),
      },
      by,
    );
  const queries: TimedQuery[] = [
    ['admin list, unfiltered', () => logs.list(root, { ...page })],
    ['admin list, unfiltered, page 500', () => logs.list(root, { page: 500, size: 10 })],
    ['admin list, by model (common)', () => logs.list(root, { ...page, model_name: modelName(0) })],
    ['admin list, by model (rare)', () => logs.list(root, { ...page, model_name: modelName(MODELS - 1) })],
    ['admin list, by username (heavy user)', () => logs.list(root, { ...page, username: username(0) })],
    ['admin list, by username (typical user)', () => logs.list(root, { ...page, username: username(149) })],
    ['admin list, by key', () => logs.list(root, { ...page, token_name: tokenName(149) })],
    ['admin list, by channel', () => logs.list(root, { ...page, channel_id: 5 })],
    ['admin list, by type (top-up)', () => logs.list(root, { ...page, log_type: LogType.topup })],
    ['admin list, by request id', () => logs.list(root, { ...page, request_id: 'req-12345' })],
    ['admin list, by source IP', () => logs.list(root, { ...page, source_ip: '198.51.100.149' })],
    [
      'admin list, one day a month ago',
      () => logs.list(root, { ...page, start_timestamp: dayAgo(31), end_timestamp: dayAgo(30) }),
    ],
    [
      'admin list, model + one week',
      () =>
        logs.list(root, { ...page, model_name: modelName(3), start_timestamp: dayAgo(14), end_timestamp: dayAgo(7) }),
    ],
    ['admin list, sorted by quota', () => logs.list(root, { ...page, order: '-quota' })],
    [
      'admin list, top-up + username (heavy user)',
      () => logs.list(root, { ...page, log_type: LogType.topup, username: username(0) }),
    ],
    [
      'admin list, consume + key + model',
      () => logs.list(root, { ...page, log_type: LogType.consume, token_name: tokenName(0), model_name: modelName(0) }),
    ],
    [
      'admin list, error + username, nothing',
      () => logs.list(root, { ...page, log_type: LogType.error, username: username(0) }),
    ],
  ];
  for (const { name, filters } of combinations(now)) {
    queries.push([`admin list, ${name}`, () => logs.list(root, { ...page, ...filters })]);
  }
  queries.push(
    ['own list (heavy user)', () => logs.listOwn(heavy, { ...page })],
    ['own list (typical user)', () => logs.listOwn(typical, { ...page })],
    ['own list, by model (typical user)', () => logs.listOwn(typical, { ...page, model_name: modelName(3) })],
    ['own list, by key (typical user)', () => logs.listOwn(typical, { ...page, token_name: tokenName(149) })],
    ['own list, top-up (heavy user)', () => logs.listOwn(heavy, { ...page, log_type: LogType.topup })],
    ['own list, error, nothing (heavy user)', () => logs.listOwn(heavy, { ...page, log_type: LogType.error })],
  );
  for (const { name, filters } of ownCombinations(now)) {
    queries.push([`own list, ${name} (heavy user)`, () => logs.listOwn(heavy, { ...page, ...filters })]);
  }
  queries.push(
    ['admin stat, all time', () => logs.stat(root, {})],
    ['admin stat, by model', () => logs.stat(root, { model_name: modelName(0) })],
    ['admin stat, by channel', () => logs.stat(root, { channel: 5 })],
    ['admin stat, last 7 days to now', () => logs.stat(root, { start_timestamp: dayAgo(7), end_timestamp: now })],
    [
      'admin stat, one day a month ago',
      () => logs.stat(root, { start_timestamp: dayAgo(31), end_timestamp: dayAgo(30) }),
    ],
    ['admin stat, by username (heavy user)', () => logs.stat(root, { username: username(0) })],
    ['admin stat, by username (typical user)', () => logs.stat(root, { username: username(149) })],
    ['admin stat, by key', () => logs.stat(root, { token_name: tokenName(149) })],
    ['admin stat, by key (heavy user)', () => logs.stat(root, { token_name: tokenName(0) })],
    [
      'admin stat, key, one day a month ago (heavy user)',
      () => logs.stat(root, { token_name: tokenName(0), start_timestamp: dayAgo(31), end_timestamp: dayAgo(30) }),
    ],
  );
  for (const { name, filters } of combinations(now)) {
    queries.push([`admin stat, ${name}`, () => logs.stat(root, filters)]);
  }
  queries.push(
    ['own stat (heavy user)', () => logs.ownStat(heavy, {})],
    ['own stat (typical user)', () => logs.ownStat(typical, {})],
    ['own stat, last 7 days (heavy user)', () => logs.ownStat(heavy, { start_timestamp: dayAgo(7) })],
    ['own stat, by key (typical user)', () => logs.ownStat(typical, { token_name: tokenName(149) })],
  );
  for (const { name, filters } of ownCombinations(now)) {
    queries.push([`own stat, ${name} (heavy user)`, () => logs.ownStat(heavy, filters)]);
  }
  queries.push(
    ['dashboard, 7 days (heavy user)', usage(7, 'model', 1)],
    ['analytics, 30 days by channel', usage(30, 'channel')],
    ['analytics, 30 days by model', usage(30, 'model')],
  );
  return queries;
}
