import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMockChannel, useChannelFixture } from '../../test/channel-fixture.js';
import { availableDialects } from '../../test/databases.js';
import { namedEvents } from '../../test/sse.js';
import { providerType } from '../domain/channel-types/registry.js';
import { createMemoryCache } from '../platform/cache/index.js';
import { createLogger } from '../platform/logger.js';
import { createUpstreamClient, type UpstreamClient } from '../relay/transport/executor.js';
import type { CheckFrame } from './check.js';
import { installChannelCheck } from './check.js';
import { installImageBeacon } from './check-beacon.js';
import type { CheckProcess, ModelCheck } from './check-probes.js';

const URL_PATH = '/api/sse/channel/check';

/** Splits an event stream into its frames, checking each is an `event: message` with JSON data. */
function frames(text: string): CheckFrame[] {
  return namedEvents(text).map(({ event, data }) => {
    expect(event).toBe('message');
    return data as unknown as CheckFrame;
  });
}

function results(text: string): ModelCheck[] {
  const list = frames(text);
  expect(list.at(-1)).toEqual({ type: 'done', data: 'completed' });
  return list.flatMap((frame) => (frame.type === 'result' ? [frame.data] : []));
}

/** Each probe's name with the statuses of its results, in order. */
function statuses(check: ModelCheck | undefined): Record<string, number[]> {
  const entries = (check?.process ?? []).map((step: CheckProcess) => [step.name, step.results.map((r) => r.status)]);
  return Object.fromEntries(entries);
}

describe.each(availableDialects)('channel check on %s', (dialect) => {
  const fixture = useChannelFixture(dialect);

  const addChannel = (fields: Record<string, unknown> = {}) => addMockChannel(fixture, { name: 'check', ...fields });

  it('runs every probe per model through the model mapping, and bills, logs and records nothing', async () => {
    const id = await addChannel({ model_mapping: '{"gpt-4o-mini":"gpt-4o-mini-2024-07-18"}' });
    const response = await fixture.call('POST', URL_PATH, fixture.root, { id, models: 'gpt-4o-mini, gpt-4o' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/event-stream');
    const checks = results(response.body);
    expect(checks.map((check) => check.model)).toEqual(['gpt-4o-mini', 'gpt-4o']);
    for (const check of checks) {
      expect(statuses(check)).toEqual({
        basic: [1, 1, 1],
        json_format: [1, 1],
        tool_call: [1, 1, 1],
        error_format: [1],
        // This server's address is not one the mock fetches from.
        image: [1, 1, 2],
      });
    }
    expect(checks[0]?.process[0]?.response).toContain('chatcmpl-mock');
    expect(checks[0]?.process[2]?.results[1]?.remark).toBe('called get_weather');

    expect(fixture.mock.received).toHaveLength(10);
    const sent = fixture.mock.received.slice(0, 5).map((received) => received.body);
    expect(sent.every((body) => body.model === 'gpt-4o-mini-2024-07-18' && body.stream === false)).toBe(true);
    expect(sent.some((body) => (body.response_format as { type: string })?.type === 'json_object')).toBe(true);
    expect(sent.some((body) => Array.isArray(body.tools))).toBe(true);
    expect(sent.some((body) => body.max_tokens === -1)).toBe(true);
    expect(fixture.mock.received.every((received) => received.url === '/v1/chat/completions')).toBe(true);

    expect(await fixture.t.database.db.selectFrom('logs').select('id').execute()).toHaveLength(0);
    expect((await fixture.call('GET', `/api/channel/${id}`, fixture.root)).json().data.test_time).toBe(0);
  });

  it('fails the probes a careless upstream does not honour', async () => {
    fixture.mock.behaviour.sloppyChat = true;
    const id = await addChannel();
    const [check] = results((await fixture.call('POST', URL_PATH, fixture.root, { id, models: 'gpt-4o-mini' })).body);
    expect(statuses(check)).toEqual({
      basic: [1, 1, 1],
      json_format: [1, 0],
      tool_call: [1, 0],
      error_format: [0],
      image: [1, 1, 2],
    });
    const error = check?.process.find((step) => step.name === 'error_format');
    expect(error?.results[0]?.remark).toContain('accepted an invalid request');
  });

  it("reports a failing upstream's errors, with the key masked", async () => {
    fixture.mock.behaviour.failWith = { status: 500, message: 'the model is overloaded' };
    const id = await addChannel();
    const [check] = results((await fixture.call('POST', URL_PATH, fixture.root, { id, models: 'gpt-4o-mini' })).body);
    // The error probe only asks for an error in OpenAI's shape, which this upstream gives.
    expect(statuses(check)).toEqual({ basic: [0], json_format: [0], tool_call: [0], error_format: [1], image: [0] });
    expect(check?.process[0]?.results[0]?.remark).toContain('the model is overloaded');

    fixture.mock.reset();
    const refused = await addChannel({ key: 'sk-wrong-key' });
    const body = (await fixture.call('POST', URL_PATH, fixture.root, { id: refused, models: 'gpt-4o-mini' })).body;
    expect(statuses(results(body)[0]).basic).toEqual([0]);
    expect(body).toContain('Incorrect API key provided');
    expect(body).not.toContain('sk-wrong-key');
  });

  it('reports unreachable upstreams per probe', async () => {
    const id = await addChannel({ base_url: 'http://127.0.0.1:1' });
    const [check] = results((await fixture.call('POST', URL_PATH, fixture.root, { id, models: 'gpt-4o-mini' })).body);
    expect(statuses(check)).toEqual({ basic: [0], json_format: [0], tool_call: [0], error_format: [0], image: [0] });
    expect(check?.process[0]?.results[0]?.remark).toContain('could not reach the upstream');
  });

  it('answers "not supported yet" for channel types that do not speak OpenAI, without calling them', async () => {
    const id = await addChannel({ type: providerType('anthropic'), models: 'claude-3-5-haiku' });
    const checks = results(
      (await fixture.call('POST', URL_PATH, fixture.root, { id, models: 'claude-3-5-haiku,claude-3-opus' })).body,
    );
    expect(checks).toHaveLength(2);
    expect(checks[1]).toEqual({
      model: 'claude-3-opus',
      process: [
        { name: 'basic', results: [{ name: 'support', status: 2, remark: 'not supported yet' }], response: '' },
      ],
    });
    expect(fixture.mock.received).toHaveLength(0);
  });

  it('needs an admin, a channel and models, naming the bad field', async () => {
    const id = await addChannel();
    expect((await fixture.call('POST', URL_PATH, undefined, { id, models: 'gpt-4o-mini' })).statusCode).toBe(401);
    expect((await fixture.call('POST', URL_PATH, fixture.plain, { id, models: 'gpt-4o-mini' })).statusCode).toBe(403);
    const cases: Array<[unknown, string]> = [
      [{ models: 'gpt-4o-mini' }, 'id is required'],
      [{ id: 'seven', models: 'gpt-4o-mini' }, 'id must be a number'],
      [{ id }, 'models is required'],
      [{ id, models: ' , ' }, 'models: name at least one model'],
    ];
    for (const [body, message] of cases) {
      const response = await fixture.call('POST', URL_PATH, fixture.root, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ success: false, message });
    }
    const missing = await fixture.call('POST', URL_PATH, fixture.root, { id: 999999, models: 'gpt-4o-mini' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().success).toBe(false);
    expect(fixture.mock.received).toHaveLength(0);
  });

  describe('over a real connection', () => {
    let server: FastifyInstance;
    let upstream: UpstreamClient;
    let base: string;

    beforeAll(async () => {
      server = Fastify();
      upstream = createUpstreamClient();
      const allowEveryone = async () => undefined;
      const beacon = installImageBeacon(server, createMemoryCache(), () => base);
      installChannelCheck(server, {
        auth: { requireAdmin: allowEveryone },
        channels: fixture.t.services.channels,
        upstream,
        logger: createLogger('silent'),
        heartbeatMs: 20,
        beacon,
      });
      base = await server.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await server?.close();
      await upstream?.close();
    });

    const open = (body: unknown, signal?: AbortSignal) =>
      request(`${base}${URL_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });

    it('sends an image URL on this server and reports who fetched it; the URL dies with the check', async () => {
      fixture.mock.behaviour.fetchImages = true;
      const id = await addChannel();
      const list = frames(await (await open({ id, models: 'gpt-4o-mini' })).body.text());
      const check = list.flatMap((frame) => (frame.type === 'result' ? [frame.data] : []))[0];
      const image = check?.process.find((step) => step.name === 'image');
      expect(image?.results.map((result) => result.status)).toEqual([1, 1, 1]);
      expect(image?.results[2]?.remark).toContain('MockVision-ImageFetcher/1.0');
      expect(image?.results[2]?.remark).toContain('127.0.0.1');
      const [fetched] = fixture.mock.behaviour.fetchedImages;
      expect(fetched).toMatchObject({ status: 200, contentType: 'image/png' });
      expect(fetched?.url).toMatch(new RegExp(`^${base}/api/image/[0-9a-f]{32}\\.png$`));
      // An unknown id, or a malformed one, is not served.
      expect((await request(`${base}/api/image/${'0'.repeat(32)}.png`)).statusCode).toBe(404);
      expect((await request(`${base}/api/image/..%2F..%2Fetc`)).statusCode).toBe(404);
    });

    it('says so when the upstream never fetches the image', async () => {
      const id = await addChannel();
      const list = frames(await (await open({ id, models: 'gpt-4o-mini' })).body.text());
      const check = list.flatMap((frame) => (frame.type === 'result' ? [frame.data] : []))[0];
      const image = check?.process.find((step) => step.name === 'image');
      expect(image?.results.map((result) => result.status)).toEqual([1, 1, 2]);
      expect(image?.results[2]?.remark).toContain('not fetched');
    });

    it('sends heartbeats while the probes take their time', async () => {
      fixture.mock.behaviour.delayMs = 150;
      const id = await addChannel();
      const response = await open({ id, models: 'gpt-4o-mini' });
      const list = frames(await response.body.text());
      expect(list.some((frame) => frame.type === 'heartbeat' && frame.data === 'ping')).toBe(true);
      expect(list.filter((frame) => frame.type === 'result')).toHaveLength(1);
      expect(list.at(-1)).toEqual({ type: 'done', data: 'completed' });
    });

    it('stops probing when the client goes away', async () => {
      fixture.mock.behaviour.delayMs = 300;
      const id = await addChannel();
      const abort = new AbortController();
      const response = await open({ id, models: 'gpt-4o-mini,gpt-4o,gpt-4' }, abort.signal);
      // The first heartbeat shows the stream is open and the first model's probes are in flight.
      for await (const _chunk of response.body) break;
      abort.abort();
      await new Promise((resolve) => setTimeout(resolve, 800));
      // The first model's probes were cut off mid-way, and the other models were never probed.
      expect(fixture.mock.abandoned).toBe(5);
      expect(fixture.mock.received).toHaveLength(5);
    });
  });
});
