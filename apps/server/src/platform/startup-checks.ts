import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';
import { sql } from 'kysely';
import type { DatabaseHandle } from './db/index.js';

/**
 * A start-up failure an operator fixes in the environment: printed as one line naming the
 * variable and the problem (`SQL_DSN: …`), never as a stack trace.
 */
export class StartupError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

const reasonOf = (error: unknown): string => {
  const text = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown })?.code;
  return text || (typeof code === 'string' ? code : 'unknown error');
};

/** One round trip before migrations, so a wrong address or a missing database is named as such. */
export async function checkDatabase(handle: DatabaseHandle): Promise<void> {
  try {
    await sql`select 1`.execute(handle.db);
  } catch (error) {
    const variable = handle.dialect === 'sqlite' ? 'SQLITE_PATH' : 'SQL_DSN';
    const reason = reasonOf(error);
    const hint = /does not exist|unknown database/i.test(reason)
      ? ' (create it first: One Hub creates its tables)'
      : '';
    throw new StartupError(variable, `cannot use the database ${handle.describe}: ${reason}${hint}`);
  }
}

const load = createRequire(import.meta.url);

/** Connects once without retrying and pings: an unreachable Redis stops the start with one line. */
export async function checkRedis(url: string): Promise<void> {
  const { Redis } = load('ioredis') as typeof IoRedis;
  const probe = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 5000,
  });
  // The socket's own error (ECONNREFUSED, ENOTFOUND…) says more than connect()'s "Connection is
  // closed"; without a listener ioredis would also print it as unhandled.
  let socketError: unknown;
  probe.on('error', (error) => {
    socketError = error;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    const where = new URL(url);
    throw new StartupError(
      'REDIS_CONN_STRING',
      `cannot reach Redis at ${where.host}: ${reasonOf(socketError ?? error)}`,
    );
  } finally {
    probe.disconnect();
  }
}
