import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../test/app.js';
import { relayInject } from '../../test/relay-inject.js';
import { assembleServer } from '../assemble.js';
import { loadConfig } from '../config.js';
import { createMemoryCache } from '../platform/cache/index.js';
import { createLogger } from '../platform/logger.js';

/**
 * Issue 35, item 8: what One Hub's own console and scripts need of failures — HTTP 200 with the
 * envelope when the operator asks for it — and refusals the server chose logged as warnings.
 */

describe('API_ERRORS_HTTP_200=true: /api failures answer 200 with the envelope', () => {
  let t: TestApp;
  let user: { id: number; cookie: string };
  beforeAll(async () => {
    t = await startTestApp({ env: { API_ERRORS_HTTP_200: 'true' } });
    user = await t.createUser('compat-user');
  }, 60_000);
  afterAll(() => t?.close());

  it('answers a refusal, a bad body and an unknown path with 200 and success:false', async () => {
    const forbidden = await t.app.inject({ method: 'GET', url: '/api/user/?p=0', headers: { cookie: user.cookie } });
    expect(forbidden.statusCode).toBe(200);
    expect(forbidden.json()).toMatchObject({ success: false });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { cookie: user.cookie },
      payload: { name: 'x', remain_quota: 'lots' },
    });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toMatchObject({ success: false, field: 'remain_quota' });
    const unknown = await t.app.inject({ method: 'GET', url: '/api/no-such-thing', headers: { cookie: user.cookie } });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toMatchObject({ success: false });
  });

  it('keeps 401 for "not signed in" (One Hub signs out on it) and real statuses on the relay', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/user/self' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ success: false });
    const relay = await relayInject(t.app, { method: 'POST', url: '/v1/chat/completions', payload: { model: 'x' } });
    expect(relay.statusCode).toBe(401);
  });
});

describe('failures in the system log', () => {
  const directory = mkdtempSync(join(tmpdir(), 'one-hub-failure-log-'));
  const printed: string[] = [];
  let close: () => Promise<void>;
  let inject: Awaited<ReturnType<typeof assembleServer>>['app']['inject'];
  beforeAll(async () => {
    const config = loadConfig({
      SQLITE_PATH: join(directory, 'one-hub.db'),
      SESSION_SECRET: 'test-session-secret-0123456789',
      INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
      LOG_LEVEL: 'info',
      CRITICAL_RATE_LIMIT: '100000',
    });
    const logger = createLogger('info', { write: (line: string) => void printed.push(line) });
    const server = await assembleServer(config, logger, {
      cache: createMemoryCache(),
      consoleDirectory: join(directory, 'no-console'),
    });
    await server.app.ready();
    inject = server.app.inject.bind(server.app);
    close = () => server.close();
  }, 60_000);
  afterAll(async () => {
    await close?.();
    rmSync(directory, { recursive: true, force: true });
  });

  it('logs a refusal the server chose (e-mail not set up) as a warning naming it, with no stack', async () => {
    const answer = await inject({ method: 'GET', url: '/api/reset_password?email=someone%40example.com' });
    expect(answer.statusCode).toBe(503);
    const lines = printed.map((line) => JSON.parse(line) as Record<string, unknown>);
    const refused = lines.filter((line) => line.msg === 'request refused');
    expect(refused).toEqual([expect.objectContaining({ level: 40, code: 'unavailable', status: 503 })]);
    expect(String(refused[0]?.reason)).toContain('e-mail is not set up');
    expect(JSON.stringify(refused[0])).not.toContain('stack');
    expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});
