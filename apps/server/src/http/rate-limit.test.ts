import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../test/databases.js';
import { type AssembledServer, assembleServer } from '../assemble.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../platform/logger.js';

/** A fresh client address per test, so counts of one test (or an earlier run on a shared Redis) never leak into another. */
let addresses = 0;
const newAddress = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${++addresses}`;

function builtConsole(): string {
  const directory = mkdtempSync(join(tmpdir(), 'one-hub-console-'));
  writeFileSync(join(directory, 'index.html'), '<!doctype html><html><head></head><body>console</body></html>');
  return directory;
}

describe('per-address limits on /api and the console (reference §0.1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { GLOBAL_API_RATE_LIMIT: '3', GLOBAL_WEB_RATE_LIMIT: '2', GLOBAL_RATE_WINDOW_SECONDS: '180' },
      consoleDirectory: builtConsole(),
    });
  });
  afterAll(async () => t?.close());

  const get = (url: string, remoteAddress: string) => t.app.inject({ method: 'GET', url, remoteAddress });

  it('answers the API request past the limit with 429, Retry-After and a JSON error naming the wait', async () => {
    const address = newAddress();
    for (let count = 0; count < 3; count++) expect((await get('/api/status', address)).statusCode).toBe(200);
    const refused = await get('/api/status', address);
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(180);
    expect(refused.json()).toMatchObject({ success: false, message: expect.stringContaining(`${wait} seconds`) });
    // Another address is counted on its own.
    expect((await get('/api/status', newAddress())).statusCode).toBe(200);
  });

  it('counts console pages apart from API calls, and limits them too', async () => {
    const address = newAddress();
    expect((await get('/', address)).statusCode).toBe(200);
    expect((await get('/panel/log', address)).statusCode).toBe(200);
    const refused = await get('/panel/dashboard', address);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The same address still has its API allowance.
    expect((await get('/api/status', address)).statusCode).toBe(200);
  });

  it('leaves the metrics scrape out of the API limit', async () => {
    const address = newAddress();
    for (let count = 0; count < 5; count++) expect((await get('/api/metrics', address)).statusCode).not.toBe(429);
  });
});

describe('the limits off', () => {
  it('never refuses when set to 0', async () => {
    const t = await startTestApp({ env: { GLOBAL_API_RATE_LIMIT: '0', GLOBAL_WEB_RATE_LIMIT: '0' } });
    try {
      const address = newAddress();
      for (let count = 0; count < 20; count++) {
        expect((await t.app.inject({ method: 'GET', url: '/api/status', remoteAddress: address })).statusCode).toBe(
          200,
        );
      }
    } finally {
      await t.close();
    }
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('the API limit shared by two nodes through Redis', () => {
  let database: TestDatabase;
  let nodes: AssembledServer[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    const config = loadConfig({
      SQLITE_PATH: database.target.sqlitePath,
      REDIS_CONN_STRING: redisUrl,
      SESSION_SECRET: 'rate-limit-session-secret-0123456789',
      INITIAL_ROOT_PASSWORD: 'root-password-123',
      GLOBAL_API_RATE_LIMIT: '4',
      LOG_LEVEL: 'silent',
    });
    const consoleDirectory = join(mkdtempSync(join(tmpdir(), 'one-hub-nodes-')), 'none');
    for (let index = 0; index < 2; index++) {
      nodes.push(await assembleServer(config, createLogger('silent'), { consoleDirectory }));
    }
  });
  afterAll(async () => {
    for (const node of nodes) await node.close();
    nodes = [];
    await database?.drop();
  });

  it('refuses the fifth request of an address whichever node the requests reached', async () => {
    const address = newAddress();
    const statuses: number[] = [];
    for (let count = 0; count < 5; count++) {
      const node = nodes[count % 2] as AssembledServer;
      statuses.push((await node.app.inject({ method: 'GET', url: '/api/status', remoteAddress: address })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
