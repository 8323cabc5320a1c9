import { LogType } from '@one-hub/contracts';
import { type DatabaseTarget, openDatabase } from '../src/platform/db/index.js';

/** The user, key and channel whose books a crash test reads. */
export interface BookedAccount {
  userId: number;
  tokenId: number;
  channelId: number;
  /** The period of the key's one budget window. */
  budgetPeriod: string;
}

/** What the database holds for the account: its balances and counters, and its consume rows. */
export interface Books {
  balance: number;
  usedQuota: number;
  requestCount: number;
  keyRemain: number;
  keyUsed: number;
  channelUsed: number;
  /** The key's budget window (issue 33): its use as `budget_usage` holds it. */
  window: { quota: number; requests: number; tokens: number };
  rows: Array<{ requestId: string; quota: number }>;
}

/** Reads the books straight from the database (a connection of its own, closed afterwards). */
export async function readBooks(target: DatabaseTarget, account: BookedAccount): Promise<Books> {
  const handle = openDatabase(target);
  try {
    const { db } = handle;
    const user = await db
      .selectFrom('users')
      .select(['quota', 'used_quota', 'request_count'])
      .where('id', '=', account.userId)
      .executeTakeFirstOrThrow();
    const token = await db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota'])
      .where('id', '=', account.tokenId)
      .executeTakeFirstOrThrow();
    const channel = await db
      .selectFrom('channels')
      .select('used_quota')
      .where('id', '=', account.channelId)
      .executeTakeFirstOrThrow();
    const window = await db
      .selectFrom('budget_usage')
      .select(['quota', 'requests', 'tokens'])
      .where('subject', '=', `key:${account.tokenId}`)
      .where('period', '=', account.budgetPeriod)
      .executeTakeFirst();
    const rows = await db
      .selectFrom('logs')
      .select(['request_id', 'quota'])
      .where('user_id', '=', account.userId)
      .where('type', '=', LogType.consume)
      .execute();
    return {
      balance: Number(user.quota),
      usedQuota: Number(user.used_quota),
      requestCount: Number(user.request_count),
      keyRemain: Number(token.remain_quota),
      keyUsed: Number(token.used_quota),
      channelUsed: Number(channel.used_quota),
      window: {
        quota: Number(window?.quota ?? 0),
        requests: Number(window?.requests ?? 0),
        tokens: Number(window?.tokens ?? 0),
      },
      rows: rows.map((row) => ({ requestId: row.request_id, quota: Number(row.quota) })),
    };
  } finally {
    await handle.close();
  }
}

/** What the client saw over all rounds so far. */
export interface ClientRecord {
  sent: number;
  /** Request ids of the answers the client saw succeed. */
  succeeded: string[];
}

/** One line with the figures a failure is judged by. */
export function describeBooks(baseline: Books, now: Books): string {
  const sum = now.rows.reduce((total, row) => total + row.quota, 0);
  return (
    `${now.rows.length} consume rows adding up to ${sum}; balance moved ${baseline.balance - now.balance}, ` +
    `used quota +${now.usedQuota - baseline.usedQuota}, request count +${now.requestCount - baseline.requestCount}, ` +
    `key remain -${baseline.keyRemain - now.keyRemain} used +${now.keyUsed - baseline.keyUsed}, ` +
    `channel used +${now.channelUsed - baseline.channelUsed}, key window +${now.window.quota - baseline.window.quota} ` +
    `in ${now.window.requests - baseline.window.requests} requests and ${now.window.tokens - baseline.window.tokens} tokens`
  );
}

/**
 * Every way the books disagree with themselves or with what the client saw; empty when they hold:
 * each amount moved by exactly the sum of the consume rows, one row per request the client saw
 * succeed, no request logged twice, no more rows than requests sent, each row at `cost`; the key's
 * budget window counted every row's quota, request and `tokens`.
 */
export function bookViolations(
  baseline: Books,
  now: Books,
  client: ClientRecord,
  per: { cost: number; tokens: number },
): string[] {
  const { cost } = per;
  const sum = now.rows.reduce((total, row) => total + row.quota, 0);
  const problems: string[] = [];
  const expectMoved = (what: string, moved: number, expected: number) => {
    if (moved !== expected) problems.push(`${what} moved by ${moved}, expected ${expected}`);
  };
  expectMoved('the balance', baseline.balance - now.balance, sum);
  expectMoved("the user's used quota", now.usedQuota - baseline.usedQuota, sum);
  expectMoved("the user's request count", now.requestCount - baseline.requestCount, now.rows.length);
  expectMoved("the key's remaining quota", baseline.keyRemain - now.keyRemain, sum);
  expectMoved("the key's used quota", now.keyUsed - baseline.keyUsed, sum);
  expectMoved("the channel's used quota", now.channelUsed - baseline.channelUsed, sum);
  expectMoved("the key's budget window quota", now.window.quota - baseline.window.quota, sum);
  expectMoved("the key's budget window requests", now.window.requests - baseline.window.requests, now.rows.length);
  expectMoved(
    "the key's budget window tokens",
    now.window.tokens - baseline.window.tokens,
    now.rows.length * per.tokens,
  );

  const logged = new Map<string, number>();
  for (const row of now.rows) logged.set(row.requestId, (logged.get(row.requestId) ?? 0) + 1);
  const missing = client.succeeded.filter((id) => !logged.has(id));
  if (missing.length > 0) {
    problems.push(
      `${missing.length} of ${client.succeeded.length} requests the client saw succeed have no consume row ` +
        `(e.g. ${missing.slice(0, 3).join(', ')})`,
    );
  }
  const twice = [...logged].filter(([, count]) => count > 1).map(([id]) => id);
  if (twice.length > 0) problems.push(`${twice.length} requests have more than one consume row (e.g. ${twice[0]})`);
  if (now.rows.length > client.sent) problems.push(`${now.rows.length} consume rows for ${client.sent} requests sent`);
  const mispriced = now.rows.filter((row) => row.quota !== cost);
  if (mispriced.length > 0) {
    problems.push(`${mispriced.length} rows are not charged ${cost} (e.g. ${mispriced[0]?.quota})`);
  }
  return problems;
}
