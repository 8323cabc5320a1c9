import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { type MockUpstream, startMockUpstream } from '../../../test/mocks/openai-upstream.js';
import { relayInject } from '../../../test/relay-inject.js';
import { type AssembledServer, assembleServer } from '../../assemble.js';
import { loadConfig } from '../../config.js';
import { providerType } from '../../domain/channel-types/registry.js';
import { createLogger } from '../../platform/logger.js';

const redisUrl = process.env.TEST_REDIS_URL;
const ROOT_TOKEN = 'cooldown-root-access-token-0123456789';

// Two processes share cooldowns and channel health through Redis; without TEST_REDIS_URL there is nothing to share through.
describe.skipIf(!redisUrl)('what one node learns of a channel holds on the other', () => {
  let testDatabase: TestDatabase;
  let nodes: [AssembledServer, AssembledServer];
  let limited: MockUpstream;
  let backup: MockUpstream;
  let key: string;

  const admin = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object) =>
    nodes[0].app.inject({ method, url, headers: { authorization: ROOT_TOKEN }, ...(payload ? { payload } : {}) });
  const ask = async (node: AssembledServer, model = 'gpt-4o-mini') => {
    const answer = await relayInject(node.app, {
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}` },
      payload: { model, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const { choices } = answer.json() as { choices: Array<{ message: { content: string } }> };
    return String(choices[0]?.message.content);
  };

  beforeAll(async () => {
    testDatabase = await createTestDatabase('sqlite');
    const config = loadConfig({
      SQLITE_PATH: testDatabase.target.sqlitePath,
      REDIS_CONN_STRING: redisUrl,
      SESSION_SECRET: 'shared-session-secret-0123456789',
      INITIAL_ROOT_PASSWORD: 'root-password-123',
      INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
      LOG_LEVEL: 'silent',
    });
    const consoleDirectory = join(mkdtempSync(join(tmpdir(), 'one-hub-cooldowns-')), 'none');
    const assemble = () => assembleServer(config, createLogger('silent'), { consoleDirectory });
    nodes = [await assemble(), await assemble()];
    limited = await startMockUpstream({ reply: 'from the limited channel' });
    backup = await startMockUpstream({ reply: 'from the backup' });
    // The limited channel also serves health-model, which the backup serves too.
    for (const [name, upstream, priority, models] of [
      ['limited', limited, 10, 'gpt-4o-mini,health-model'],
      ['backup', backup, 0, 'gpt-4o-mini,health-model'],
    ] as const) {
      const created = await admin('POST', '/api/channel/', {
        name,
        type: providerType('openai'),
        key: upstream.behaviour.apiKey,
        base_url: upstream.url,
        models,
        group: 'default',
        priority,
      });
      expect(created.statusCode, created.body).toBe(200);
    }
    await admin('POST', '/api/user/quota/1', { quota: 10_000_000 });
    key = (
      await admin('POST', '/api/token/', { name: 'k', expired_time: -1, remain_quota: 0, unlimited_quota: true })
    ).json().data.key;
    await nodes[0].services.options.update('RetryTimes', '1');
    // Long enough that no rest ends while the test runs.
    await nodes[0].services.options.update('RetryCooldownSeconds', '600');
  });
  afterAll(async () => {
    for (const node of nodes ?? []) await node.close();
    await limited?.close();
    await backup?.close();
    await testDatabase?.drop();
  });

  it('sends the other node to the backup without it calling the limited channel', async () => {
    const [first, second] = nodes;
    // The second node learns of the channels and settings through Redis; wait until it has.
    await expect.poll(() => second.services.options.getNumber('RetryCooldownSeconds')).toBe(600);
    await expect.poll(() => ask(second)).toBe('from the limited channel');
    // Registered after the router's own listener, so when this hears the notice the router has it.
    const heard: Array<{ channelId: number; until: number }> = [];
    second.services.changes.on('cooldowns', (notice, origin) => {
      if (origin === 'remote') heard.push(notice);
    });
    limited.behaviour.failWith = { status: 429, message: 'Rate limit reached', type: 'rate_limit_error' };
    const failedAt = Date.now();
    expect(await ask(first)).toBe('from the backup');
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]?.until).toBeGreaterThanOrEqual(failedAt + 600_000);

    // Healthy again, but resting on both nodes: neither calls it.
    limited.behaviour.failWith = undefined;
    const calls = limited.received.length;
    expect(await ask(second)).toBe('from the backup');
    expect(await ask(first)).toBe('from the backup');
    expect(limited.received.length).toBe(calls);
  });

  it('opens a channel failing with 500s on the other node too, which then calls it no more', async () => {
    const [first, second] = nodes;
    await nodes[0].services.options.update('ChannelHealthMinSamples', '2');
    await expect.poll(() => second.services.options.getNumber('ChannelHealthMinSamples')).toBe(2);
    const heard: Array<{ channelId: number; model: string; state: string }> = [];
    second.services.changes.on('health', (notice, origin) => {
      if (origin === 'remote') heard.push(notice);
    });
    limited.behaviour.failWith = { status: 500, message: 'upstream exploded', type: 'server_error' };
    // Each request fails on the limited channel first and is answered by the backup.
    expect(await ask(first, 'health-model')).toBe('from the backup');
    expect(await ask(first, 'health-model')).toBe('from the backup');
    await expect.poll(() => heard.filter((notice) => notice.state === 'open').length).toBe(2);
    expect(heard.map((notice) => notice.model).sort()).toEqual(['', 'health-model']);

    // The second node never saw it fail, and still sends nothing its way.
    const calls = limited.received.length;
    expect(await ask(second, 'health-model')).toBe('from the backup');
    expect(await ask(second, 'health-model')).toBe('from the backup');
    expect(limited.received.length).toBe(calls);
    expect(second.app.relay.router.health.status(1, 'health-model')).toBe('open');
  });

  it('closes the channel on both nodes once trials on one succeed after the cool-off, with no administrator', async () => {
    const [first, second] = nodes;
    limited.behaviour.failWith = undefined;
    // Past the cool-off on both nodes' health clocks; every request that meets the channel tries it.
    const later = Date.now() + 31_000;
    for (const node of nodes) node.app.relay.router.health.clock = () => later;
    await nodes[0].services.options.update('ChannelHealthTrialPercent', '100');
    await expect.poll(() => second.services.options.getNumber('ChannelHealthTrialPercent')).toBe(100);
    expect(first.app.relay.router.health.status(1, 'health-model')).toBe('half_open');
    const heard: Array<{ model: string; state: string }> = [];
    first.services.changes.on('health', (notice, origin) => {
      if (origin === 'remote') heard.push(notice);
    });
    // Three trial successes on the second node close it there and tell the first.
    for (let index = 0; index < 3; index++) expect(await ask(second, 'health-model')).toBe('from the limited channel');
    await expect.poll(() => heard.filter((notice) => notice.state === 'closed').length).toBe(2);
    expect(first.app.relay.router.health.status(1, 'health-model')).toBe('healthy');
    expect(await ask(first, 'health-model')).toBe('from the limited channel');
  });

  it("routes by a strategy set through the other node, and each node's log row names it", async () => {
    const [first, second] = nodes;
    const groups = (await admin('GET', '/api/user_group/?name=')).json().data.data as Array<Record<string, unknown>>;
    const group = groups.find((entry) => entry.symbol === 'default');
    const saved = await admin('PUT', '/api/user_group/', { ...group, routing_strategy: 'least_in_flight' });
    expect(saved.statusCode, saved.body).toBe(200);
    // Each node's latest consume row, after one more request through it.
    const routedBy = async (node: AssembledServer) => {
      await ask(node, 'health-model');
      await node.app.relay.flush();
      const row = await node.services.database.db
        .selectFrom('logs')
        .select('metadata')
        .where('type', '=', 2)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      return JSON.parse(row.metadata).route.strategy as string;
    };
    // The second node hears of the change through Redis.
    await expect.poll(() => routedBy(second)).toBe('least_in_flight');
    expect(await routedBy(first)).toBe('least_in_flight');
  });
});
