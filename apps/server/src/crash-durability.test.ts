import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BookedAccount, bookViolations, describeBooks, readBooks } from '../test/crash-books.js';
import { runCrashLoad, seededRandom } from '../test/crash-load.js';
import { createTestDatabase, type TestDatabase } from '../test/databases.js';
import { type MockUpstream, startMockUpstream } from '../test/mocks/openai-upstream.js';
import { type ServerProcess, startServerProcess } from '../test/server-process.js';
import { providerType } from './domain/channel-types/registry.js';
import type { DialectName } from './platform/db/index.js';

/**
 * Issue 30: a request's settlement and its log row are durable before its answer ends, so a
 * server killed outright (SIGKILL: a crash, the OOM killer, `docker kill`) loses no charge and no
 * log row of an answer a client received; nor (issue 33) any use of the key's budget window. The real server runs as a child process; a load of
 * streamed and plain chats is cut by a SIGKILL at a random point; after a restart on the same
 * database and data folder the books must agree with themselves and with what the client saw.
 *
 * The rounds continue on one database: a restart must replay what the previous crash left exactly
 * once, and the next round's restart would show a second replay as double charges and rows.
 */

const pgUrl = process.env.TEST_PG_URL;
const ROOT_PASSWORD = 'crash-root-password';
const MODEL = 'gpt-4o-mini';
// The mock reports 12 prompt and 7 completion tokens; at prices 1 and 2 every request costs 26.
const COST = 12 * 1 + 7 * 2;
const TOKENS = 12 + 7;
// The key's budget window (issue 33): far more than the load, so it refuses nothing, and counts all.
const BUDGET = { period: 'month', quota: 1_000_000_000, requests: 1_000_000, tokens: 1_000_000_000 };
const ROUNDS = 3;
const REQUESTS_PER_ROUND = 160;
const CONCURRENCY = 12;
// Set CRASH_TEST_SEED to repeat a failed run's plan (its failure message names the seed).
const SEED = Number(process.env.CRASH_TEST_SEED ?? Math.floor(Math.random() * 2 ** 32));

let upstream: MockUpstream;
beforeAll(async () => {
  // A few chunks a little apart, so the crash also cuts streams halfway.
  upstream = await startMockUpstream({ chunks: 4, chunkDelayMs: 5 });
});
afterAll(() => upstream?.close());

/** The management API as an operator's script uses it: sign in, then the session cookie. */
async function signIn(url: string, username: string, password: string) {
  const response = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const cookie = response.headers
    .getSetCookie()
    .find((entry) => entry.startsWith('session='))
    ?.split(';')[0];
  if (response.status !== 200 || !cookie) throw new Error(`signing in ${username}: ${await response.text()}`);
  return async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const answer = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? { cookie } : { cookie, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await answer.json()) as { success: boolean; message?: string; data?: unknown };
    if (answer.status !== 200 || !json.success) throw new Error(`${method} ${path}: ${answer.status} ${json.message}`);
    return json.data;
  };
}

/** A channel to the mock at round prices, no request-rate limit, a user with a balance and a limited key. */
async function setUpAccount(url: string): Promise<BookedAccount & { key: string }> {
  const root = await signIn(url, 'root', ROOT_PASSWORD);
  await root('POST', '/api/channel/', {
    name: 'crash-mock',
    type: providerType('openai'),
    key: upstream.behaviour.apiKey,
    base_url: upstream.url,
    models: MODEL,
    group: 'default',
  });
  await root('DELETE', `/api/prices/single/${MODEL}`);
  await root('POST', '/api/prices/single', {
    model: MODEL,
    type: 'tokens',
    channel_type: providerType('openai'),
    input: 1,
    output: 2,
    locked: false,
  });
  const groups = (await root('GET', '/api/user_group/?name=')) as { data: Array<{ symbol: string }> };
  await root('PUT', '/api/user_group/', { ...groups.data.find((group) => group.symbol === 'default'), api_rate: 0 });
  const user = (await root('POST', '/api/user/', { username: 'crash-user', password: 'crash-user-password' })) as {
    id: number;
  };
  // Far more than the whole load costs, on the user and on the key, so no request is refused for money.
  await root('POST', `/api/user/quota/${user.id}`, { quota: 10_000_000 });
  const asUser = await signIn(url, 'crash-user', 'crash-user-password');
  const { id: tokenId, key } = (await asUser('POST', '/api/token/', {
    name: 'crash-key',
    expired_time: -1,
    remain_quota: 5_000_000,
    unlimited_quota: false,
    setting: { budgets: [BUDGET] },
  })) as { id: number; key: string };
  const channels = (await root('GET', '/api/channel/?name=crash-mock')) as { data: Array<{ id: number }> };
  const channelId = channels.data[0]?.id;
  if (!channelId) throw new Error('the channel just made is not listed');
  return { userId: user.id, tokenId, channelId, budgetPeriod: BUDGET.period, key };
}

async function crashRounds(dialect: DialectName): Promise<void> {
  const database: TestDatabase = await createTestDatabase(dialect);
  // The data folder (session secret, and where a journal lives) is SQLITE_PATH's, on every database.
  const dataDirectory = dialect === 'sqlite' ? undefined : mkdtempSync(join(tmpdir(), 'one-hub-crash-'));
  const env = {
    SQLITE_PATH: dataDirectory ? join(dataDirectory, 'one-hub.db') : database.target.sqlitePath,
    SQL_DSN: database.target.sqlDsn ?? '',
    REDIS_CONN_STRING: '',
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    UPDATE_PRICE_SERVICE: '',
    GLOBAL_API_RATE_LIMIT: '0',
  };
  const random = seededRandom(SEED ^ (dialect === 'sqlite' ? 0 : 0x5bd1e995));
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess(env);
    const { key, ...account } = await setUpAccount(server.url);
    const baseline = await readBooks(database.target, account);
    const client = { sent: 0, succeeded: [] as string[] };
    for (let round = 1; round <= ROUNDS; round++) {
      const crashAfterSuccesses = 5 + Math.floor(random() * 100);
      const streams = Array.from({ length: REQUESTS_PER_ROUND }, () => random() < 0.5);
      const running: ServerProcess = server;
      const outcome = await runCrashLoad({
        url: running.url,
        key,
        model: MODEL,
        total: REQUESTS_PER_ROUND,
        concurrency: CONCURRENCY,
        streams,
        crashAfterSuccesses,
        crash: () => void running.kill(),
      });
      await running.exited;
      client.sent += outcome.sent;
      client.succeeded.push(...outcome.succeeded);
      const context =
        `seed ${SEED} (CRASH_TEST_SEED), ${dialect}, round ${round}: SIGKILL after ${crashAfterSuccesses} successes; ` +
        `this round ${outcome.sent} sent, ${outcome.succeeded.length} seen to succeed, ${outcome.cut} cut by the kill`;
      // The load itself went as planned: nothing refused or failed before the kill, and it was the kill that ended it.
      expect(outcome.refused, context).toEqual([]);
      expect(outcome.errorsBeforeCrash, context).toEqual([]);
      expect(outcome.succeededWithoutId, context).toBe(0);
      expect(running.child.signalCode, context).toBe('SIGKILL');

      server = await startServerProcess(env);
      // Replayed settlements may reach the tables through the usual batches: wait for them, bounded.
      await expect
        .poll(
          async () => {
            const now = await readBooks(database.target, account);
            const problems = bookViolations(baseline, now, client, { cost: COST, tokens: TOKENS });
            return problems.length === 0
              ? []
              : [...problems, `books after the restart: ${describeBooks(baseline, now)}`];
          },
          { timeout: 20_000, interval: 250, message: context },
        )
        .toEqual([]);
    }
  } finally {
    await server?.kill();
    await database.drop();
    if (dataDirectory) rmSync(dataDirectory, { recursive: true, force: true });
  }
}

describe('a server killed during a load of chats loses no charge and no log row (issue 30)', () => {
  it('on SQLite, three SIGKILLs at random points', () => crashRounds('sqlite'), 300_000);
  it.runIf(pgUrl)('on PostgreSQL, three SIGKILLs at random points', () => crashRounds('postgres'), 300_000);
});
