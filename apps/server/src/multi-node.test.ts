import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.js';
import { type AssembledServer, assembleServer } from './assemble.js';
import { loadConfig } from './config.js';
import { createLogger } from './platform/logger.js';

const redisUrl = process.env.TEST_REDIS_URL;

// Two nodes need a shared Redis; without TEST_REDIS_URL there is nothing to share through.
describe.skipIf(!redisUrl)('two nodes sharing one database and Redis', () => {
  let testDatabase: TestDatabase;
  let nodes: AssembledServer[];
  // A fresh address per run, so counters left in the shared Redis by earlier runs do not count.
  const randomIp = () =>
    `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const clientIp = randomIp();

  beforeAll(async () => {
    testDatabase = await createTestDatabase('sqlite');
    const config = loadConfig({
      SQLITE_PATH: testDatabase.target.sqlitePath,
      REDIS_CONN_STRING: redisUrl,
      SESSION_SECRET: 'shared-session-secret-0123456789',
      INITIAL_ROOT_PASSWORD: 'root-password-123',
      CRITICAL_RATE_LIMIT: '3',
      LOG_LEVEL: 'silent',
    });
    const consoleDirectory = join(mkdtempSync(join(tmpdir(), 'one-hub-nodes-')), 'none');
    nodes = [];
    for (let index = 0; index < 2; index++) {
      nodes.push(await assembleServer(config, createLogger('silent'), { consoleDirectory }));
    }
  });
  afterAll(async () => {
    for (const node of nodes ?? []) await node.close();
    await testDatabase?.drop();
  });

  const attempt = (node: AssembledServer) =>
    node.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: clientIp,
      payload: { username: 'root', password: 'wrong-password' },
    });

  it('counts sign-in attempts across nodes', async () => {
    const [first, second] = nodes as [AssembledServer, AssembledServer];
    const statuses = [
      (await attempt(first)).statusCode,
      (await attempt(second)).statusCode,
      (await attempt(first)).statusCode,
      (await attempt(second)).statusCode,
    ];
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('accepts a session cookie issued by the other node', async () => {
    const [first, second] = nodes as [AssembledServer, AssembledServer];
    const login = await first.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: randomIp(),
      payload: { username: 'root', password: 'root-password-123' },
    });
    expect(login.statusCode).toBe(200);
    const cookie = login.cookies.find((entry) => entry.name === 'session');
    const self = await second.app.inject({
      method: 'GET',
      url: '/api/user/self',
      cookies: { session: cookie?.value ?? '' },
    });
    expect(self.statusCode).toBe(200);
  });

  it('reloads a changed setting on the other node', async () => {
    const [first, second] = nodes as [AssembledServer, AssembledServer];
    await first.services.options.update('SystemName', 'Changed on node one');
    await expect
      .poll(async () => (await second.app.inject({ method: 'GET', url: '/api/status' })).json().data.system_name)
      .toBe('Changed on node one');
  });
});
