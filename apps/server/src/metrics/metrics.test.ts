import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app.js';
import { parsePrometheusText, sampleValue } from '../../test/prometheus-text.js';
import { type RelayTestContext, startRelayTest } from '../../test/relay-setup.js';
import { createMemoryCache } from '../platform/cache/index.js';
import type { Attempt } from '../relay/exchange/types.js';
import { createMetrics, MAX_MODEL_LABELS, OTHER_MODEL, UNROUTED } from './relay-metrics.js';

const USER = 'prometheus';
const PASSWORD = 'scrape-password-123';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const CHAT = '/v1/chat/completions';

describe('GET /api/metrics', () => {
  let r: RelayTestContext;
  let channel: string;
  beforeAll(async () => {
    r = await startRelayTest({ env: { METRICS_USER: USER, METRICS_PASSWORD: PASSWORD } });
    const list = await r.admin('GET', '/api/channel/?order=-id&size=1');
    channel = String((list.body.data as { data: Array<{ id: number }> }).data[0]?.id);
  });
  afterAll(() => r?.close());

  const scrape = (authorization?: string) =>
    r.t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: authorization === undefined ? {} : { authorization },
    });

  it('asks for HTTP Basic auth and refuses wrong credentials', async () => {
    const anonymous = await scrape();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect(anonymous.json()).toMatchObject({ success: false });
    expect((await scrape(basic(USER, 'wrong-password'))).statusCode).toBe(401);
    expect((await scrape(basic('someone', PASSWORD))).statusCode).toBe(401);
    expect((await scrape('Bearer scrape-password-123')).statusCode).toBe(401);
    // The secret is never echoed back.
    expect(anonymous.body).not.toContain(PASSWORD);
  });

  it('counts relay requests by route, model, channel and status, with latency, quota, failures and process metrics', async () => {
    await r.client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const stream = await r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'stream' }],
      stream: true,
    });
    for await (const _chunk of stream) {
      // read to the end
    }
    const unknown = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'no-such-model-from-a-client', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(unknown.status).toBe(404);
    r.upstream.behaviour = { ...r.upstream.behaviour, failWith: { status: 500, message: 'upstream broke' } };
    const failed = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    });
    r.upstream.behaviour = { ...r.upstream.behaviour, failWith: undefined };
    expect(failed.status).toBeGreaterThanOrEqual(500);

    const response = await scrape(basic(USER, PASSWORD));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheusText(response.body);
    const served = { route: CHAT, model: 'gpt-4o-mini', channel, status: '200' };
    expect(sampleValue(samples, 'onehub_relay_requests_total', served)).toBe(2);
    expect(sampleValue(samples, 'onehub_relay_request_duration_seconds_count', served)).toBe(2);
    expect(sampleValue(samples, 'onehub_relay_request_duration_seconds_bucket', { ...served, le: '+Inf' })).toBe(2);
    expect(sampleValue(samples, 'onehub_relay_request_duration_seconds_sum', served)).toBeGreaterThan(0);
    // A model no channel serves is the client's text: it gets no label of its own.
    expect(sampleValue(samples, 'onehub_relay_requests_total', { model: UNROUTED, channel: '', status: '404' })).toBe(
      1,
    );
    expect(response.body).not.toContain('no-such-model-from-a-client');
    expect(sampleValue(samples, 'onehub_relay_requests_total', { channel, status: String(failed.status) })).toBe(1);
    expect(sampleValue(samples, 'onehub_upstream_failures_total', { channel })).toBe(1);
    // The quota spent is what the consume logs charged.
    await r.t.app.relay.flush();
    const logs = await r.t.database.db.selectFrom('logs').select('quota').where('type', '=', 2).execute();
    const charged = logs.reduce((sum, log) => sum + Number(log.quota), 0);
    expect(charged).toBeGreaterThan(0);
    expect(sampleValue(samples, 'onehub_relay_quota_spent_total', { model: 'gpt-4o-mini', channel })).toBe(charged);
    expect(sampleValue(samples, 'onehub_relay_in_flight_requests')).toBe(0);
    expect(sampleValue(samples, 'onehub_relay_in_flight_streams')).toBe(0);
    expect(sampleValue(samples, 'onehub_log_writer_backlog_rows')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'onehub_worker_processes')).toBe(1);
    expect(sampleValue(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });
});

describe('GET /api/metrics failed Basic auth per address', () => {
  it('answers 429 after SIGN_IN_FAILURE_LIMIT failures from one address, even to the right password, until the window passes', async () => {
    let now = Date.UTC(2025, 0, 1);
    const t = await startTestApp({
      env: { METRICS_USER: USER, METRICS_PASSWORD: PASSWORD, SIGN_IN_FAILURE_LIMIT: '3' },
      cache: createMemoryCache(() => now),
    });
    const scrapeFrom = (remoteAddress: string, password: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/metrics',
        remoteAddress,
        headers: { authorization: basic(USER, password) },
      });
    try {
      for (let guess = 0; guess < 3; guess += 1) {
        expect((await scrapeFrom('127.0.0.7', `guess-${guess}`)).statusCode).toBe(401);
      }
      expect((await scrapeFrom('127.0.0.7', 'guess-3')).statusCode).toBe(429);
      const locked = await scrapeFrom('127.0.0.7', PASSWORD);
      expect(locked.statusCode).toBe(429);
      expect(locked.body).not.toContain('# TYPE');
      // Another address is counted on its own, and its success unlocks nobody else.
      expect((await scrapeFrom('127.0.0.8', 'wrong')).statusCode).toBe(401);
      expect((await scrapeFrom('127.0.0.8', PASSWORD)).statusCode).toBe(200);
      expect((await scrapeFrom('127.0.0.7', PASSWORD)).statusCode).toBe(429);
      // SIGN_IN_FAILURE_WINDOW_SECONDS (900) after the first failure, the address may try again.
      now += 900_000;
      expect((await scrapeFrom('127.0.0.7', PASSWORD)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('metrics turned off', () => {
  it('answers 404 when METRICS_USER and METRICS_PASSWORD are unset', async () => {
    const t = await startTestApp();
    try {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: { authorization: basic(USER, PASSWORD) },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toMatch(/METRICS_USER/);
    } finally {
      await t.close();
    }
  });
});

describe('the relay observer', () => {
  const attempt = (model: string, stream: boolean, channelsTried: number[], charged = 0) =>
    ({ input: { model, stream, fields: {} }, channelsTried, charged }) as unknown as Attempt;

  it('counts streams and requests in flight and reads the log backlog when scraped', async () => {
    const metrics = createMetrics();
    let backlog = 7;
    metrics.relay.watchLogBacklog(() => backlog);
    const streaming = metrics.relay.started(CHAT);
    streaming.attempt = attempt('gpt-4o-mini', true, [3]);
    const whole = metrics.relay.started(CHAT);
    whole.attempt = attempt('gpt-4o-mini', false, [3]);
    let samples = parsePrometheusText(await metrics.registry.metrics());
    expect(sampleValue(samples, 'onehub_relay_in_flight_requests')).toBe(2);
    expect(sampleValue(samples, 'onehub_relay_in_flight_streams')).toBe(1);
    expect(sampleValue(samples, 'onehub_log_writer_backlog_rows')).toBe(7);
    metrics.relay.finished(streaming, 200);
    backlog = 0;
    samples = parsePrometheusText(await metrics.registry.metrics());
    expect(sampleValue(samples, 'onehub_relay_in_flight_requests')).toBe(1);
    expect(sampleValue(samples, 'onehub_relay_in_flight_streams')).toBe(0);
    expect(sampleValue(samples, 'onehub_log_writer_backlog_rows')).toBe(0);
  });

  it('gives at most MAX_MODEL_LABELS model names a label of their own', async () => {
    const metrics = createMetrics();
    const extra = 25;
    for (let index = 0; index < MAX_MODEL_LABELS + extra; index++) {
      const record = metrics.relay.started(CHAT);
      record.attempt = attempt(`wildcard-model-${index}`, false, [1], 10);
      metrics.relay.finished(record, 200);
    }
    const samples = parsePrometheusText(await metrics.registry.metrics());
    const counted = samples.filter((sample) => sample.name === 'onehub_relay_requests_total');
    expect(new Set(counted.map((sample) => sample.labels.model)).size).toBe(MAX_MODEL_LABELS + 1);
    expect(sampleValue(samples, 'onehub_relay_requests_total', { model: OTHER_MODEL })).toBe(extra);
    expect(sampleValue(samples, 'onehub_relay_quota_spent_total', { model: OTHER_MODEL })).toBe(extra * 10);
    expect(counted.reduce((sum, sample) => sum + sample.value, 0)).toBe(MAX_MODEL_LABELS + extra);
  });
});
