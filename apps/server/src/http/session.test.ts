import { closeSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD } from '../../test/app.js';
import { assembleServer } from '../assemble.js';
import { loadConfig } from '../config.js';
import { createMemoryCache } from '../platform/cache/index.js';
import { createLogger } from '../platform/logger.js';

/** A server on a fresh SQLite file whose log lines the test reads back. */
interface LoggedApp {
  app: FastifyInstance;
  lines: string[];
  directory: string;
  close(): Promise<void>;
}

const started: LoggedApp[] = [];
afterAll(async () => {
  for (const server of started) await server.close();
});

async function startLoggedApp(env: Record<string, string> = {}, directory = mkdtempSync(join(tmpdir(), 'one-hub-'))) {
  const lines: string[] = [];
  const config = loadConfig({
    SQLITE_PATH: join(directory, 'one-hub.db'),
    SESSION_SECRET: 'test-session-secret-0123456789',
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    LOG_LEVEL: 'debug',
    CRITICAL_RATE_LIMIT: '100000',
    ...env,
  });
  const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
  const server = await assembleServer(config, logger, {
    cache: createMemoryCache(),
    consoleDirectory: join(directory, 'no-console'),
  });
  await server.app.ready();
  const handle: LoggedApp = {
    app: server.app,
    lines,
    directory,
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
  started.push(handle);
  return handle;
}

const login = (app: FastifyInstance, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/user/login',
    headers,
    payload: { username: 'root', password: ROOT_PASSWORD },
  });
const secureFlag = (response: LightMyRequestResponse) => {
  expect(response.statusCode).toBe(200);
  return Boolean(response.cookies.find((cookie) => cookie.name === 'session')?.secure);
};
const https = { 'x-forwarded-proto': 'https' };

describe('COOKIE_SECURE', () => {
  it('auto: Secure only when the request arrived over https as the server sees it, with one warning', async () => {
    const { app, lines } = await startLoggedApp();
    const warnings = () => lines.filter((line) => line.includes('X-Forwarded-Proto')).length;
    expect(secureFlag(await login(app))).toBe(false);
    expect(warnings()).toBe(0);
    // An untrusted peer's X-Forwarded-Proto is not believed, but it is worth telling the operator once.
    expect(secureFlag(await login(app, https))).toBe(false);
    expect(secureFlag(await login(app, https))).toBe(false);
    expect(warnings()).toBe(1);
    expect(lines.find((line) => line.includes('X-Forwarded-Proto'))).toContain('COOKIE_SECURE');

    const trusted = await startLoggedApp({ TRUST_PROXY: 'true' });
    expect(secureFlag(await login(trusted.app, https))).toBe(true);
    expect(secureFlag(await login(trusted.app))).toBe(false);
  });

  it('true: always Secure; false: never, even behind a trusted https proxy', async () => {
    const always = await startLoggedApp({ COOKIE_SECURE: 'true' });
    expect(secureFlag(await login(always.app))).toBe(true);
    const never = await startLoggedApp({ COOKIE_SECURE: 'false', TRUST_PROXY: 'true' });
    expect(secureFlag(await login(never.app, https))).toBe(false);
    expect(never.lines.some((line) => line.includes('X-Forwarded-Proto'))).toBe(false);
  });

  it('refuses a value other than auto, true or false', () => {
    expect(() => loadConfig({ COOKIE_SECURE: 'yes', SESSION_SECRET: 'test-session-secret-0123456789' })).toThrow(
      /COOKIE_SECURE: must be auto, true or false/,
    );
  });
});

describe('what the server keeps private', () => {
  it('masks e-mail addresses in logged URLs', async () => {
    const { app, lines } = await startLoggedApp();
    await app.inject({ method: 'GET', url: '/api/verification?email=alice.smith%40example.com' });
    await app.inject({ method: 'GET', url: '/api/reset_password?email=bob@example.org' });
    const log = lines.join('\n');
    expect(log).toContain('/api/verification?email=a***%40example.com');
    expect(log).toContain('/api/reset_password?email=b***@example.org');
    expect(log).not.toContain('alice.smith');
    expect(log).not.toMatch(/bob@/);
  });

  it('creates the SQLite database and its -wal/-shm files readable by the owner only', async () => {
    const { app, directory } = await startLoggedApp();
    expect((await login(app)).statusCode).toBe(200);
    for (const file of ['one-hub.db', 'one-hub.db-wal', 'one-hub.db-shm']) {
      expect((statSync(join(directory, file)).mode & 0o777).toString(8)).toBe('600');
    }
  });

  it('narrows a database file an older version created 0644', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'one-hub-'));
    closeSync(openSync(join(directory, 'one-hub.db'), 'w', 0o644));
    await startLoggedApp({}, directory);
    expect((statSync(join(directory, 'one-hub.db')).mode & 0o777).toString(8)).toBe('600');
  });
});
