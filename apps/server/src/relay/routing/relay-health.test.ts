import type { ChannelHealthHistory, ChannelHealthView, RouteExplanation } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from '../../../test/mocks/openai-upstream.js';
import { lastConsumeLog, type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';

/**
 * Three mock channels of one priority tier driven through failure scripts (500s, timeouts,
 * recovery): where the traffic goes, with no administrator acting. The health's clock is the
 * test's, so a cool-off passes without waiting.
 */

const MIN_SAMPLES = 3;

describe('channel health on one node', () => {
  let r: RelayTestContext;
  let second: MockUpstream;
  let slow: MockUpstream;
  let secondId: number;
  let slowId: number;
  const firstId = 1;
  const clock = { now: Date.now() };

  const ask = () =>
    fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
  const askMany = async (count: number) => {
    for (let index = 0; index < count; index++) expect((await ask()).status).toBe(200);
  };
  const healthOf = async (id: number) => {
    const response = await r.admin('GET', '/api/channel/health');
    return (response.body.data as ChannelHealthView[]).find((view) => view.channel_id === id);
  };

  const lastRoute = async () => JSON.parse((await lastConsumeLog(r)).metadata).route as RouteExplanation;

  beforeAll(async () => {
    // The slow channel's answers come after the answer timeout (whole answers) and the first-byte one (streams).
    r = await startRelayTest({ env: { UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '1000', UPSTREAM_ANSWER_TIMEOUT_MS: '1000' } });
    second = await startMockUpstream({ reply: 'from the second' });
    slow = await startMockUpstream({ reply: 'from the slow one' });
    secondId = await r.addChannel({ name: 'second', base_url: second.url, key: second.behaviour.apiKey, priority: 5 });
    slowId = await r.addChannel({ name: 'slow', base_url: slow.url, key: slow.behaviour.apiKey, priority: 5 });
    for (const [option, value] of [
      ['RetryTimes', '2'],
      // Timeouts would otherwise rest the channel (the cooldown) before its health saw enough of them.
      ['RetryCooldownSeconds', '0'],
      ['ChannelHealthMinSamples', String(MIN_SAMPLES)],
      // Every request here is the same conversation: cache affinity would keep it off the failing
      // channel once it failed (relay-affinity.test.ts), so health would never see it fail again.
      ['CacheAffinitySeconds', '0'],
    ] as const) {
      await r.t.services.options.update(option, value);
    }
    // Hundreds of requests in a few seconds, past the default group's 600 per minute (a bucket of
    // 100): the rate limit is not what this file tests.
    const groups = await r.admin('GET', '/api/user_group/?name=');
    const group = (groups.body.data as { data: Array<{ symbol: string }> }).data.find(
      ({ symbol }) => symbol === 'default',
    );
    expect((await r.admin('PUT', '/api/user_group/', { ...group, api_rate: 0 })).status).toBe(200);
    r.t.app.relay.router.health.clock = () => clock.now;
  });
  afterAll(async () => {
    await r?.close();
    await second?.close();
    await slow?.close();
  });

  it('stops sending first attempts to a channel answering 500s within a few requests', async () => {
    r.upstream.behaviour.failWith = { status: 500, message: 'upstream exploded' };
    const before = r.upstream.received.length;
    await askMany(20);
    // It failed its minimum samples and was opened: no call after that.
    expect(r.upstream.received.length - before).toBeLessThanOrEqual(MIN_SAMPLES);
    expect(await healthOf(firstId)).toMatchObject({ state: 'open', last_error: { class: '5xx' } });
    const calls = r.upstream.received.length;
    await askMany(10);
    expect(r.upstream.received.length).toBe(calls);
  });

  it("charts the failing channel's last hour by minute, with its opening", async () => {
    const response = await r.admin('GET', `/api/channel/health/${firstId}`);
    expect(response.status).toBe(200);
    const history = response.body.data as ChannelHealthHistory;
    expect(history.minutes).toHaveLength(60);
    const failures = history.minutes.reduce((sum, minute) => sum + minute.failures, 0);
    expect(failures).toBeGreaterThanOrEqual(MIN_SAMPLES);
    expect(history.changes.at(-1)).toMatchObject({ state: 'open' });
    expect((await r.admin('GET', '/api/channel/health/9999')).status).toBe(404);
    expect((await r.admin('GET', '/api/channel/health/first')).status).toBe(400);
  });

  it('gives a recovered channel its share back after the cool-off, with no administrator', async () => {
    r.upstream.behaviour.failWith = undefined;
    await r.t.services.options.update('ChannelHealthTrialPercent', '50');
    clock.now += 30_000;
    expect((await healthOf(firstId))?.state).toBe('half_open');
    // Trials succeed until it closes; each request is answered whoever serves it.
    for (let index = 0; index < 300 && (await healthOf(firstId))?.state !== 'healthy'; index++) await askMany(1);
    expect((await healthOf(firstId))?.state).toBe('healthy');
    const calls = r.upstream.received.length;
    await askMany(30);
    expect(r.upstream.received.length).toBeGreaterThan(calls);
    const channel = await r.admin('GET', `/api/channel/${firstId}`);
    expect((channel.body.data as { status: number }).status).toBe(1);
  });

  it('opens a channel that times out, and each log row explains the route', async () => {
    slow.behaviour.answerDelayMs = 3000;
    // A window later: the slow channel's earlier successes no longer count.
    clock.now += 60_000;
    for (let index = 0; index < 100 && (await healthOf(slowId))?.state !== 'open'; index++) await askMany(1);
    expect(await healthOf(slowId)).toMatchObject({ state: 'open', last_error: { class: 'timeout' } });
    await askMany(1);
    await r.t.app.relay.flush();
    const rows = await r.t.database.db
      .selectFrom('logs')
      .select(['metadata', 'id'])
      .where('type', '=', 2)
      .orderBy('id', 'desc')
      .limit(40)
      .execute();
    const routes = rows.map((row) => JSON.parse(row.metadata).route as RouteExplanation);
    // The latest request passed the open channel over, and said so.
    expect(routes[0]?.strategy).toBe('weighted');
    expect(routes[0]?.skipped).toContainEqual({ id: slowId, reason: 'open' });
    // A request that met the slow channel first: its timeout, then the channel that answered.
    const retried = routes.find((route) => route.tried[0]?.id === slowId);
    expect(retried?.tried[0]).toMatchObject({ outcome: 'timeout' });
    expect(retried?.tried[0]?.ms).toBeGreaterThanOrEqual(1000);
    expect(retried?.tried.at(-1)).toMatchObject({ outcome: 'ok' });
    expect([firstId, secondId]).toContain(retried?.tried.at(-1)?.id);
  });

  it('shows the route to administrators only', async () => {
    const admin = await r.admin('GET', '/api/log/?p=1&size=5&log_type=2');
    const adminRows = (admin.body.data as { data: Array<{ metadata: Record<string, unknown> }> }).data;
    expect(adminRows[0]?.metadata.route).toBeDefined();
    const cookie = await r.t.login('relayuser', 'password-123');
    const own = await r.t.app.inject({
      method: 'GET',
      url: '/api/log/self?p=1&size=5&log_type=2',
      headers: { cookie },
    });
    const ownRows = (own.json() as { data: { data: Array<{ metadata: Record<string, unknown> }> } }).data.data;
    expect(ownRows.length).toBeGreaterThan(0);
    for (const row of ownRows) expect(row.metadata.route).toBeUndefined();
  });

  it("routes by the group's balancing strategy and records it", async () => {
    const group = (await r.admin('GET', '/api/user_group/1')).body.data as Record<string, unknown>;
    const { id, name, ratio, api_rate } = group;
    const saved = await r.admin('PUT', '/api/user_group/', { id, name, ratio, api_rate, routing_strategy: 'latency' });
    expect(saved.status).toBe(200);
    // The relay reloads groups on the change notice; each poll sends one more request.
    const routed = async () => {
      await askMany(1);
      return lastRoute();
    };
    await expect.poll(routed).toMatchObject({ strategy: 'latency' });
  });

  it("routes a tier by the strategy all its channels name (a tag's) instead of the group's", async () => {
    for (const id of [firstId, secondId, slowId]) {
      const saved = await r.admin('PUT', '/api/channel/', { id, routing_strategy: 'least_in_flight' });
      expect(saved.status).toBe(200);
    }
    const routed = async () => {
      await askMany(1);
      const route = await lastRoute();
      return route;
    };
    await expect.poll(routed).toMatchObject({ strategy: 'least_in_flight' });
  });
});
