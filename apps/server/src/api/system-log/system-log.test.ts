import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SystemLogEntry } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, sessionCookie } from '../../../test/app.js';
import { assembleServer } from '../../assemble.js';
import { loadConfig } from '../../config.js';
import { createMemoryCache } from '../../platform/cache/index.js';
import { createLogger, type Logger, SYSTEM_LOG_CAPACITY, SYSTEM_LOG_LINE_LIMIT } from '../../platform/logger.js';

/** A server whose logger prints at `level` into `printed` (standing in for stdout). */
async function startServer(level: string) {
  const directory = mkdtempSync(join(tmpdir(), 'one-hub-system-log-'));
  const printed: string[] = [];
  const config = loadConfig({
    SQLITE_PATH: join(directory, 'one-hub.db'),
    SESSION_SECRET: 'test-session-secret-0123456789',
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    LOG_LEVEL: level,
    CRITICAL_RATE_LIMIT: '100000',
  });
  const logger = createLogger(level, { write: (line: string) => void printed.push(line) });
  const server = await assembleServer(config, logger, {
    cache: createMemoryCache(),
    consoleDirectory: join(directory, 'no-console'),
  });
  await server.app.ready();
  return {
    app: server.app,
    logger,
    printed,
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

async function signIn(app: FastifyInstance, username: string, password: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password } });
  expect(response.statusCode).toBe(200);
  return sessionCookie(response);
}

const readLog = (app: FastifyInstance, cookie: string, payload: unknown, url = '/api/system_info/log') =>
  app.inject({ method: 'POST', url, headers: { cookie }, payload: payload as Record<string, unknown> });

async function entries(app: FastifyInstance, cookie: string, count: number): Promise<SystemLogEntry[]> {
  const response = await readLog(app, cookie, { count });
  expect(response.statusCode).toBe(200);
  return (response.json() as { data: SystemLogEntry[] }).data;
}

describe('system log viewer (POST /api/system_info/log)', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let logger: Logger;
  let root: string;
  beforeAll(async () => {
    server = await startServer('info');
    logger = server.logger;
    root = await signIn(server.app, 'root', ROOT_PASSWORD);
  });
  afterAll(async () => server?.close());

  it('gives root the last lines, oldest first, in the reference shape, on both paths', async () => {
    logger.warn({ channel_id: 7 }, 'viewer probe one');
    logger.error('viewer probe two');
    for (const url of ['/api/system_info/log', '/api/option/system_info/log']) {
      const response = await readLog(server.app, root, { count: 2 }, url);
      expect(response.statusCode).toBe(200);
      const body = response.json() as { success: boolean; data: SystemLogEntry[] };
      expect(body.success).toBe(true);
      expect(body.data.map((entry) => [entry.Level, entry.Message])).toEqual([
        ['warn', 'viewer probe one {"channel_id":7}'],
        ['error', 'viewer probe two'],
      ]);
      for (const entry of body.data) {
        expect(Object.keys(entry).sort()).toEqual(['Level', 'Message', 'Timestamp']);
        expect(new Date(entry.Timestamp).toISOString()).toBe(entry.Timestamp);
      }
    }
    // What the server logged while starting is there too.
    const all = await entries(server.app, root, 999);
    expect(all.some((entry) => entry.Message.startsWith('database ready'))).toBe(true);
  });

  it('keeps credentials out of the lines it serves', async () => {
    const secrets = [
      'channel-key-0001',
      'pass-word-0002',
      'token-value-0003',
      'authorization-0004',
      'cookie-value-0005',
      'access-token-0006',
      'deep-api-key-0007',
      'client-secret-0008',
      'sk-relaykey0009abcdef',
      'bearer-in-text-0010',
      'pw-in-text-0011',
      'query-key-0012',
      'dsn-pass-0013',
      'AIzaSyA-google-key-000000014',
    ];
    logger.info(
      {
        channel: { id: 3, key: secrets[0], base_url: `https://api.example.com/v1?key=${secrets[11]}` },
        password: secrets[1],
        token: secrets[2],
        headers: { authorization: `Bearer ${secrets[3]}`, cookie: `session=${secrets[4]}` },
        user: { access_token: secrets[5], username: 'visible-name' },
        nested: { deeper: { deepest: { apiKey: secrets[6], client_secret: secrets[7] } } },
        database: `postgres://onehub:${secrets[12]}@db.internal:5432/onehub`,
        keys: [secrets[13]],
        usage: { prompt_tokens: 12, completion_tokens: 34 },
      },
      `upstream refused ${secrets[8]} with Bearer ${secrets[9]} and password=${secrets[10]}`,
    );
    logger.error({ err: new Error(`Incorrect API key provided: ${secrets[8]}`) }, 'relay failed');

    const response = await readLog(server.app, root, { count: 2 });
    expect(response.statusCode).toBe(200);
    for (const secret of secrets) expect(response.body).not.toContain(secret);
    // The rest of the line stays readable.
    const [first, second] = (response.json() as { data: SystemLogEntry[] }).data;
    expect(first?.Message).toMatch(/^upstream refused sk-\*\*\* with Bearer \*\*\* and password=\*\*\* /);
    expect(first?.Message).toContain('"username":"visible-name"');
    expect(first?.Message).toContain('"prompt_tokens":12');
    expect(first?.Message).toContain('db.internal');
    expect(second?.Message).toContain('Incorrect API key provided: sk-***');
  });

  it('holds a bounded number of lines, each of bounded length', async () => {
    const total = SYSTEM_LOG_CAPACITY * 2 + 500;
    for (let index = 1; index <= total; index += 1) logger.info(`bulk line ${index}`);
    const kept = await entries(server.app, root, SYSTEM_LOG_CAPACITY * 10);
    expect(kept).toHaveLength(SYSTEM_LOG_CAPACITY);
    expect(kept[0]?.Message).toBe(`bulk line ${total - SYSTEM_LOG_CAPACITY + 1}`);
    expect(kept.at(-1)?.Message).toBe(`bulk line ${total}`);
    expect((await entries(server.app, root, 3)).map((entry) => entry.Message)).toEqual([
      `bulk line ${total - 2}`,
      `bulk line ${total - 1}`,
      `bulk line ${total}`,
    ]);

    logger.info({ body: 'x'.repeat(100_000) }, 'a very long line');
    const [long] = await entries(server.app, root, 1);
    expect(long?.Message.startsWith('a very long line')).toBe(true);
    expect(long?.Message.length).toBe(SYSTEM_LOG_LINE_LIMIT);
  });

  it('is for root only', async () => {
    const register = await server.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { username: 'plainuser', password: 'password-123' },
    });
    expect(register.statusCode).toBe(200);
    const user = await signIn(server.app, 'plainuser', 'password-123');
    const promote = await server.app.inject({
      method: 'POST',
      url: '/api/user/manage',
      headers: { cookie: root },
      payload: { username: 'plainuser', action: 'promote' },
    });
    expect(promote.statusCode).toBe(200);
    for (const url of ['/api/system_info/log', '/api/option/system_info/log']) {
      const asAdmin = await readLog(server.app, user, { count: 10 }, url);
      expect(asAdmin.statusCode).toBe(403);
      expect(asAdmin.body).not.toContain('bulk line');
      const anonymous = await server.app.inject({ method: 'POST', url, payload: { count: 10 } });
      expect(anonymous.statusCode).toBe(401);
    }
  });

  it('names a bad count with a 400', async () => {
    for (const payload of [{}, { count: 0 }, { count: -5 }, { count: 2.5 }, { count: '10' }, { count: null }]) {
      const response = await readLog(server.app, root, payload);
      expect(response.statusCode).toBe(400);
      expect((response.json() as { message: string }).message).toContain('count');
    }
  });
});

describe('system log level', () => {
  it('captures what the configured level lets through, no more', async () => {
    const server = await startServer('warn');
    try {
      const root = await signIn(server.app, 'root', ROOT_PASSWORD);
      server.logger.info('quiet info line');
      server.logger.warn('loud warn line');
      const messages = (await entries(server.app, root, SYSTEM_LOG_CAPACITY)).map((entry) => entry.Message);
      expect(messages).toContain('loud warn line');
      expect(messages).not.toContain('quiet info line');
      // The printed output and the buffer see the same lines.
      expect(server.printed.some((line) => line.includes('loud warn line'))).toBe(true);
      expect(server.printed.some((line) => line.includes('quiet info line'))).toBe(false);
    } finally {
      await server.close();
    }
  });
});
