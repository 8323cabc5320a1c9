import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ensureRootUser } from '../../../src/api/account/bootstrap.js';
import type { SignInUpstreams } from '../../../src/api/account/sign-in.js';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { createMemoryCache, createRedisCache } from '../../../src/platform/cache/index.js';
import { randomString } from '../../../src/platform/crypto.js';
import { type DialectName, migrateToLatest, openDatabase } from '../../../src/platform/db/index.js';
import { createLogger } from '../../../src/platform/logger.js';
import { createServices, type Services } from '../../../src/services.js';
import { createTestDatabase } from '../../databases.js';

export const ROOT_PASSWORD = 'root-password-123';

export interface SignInTestApp {
  app: FastifyInstance;
  services: Services;
  /** Every response this app gave, for the "no secret leaks" checks. */
  responses: LightMyRequestResponse[];
  get(url: string, cookie?: string): Promise<LightMyRequestResponse>;
  post(url: string, payload: unknown, cookie?: string): Promise<LightMyRequestResponse>;
  setOptions(values: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

/**
 * Like test/app.ts's startTestApp, but with the sign-in providers pointed at local mock servers
 * (which the shared assembly does not let a test choose). With TEST_REDIS_URL set, the
 * PostgreSQL and MySQL runs keep codes in Redis, as several nodes would.
 */
export async function startSignInTestApp(
  dialect: DialectName,
  upstreams: Partial<SignInUpstreams>,
  env: Record<string, string> = {},
): Promise<SignInTestApp> {
  const testDatabase = await createTestDatabase(dialect);
  const dataDirectory = mkdtempSync(join(tmpdir(), 'one-hub-sign-in-'));
  const config = loadConfig({
    SQLITE_PATH: testDatabase.target.sqlitePath || join(dataDirectory, 'unused.db'),
    SQL_DSN: testDatabase.target.sqlDsn,
    SESSION_SECRET: 'test-session-secret-0123456789',
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    // Root starts empty here, so balances and log counts in tests are what each test put there
    // (the first-start balance has its own test in api/account/bootstrap.test.ts).
    INITIAL_ROOT_QUOTA: '0',
    LOG_LEVEL: 'silent',
    CRITICAL_RATE_LIMIT: '100000',
    ...env,
  });
  const logger = createLogger('silent');
  const redisUrl = process.env.TEST_REDIS_URL;
  const cache =
    redisUrl && dialect !== 'sqlite'
      ? createRedisCache(redisUrl, `onehub-test-${randomString(8)}:`)
      : createMemoryCache();
  const database = openDatabase(config);
  await migrateToLatest(database);
  const services = createServices(database, cache, logger, { serverSecret: config.sessionSecret }, upstreams);
  await services.options.load();
  await services.prices.load();
  await ensureRootUser(config, services.userRepository, services.users, logger, () => {});
  const app = await buildApp({ config, services, logger, consoleDirectory: join(dataDirectory, 'no-console') });
  await app.ready();

  const responses: LightMyRequestResponse[] = [];
  const record = (response: LightMyRequestResponse) => {
    responses.push(response);
    return response;
  };
  return {
    app,
    services,
    responses,
    get: async (url, cookie) => record(await app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} })),
    post: async (url, payload, cookie) =>
      record(await app.inject({ method: 'POST', url, payload: payload as object, headers: cookie ? { cookie } : {} })),
    async setOptions(values) {
      for (const [key, value] of Object.entries(values)) await services.options.update(key, value);
    },
    async close() {
      await app.close();
      await Promise.allSettled([cache.close(), database.close()]);
      await testDatabase.drop();
    },
  };
}

/** The cookies a response set, as one `Cookie` header value merged over an earlier one. */
export function cookiesFrom(response: LightMyRequestResponse, earlier = ''): string {
  const jar = new Map<string, string>();
  for (const part of earlier.split('; ').filter(Boolean)) {
    const [name, ...value] = part.split('=');
    if (name) jar.set(name, value.join('='));
  }
  for (const cookie of response.cookies) {
    if (cookie.value) jar.set(cookie.name, cookie.value);
    else jar.delete(cookie.name);
  }
  return [...jar.entries()].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** Fails when any recorded response (body or headers) contains one of the secrets. */
export function findLeaks(responses: LightMyRequestResponse[], secrets: string[]): string[] {
  const leaks: string[] = [];
  for (const response of responses) {
    const text = `${JSON.stringify(response.headers)}\n${response.body}`;
    for (const secret of secrets) if (secret && text.includes(secret)) leaks.push(secret);
  }
  return [...new Set(leaks)];
}
