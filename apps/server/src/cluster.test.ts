import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from '../test/mocks/openai-upstream.js';
import { type OtlpCollector, startOtlpCollector } from '../test/otlp-collector.js';
import { parsePrometheusText, sampleValue } from '../test/prometheus-text.js';
import { createTestChannel } from '../test/test-channel.js';

/** The server as `npm start` runs it, from its sources, in child processes. */
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const ROOT_TOKEN = 'cluster-root-access-token-0123456789';
const METRICS = `Basic ${Buffer.from('prom:cluster-metrics-secret').toString('base64')}`;
const redisUrl = process.env.TEST_REDIS_URL;

function startServer(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (data: Buffer) => {
    output += data.toString();
  });
  child.stderr?.on('data', (data: Buffer) => {
    output += data.toString();
  });
  return { child, output: () => output };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

describe('WORKERS', () => {
  it('refuses more than one worker without Redis, saying why', async () => {
    const { child, output } = startServer({
      WORKERS: '2',
      PORT: '0',
      SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'one-hub-cluster-')), 'db.sqlite'),
    });
    expect(await exited(child)).toBe(1);
    expect(output()).toMatch(/WORKERS: 2 worker processes need REDIS_CONN_STRING/);
  });
});

// Two workers share balances through Redis; without TEST_REDIS_URL there is nothing to share through.
describe.skipIf(!redisUrl)('two workers on one port, one SQLite file and Redis', () => {
  const port = 31_000 + Math.floor(Math.random() * 20_000);
  const base = `http://127.0.0.1:${port}`;
  let server: ReturnType<typeof startServer>;
  let upstream: MockUpstream;
  let collector: OtlpCollector;

  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: ROOT_TOKEN, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as { success: boolean; message: string; data?: unknown };
    if (!response.ok) throw new Error(`${method} ${path}: ${json.message}`);
    return json.data;
  };

  /** One chat request on a connection of its own, so the cluster hands requests to both workers. */
  const chat = (key: string) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      const request = httpRequest(
        `${base}/v1/chat/completions`,
        {
          method: 'POST',
          agent: false,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        },
        (response) => {
          response.resume();
          response.once('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.once('error', reject);
      request.end(body);
    });

  beforeAll(async () => {
    upstream = await startMockUpstream();
    collector = await startOtlpCollector();
    server = startServer({
      WORKERS: '2',
      // Each worker sets up its own tracer provider and exporter.
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      PORT: String(port),
      REDIS_CONN_STRING: redisUrl as string,
      SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'one-hub-cluster-')), 'db.sqlite'),
      INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
      METRICS_USER: 'prom',
      METRICS_PASSWORD: 'cluster-metrics-secret',
      // Info: the workers say when they listen.
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    });
    // Both workers have said they listen (or the server stopped, and the test shows why).
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if ((server.output().match(/worker \d of 2\)/g) ?? []).length === 2) resolve();
      };
      server.child.stdout?.on('data', check);
      server.child.stderr?.on('data', check);
      server.child.once('exit', (code) => reject(new Error(`the server stopped (${code}): ${server.output()}`)));
    });
  }, 90_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await exited(server.child);
    }
    await upstream?.close();
    await collector?.close();
  });

  it('bills exactly across the workers and shows both in one scrape', async () => {
    await createTestChannel(upstream, (path, body) => admin('POST', path, body));
    const groups = (await admin('GET', '/api/user_group/?name=')) as { data: Array<{ symbol: string }> };
    await admin('PUT', '/api/user_group/', { ...groups.data.find((group) => group.symbol === 'default'), api_rate: 0 });
    await admin('POST', '/api/user/quota/1', { quota: 10_000_000 });
    const { key } = (await admin('POST', '/api/token/', {
      name: 'cluster',
      expired_time: -1,
      remain_quota: 0,
      unlimited_quota: true,
    })) as { key: string };
    const quotaOf = async () => Number(((await admin('GET', '/api/user/1')) as { quota: number }).quota);
    const before = await quotaOf();

    const count = 40;
    const statuses: number[] = [];
    // Ten at a time: both workers busy at once, writing to the same SQLite file.
    for (let batch = 0; batch < count / 10; batch++) {
      statuses.push(...(await Promise.all(Array.from({ length: 10 }, () => chat(key)))));
    }
    expect(statuses).toEqual(Array(count).fill(200));

    // Every request logged once and charged once, whichever worker served it (batches land within seconds).
    type LogPage = { data: Array<{ quota: number }>; total_count: number };
    const logsPath = '/api/log/?log_type=2&size=100&page=1';
    await expect
      .poll(async () => ((await admin('GET', logsPath)) as LogPage).total_count, { timeout: 20_000 })
      .toBe(count);
    const logs = (await admin('GET', logsPath)) as LogPage;
    const charged = logs.data.reduce((sum, log) => sum + Number(log.quota), 0);
    expect(charged).toBeGreaterThan(0);
    await expect.poll(async () => before - (await quotaOf()), { timeout: 20_000 }).toBe(charged);

    const scrape = await fetch(`${base}/api/metrics`, { headers: { authorization: METRICS } });
    expect(scrape.status).toBe(200);
    const samples = parsePrometheusText(await scrape.text());
    expect(sampleValue(samples, 'onehub_worker_processes')).toBe(2);
    const served = samples.filter(
      (sample) => sample.name === 'onehub_relay_requests_total' && sample.labels.status === '200',
    );
    expect(served.reduce((sum, sample) => sum + sample.value, 0)).toBe(count);
    expect(sampleValue(samples, 'onehub_relay_quota_spent_total', { model: 'gpt-4o-mini' })).toBe(charged);

    // Traced too, whichever worker served it: each chat's GenAI span (a root, with its channel's
    // try under it) reaches the collector.
    const chatSpans = () =>
      collector.spans.filter((span) => span.name === 'chat gpt-4o-mini' && span.parentSpanId === '');
    await expect.poll(() => chatSpans().length, { timeout: 20_000 }).toBe(count);
    expect(new Set(chatSpans().map((span) => span.attributes['one_hub.request_id'])).size).toBe(count);
  }, 90_000);
});
