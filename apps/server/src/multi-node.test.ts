import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/databases.js';
import { startMockUpstream } from '../test/mocks/openai-upstream.js';
import { relayInject } from '../test/relay-inject.js';
import { createTestChannel } from '../test/test-channel.js';
import { type AssembledServer, assembleServer } from './assemble.js';
import { loadConfig } from './config.js';
import { providerType } from './domain/channel-types/registry.js';
import { sha256Hex } from './platform/crypto.js';
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

  it('shares one balance: parallel requests on both nodes never spend more than it', async () => {
    const [first, second] = nodes as [AssembledServer, AssembledServer];
    const upstream = await startMockUpstream();
    try {
      const rootToken = 'shared-root-token-0123456789';
      await first.services.userRepository.update(1, { access_token_hash: sha256Hex(rootToken) });
      const call = (method: 'POST' | 'PUT' | 'GET' | 'DELETE', url: string, payload?: object) =>
        first.app.inject({ method, url, headers: { authorization: rootToken }, ...(payload ? { payload } : {}) });
      expect((await createTestChannel(upstream, (path, body) => call('POST', path, body))).statusCode).toBe(200);
      // The built-in price list has gpt-4o-mini; replace it with round numbers for the arithmetic below.
      await call('DELETE', '/api/prices/single/gpt-4o-mini');
      const price = await call('POST', '/api/prices/single', {
        model: 'gpt-4o-mini',
        type: 'tokens',
        channel_type: providerType('openai'),
        input: 1,
        output: 2,
        locked: false,
      });
      expect(price.statusCode).toBe(200);
      const groups = (await call('GET', '/api/user_group/')).json().data.data as Array<{ symbol: string }>;
      await call('PUT', '/api/user_group/', { ...groups.find((group) => group.symbol === 'default'), api_rate: 0 });
      const quota = 5000;
      await call('POST', '/api/user/quota/1', { quota });
      const key = (
        await call('POST', '/api/token/', { name: 'k', expired_time: -1, remain_quota: 0, unlimited_quota: true })
      ).json().data.key as string;
      for (const node of nodes) await node.app.listen({ port: 0, host: '127.0.0.1' });
      const clients = nodes.map(
        (node) =>
          new OpenAI({
            apiKey: key,
            baseURL: `http://127.0.0.1:${(node.app.server.address() as AddressInfo).port}/v1`,
            maxRetries: 0,
          }),
      );
      // The other node learns of the new price and channel through Redis; wait until it has.
      await expect.poll(() => second.services.prices.lookup('gpt-4o-mini').input).toBe(1);
      await expect
        .poll(async () => (await clients[1]?.models.list())?.data.map((model) => model.id))
        .toEqual(['gpt-4o-mini']);
      await Promise.all([first.app.relay.flush(), second.app.relay.flush()]);
      const before = Number((await first.services.userRepository.findById(1))?.quota);
      const results = await Promise.allSettled(
        Array.from({ length: 60 }, (_, index) =>
          (clients[index % 2] as OpenAI).chat.completions.create({
            model: 'gpt-4o-mini',
            messages: [{ role: 'user', content: 'hi' }],
          }),
        ),
      );
      const succeeded = results.filter((result) => result.status === 'fulfilled').length;
      expect(succeeded).toBeGreaterThan(0);
      expect(upstream.received.length).toBe(succeeded);
      // Settlement follows the answer (one Redis round trip later), so flush until the books close.
      const stored = async () => {
        await first.app.relay.flush();
        await second.app.relay.flush();
        return Number((await first.services.userRepository.findById(1))?.quota);
      };
      // 12 prompt + 7 completion tokens at 1 / 2 = 26 per request, each charged exactly once.
      await expect.poll(stored).toBe(before - succeeded * 26);
      expect(await stored()).toBeGreaterThanOrEqual(0);
    } finally {
      await upstream.close();
    }
  });

  it('stops a key on the other node the moment it is disabled', async () => {
    const [first, second] = nodes as [AssembledServer, AssembledServer];
    const rootToken = 'shared-root-token-0123456789';
    await first.services.userRepository.update(1, { access_token_hash: sha256Hex(rootToken) });
    const call = (method: 'POST' | 'PUT', url: string, payload: object) =>
      first.app.inject({ method, url, headers: { authorization: rootToken }, payload });
    const created = (
      await call('POST', '/api/token/', {
        name: 'short-lived',
        expired_time: -1,
        remain_quota: 0,
        unlimited_quota: true,
      })
    ).json().data as { id: number; key: string };
    const listModels = () =>
      relayInject(second.app, {
        method: 'GET',
        url: '/v1/models',
        headers: { authorization: `Bearer ${created.key}` },
      });
    // The second node now holds the key in its cache (kept for ten seconds).
    expect((await listModels()).statusCode).toBe(200);
    expect((await call('PUT', '/api/token/?status_only=1', { id: created.id, status: 2 })).statusCode).toBe(200);
    await expect.poll(async () => (await listModels()).statusCode, { timeout: 2000 }).toBe(401);
  });

  it('reloads a changed setting on the other node', async () => {
    const [first, second] = nodes as [AssembledServer, AssembledServer];
    await first.services.options.update('SystemName', 'Changed on node one');
    await expect
      .poll(async () => (await second.app.inject({ method: 'GET', url: '/api/status' })).json().data.system_name)
      .toBe('Changed on node one');
  });

  it('keeps another installation on the same Redis apart: its own sign-in counters and settings', async () => {
    const [first, second] = nodes as [AssembledServer, AssembledServer];
    const otherDatabase = await createTestDatabase('sqlite');
    const other = await assembleServer(
      loadConfig({
        SQLITE_PATH: otherDatabase.target.sqlitePath,
        REDIS_CONN_STRING: redisUrl,
        SESSION_SECRET: 'other-session-secret-0123456789',
        INITIAL_ROOT_PASSWORD: 'root-password-123',
        CRITICAL_RATE_LIMIT: '3',
        LOG_LEVEL: 'silent',
      }),
      createLogger('silent'),
      { consoleDirectory: join(mkdtempSync(join(tmpdir(), 'one-hub-other-')), 'none') },
    );
    try {
      // The first installation's nodes have used up this address's attempts; here it starts afresh.
      expect((await attempt(first)).statusCode).toBe(429);
      expect((await attempt(other)).statusCode).toBe(401);
      await first.services.options.update('SystemName', 'Only for the first installation');
      await expect
        .poll(async () => (await second.app.inject({ method: 'GET', url: '/api/status' })).json().data.system_name)
        .toBe('Only for the first installation');
      expect((await other.app.inject({ method: 'GET', url: '/api/status' })).json().data.system_name).toBe('One Hub');
    } finally {
      await other.close();
      await otherDatabase.drop();
    }
  });
});
