import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { assembleServer } from '../src/assemble.js';
import { loadConfig } from '../src/config.js';
import { type Cache, createMemoryCache } from '../src/platform/cache/index.js';
import type { DatabaseHandle, DialectName } from '../src/platform/db/index.js';
import { createLogger, type Logger } from '../src/platform/logger.js';
import type { HeartbeatTiming } from '../src/relay/exchange/heartbeat.js';
import type { Services } from '../src/services.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

export const ROOT_PASSWORD = 'root-password-123';
export const ROOT_TOKEN = 'root-access-token-for-tests-0123456789';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  database: DatabaseHandle;
  /** The database's server-side handle (to start another node on it). */
  testDatabase: TestDatabase;
  /** Signs in and returns the `session` cookie header value. */
  login(username: string, password: string): Promise<string>;
  /** Registers a common user (password `password-123`) and returns its session cookie and id. */
  createUser(username: string, extra?: Record<string, unknown>): Promise<{ id: number; cookie: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  dialect?: DialectName;
  env?: Record<string, string>;
  consoleDirectory?: string;
  heartbeat?: HeartbeatTiming;
  /** The shared cache; a fresh memory cache by default; 'configured': REDIS_CONN_STRING's, as in production. */
  cache?: Cache | 'configured';
  /** Another node's database, for a second node on it; it is left for its owner to drop. */
  database?: TestDatabase;
  /** Milliseconds since the epoch for subscriptions' starts and ends (tests move it on). */
  clock?: () => number;
  /** Where log lines go (a test reading them back); silent by default. */
  logger?: Logger;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDatabase = options.database ?? (await createTestDatabase(options.dialect ?? 'sqlite'));
  const dataDirectory = mkdtempSync(join(tmpdir(), 'one-hub-data-'));
  const config = loadConfig({
    SQLITE_PATH: testDatabase.target.sqlitePath || join(dataDirectory, 'unused.db'),
    SQL_DSN: testDatabase.target.sqlDsn,
    SESSION_SECRET: 'test-session-secret-0123456789',
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    // Root starts empty here, so balances and log counts in tests are what each test put there
    // (the first-start balance has its own test in api/account/bootstrap.test.ts).
    INITIAL_ROOT_QUOTA: '0',
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    LOG_LEVEL: 'silent',
    // Tests sign in far more often than a person; the limiter has its own test with a low limit.
    CRITICAL_RATE_LIMIT: '100000',
    // Likewise for the per-address limits on /api and the console (rate-limit.test.ts sets them).
    GLOBAL_API_RATE_LIMIT: '0',
    GLOBAL_WEB_RATE_LIMIT: '0',
    ...options.env,
  });
  const server = await assembleServer(config, options.logger ?? createLogger('silent'), {
    ...(options.cache === 'configured' ? {} : { cache: options.cache ?? createMemoryCache() }),
    consoleDirectory: options.consoleDirectory ?? join(dataDirectory, 'no-console'),
    ...(options.heartbeat ? { heartbeat: options.heartbeat } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const { app, services, database } = server;
  await app.ready();

  async function login(username: string, password: string): Promise<string> {
    const response = await app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password } });
    if (response.statusCode !== 200) throw new Error(`login failed for ${username}: ${response.body}`);
    return sessionCookie(response);
  }

  return {
    app,
    services,
    database,
    testDatabase,
    login,
    async createUser(username, extra = {}) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/user/register',
        payload: { username, password: 'password-123', ...extra },
      });
      if (response.statusCode !== 200) throw new Error(`register failed for ${username}: ${response.body}`);
      return {
        id: (response.json() as { data: { id: number } }).data.id,
        cookie: await login(username, 'password-123'),
      };
    },
    async close() {
      await server.close();
      if (!options.database) await testDatabase.drop();
    },
  };
}

/** Listens on a free loopback port (unless it already listens); answers `http://127.0.0.1:<port>`. */
export async function listenOnLoopback(t: Pick<TestApp, 'app'>): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

export function sessionCookie(response: LightMyRequestResponse): string {
  const session = response.cookies.find((cookie) => cookie.name === 'session');
  if (!session) throw new Error('no session cookie in the response');
  return `session=${session.value}`;
}
