import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockUpstream } from '../../../test/mocks/openai-upstream.js';
import { type CollectedSpan, type OtlpCollector, startOtlpCollector } from '../../../test/otlp-collector.js';
import { parsePrometheusText, sampleValue } from '../../../test/prometheus-text.js';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import { CONTENT_LIMIT } from './relay-spans.js';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

/** Exports until a span matching `matches` reached the collector: a request's span ends after its answer. */
async function exported(r: RelayTestContext, collector: OtlpCollector, matches: (span: CollectedSpan) => boolean) {
  let found: CollectedSpan | undefined;
  await expect
    .poll(async () => {
      await r.t.app.tracing?.forceFlush();
      found = collector.spans.find(matches);
      return found !== undefined;
    })
    .toBe(true);
  return found as CollectedSpan;
}

const childrenOf = (collector: OtlpCollector, parent: CollectedSpan) =>
  collector.spans.filter((span) => span.parentSpanId === parent.spanId && span.traceId === parent.traceId);

const byRequestId = (id: string | null) => (span: CollectedSpan) => span.attributes['one_hub.request_id'] === id;

/** A relay test whose One Hub exports to a fresh collector with the OTEL_* settings `env` (for one describe). */
function tracedRelay(env: (collectorUrl: string) => Record<string, string>) {
  const traced = {} as { collector: OtlpCollector; r: RelayTestContext };
  beforeAll(async () => {
    traced.collector = await startOtlpCollector();
    traced.r = await startRelayTest({ env: env(traced.collector.url) });
  });
  afterAll(async () => {
    await traced.r?.close();
    await traced.collector?.close();
  });
  return traced;
}

describe('traces over OTLP http/protobuf, content not captured', () => {
  const traced = tracedRelay((url) => ({
    OTEL_EXPORTER_OTLP_ENDPOINT: url,
    OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=acme%20corp',
    OTEL_SERVICE_NAME: 'hub-under-test',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
    METRICS_USER: 'prometheus',
    METRICS_PASSWORD: 'scrape-password-123',
  }));
  let collector: OtlpCollector;
  let r: RelayTestContext;
  beforeAll(() => {
    ({ collector, r } = traced);
  });

  it('gives a non-stream chat one server span with the GenAI attributes and a client span for its channel', async () => {
    const { data: completion, response } = await r.client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'secret prompt' }] })
      .withResponse();
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    const requestId = response.headers.get('x-request-id');
    const span = await exported(r, collector, byRequestId(requestId));
    expect(span.name).toBe('chat gpt-4o-mini');
    expect(span.kind).toBe(SERVER);
    expect(span.parentSpanId).toBe('');
    expect(span.statusCode).not.toBe(ERROR);
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.response.finish_reasons': ['stop'],
      'one_hub.user_id': r.userId,
      'http.response.status_code': 200,
    });
    expect(span.attributes['one_hub.token_id']).toEqual(expect.any(Number));
    expect(span.attributes['one_hub.channel_id']).toEqual(expect.any(Number));
    // 12 prompt tokens at ratio 1 and 7 completion tokens at ratio 2.
    expect(span.attributes['one_hub.quota']).toBe(26);
    expect(span.attributes['gen_ai.input.messages']).toBeUndefined();
    expect(span.attributes['gen_ai.output.messages']).toBeUndefined();
    expect(JSON.stringify(collector.spans)).not.toContain('secret prompt');

    const [attempt, ...others] = childrenOf(collector, span);
    expect(others).toEqual([]);
    expect(attempt).toMatchObject({ name: 'chat gpt-4o-mini', kind: CLIENT });
    expect(attempt?.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'one_hub.channel_id': span.attributes['one_hub.channel_id'],
      'http.response.status_code': 200,
    });
    expect(span.resource).toMatchObject({
      'service.name': 'hub-under-test',
      'deployment.environment.name': 'test',
    });
    expect(collector.lastHeaders['x-tenant']).toBe('acme corp');
    expect(collector.contentTypes.every((type) => type === 'application/x-protobuf')).toBe(true);
  });

  it('reads a streamed answer for the finish reason and usage', async () => {
    const { data: stream, response } = await r.client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'stream please' }], stream: true })
      .withResponse();
    for await (const _chunk of stream) {
      // read to the end
    }
    const span = await exported(r, collector, byRequestId(response.headers.get('x-request-id')));
    expect(span.name).toBe('chat gpt-4o-mini');
    expect(span.attributes).toMatchObject({
      'gen_ai.response.model': 'gpt-4o-mini',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 7,
    });
    expect(span.attributes['gen_ai.output.messages']).toBeUndefined();
    expect(childrenOf(collector, span)).toHaveLength(1);
  });

  it('puts each channel tried under the request: a failed one, then the one that answered', async () => {
    const broken = await startMockUpstream({ failWith: { status: 500, message: 'upstream exploded' } });
    const brokenId = await r.addChannel({ name: 'broken', base_url: broken.url, priority: 10 });
    try {
      const response = await fetch(`${r.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'retry me' }] }),
      });
      expect(response.status).toBe(200);
      const span = await exported(r, collector, byRequestId(response.headers.get('x-request-id')));
      const [first, second, ...others] = childrenOf(collector, span);
      expect(others).toEqual([]);
      expect(first?.attributes['one_hub.channel_id']).toBe(brokenId);
      expect(first?.statusCode).toBe(ERROR);
      expect(first?.attributes['http.response.status_code']).toBe(500);
      expect(first?.attributes['error.type']).toEqual(expect.any(String));
      expect(second?.attributes['one_hub.channel_id']).not.toBe(brokenId);
      expect(second?.statusCode).not.toBe(ERROR);
      expect(span.attributes['one_hub.channel_id']).toBe(second?.attributes['one_hub.channel_id']);
      expect(span.statusCode).not.toBe(ERROR);
    } finally {
      await r.admin('DELETE', `/api/channel/${brokenId}`);
      await broken.close();
    }
  });

  it('marks a refused relay request as an error with its type', async () => {
    const response = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(404);
    const span = await exported(r, collector, byRequestId(response.headers.get('x-request-id')));
    expect(span.statusCode).toBe(ERROR);
    expect(span.attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': 'not_found' });
    expect(childrenOf(collector, span)).toEqual([]);
  });

  it('gives an /api request a span named by its method and route', async () => {
    const response = await fetch(`${r.baseURL.replace(/\/v1$/, '')}/api/user/self`);
    expect(response.status).toBe(401);
    const span = await exported(r, collector, byRequestId(response.headers.get('x-request-id')));
    expect(span).toMatchObject({ name: 'GET /api/user/self', kind: SERVER });
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/user/self',
      'http.response.status_code': 401,
    });
  });

  it('leaves the metrics counting beside the traces: both observers see every request', async () => {
    const scrape = await r.t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `Basic ${Buffer.from('prometheus:scrape-password-123').toString('base64')}` },
    });
    const served = collector.spans.filter((span) => span.kind === SERVER && span.name === 'chat gpt-4o-mini');
    const samples = parsePrometheusText(scrape.body);
    expect(sampleValue(samples, 'onehub_relay_requests_total', { status: '200', model: 'gpt-4o-mini' })).toBe(
      served.length,
    );
  });

  it('continues the trace of an incoming traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const response = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${r.apiKey}`,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${parentId}-01`,
      },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'traced' }] }),
    });
    expect(response.status).toBe(200);
    const span = await exported(r, collector, byRequestId(response.headers.get('x-request-id')));
    expect(span.traceId).toBe(traceId);
    expect(span.parentSpanId).toBe(parentId);
    expect(childrenOf(collector, span)).toHaveLength(1);
  });
});

describe('traces over OTLP http/json, content captured', () => {
  const traced = tracedRelay((url) => ({
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${url}/v1/traces`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
  }));
  let collector: OtlpCollector;
  let r: RelayTestContext;
  beforeAll(() => {
    ({ collector, r } = traced);
  });

  it('records the prompt and the answer of a chat', async () => {
    r.upstream.behaviour.reply = 'The answer is forty-two.';
    const { response } = await r.client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the answer?' }] })
      .withResponse();
    const span = await exported(r, collector, byRequestId(response.headers.get('x-request-id')));
    expect(JSON.parse(span.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', content: 'What is the answer?' },
    ]);
    expect(JSON.parse(span.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'The answer is forty-two.' }], finish_reason: 'stop' },
    ]);
    expect(collector.contentTypes.every((type) => type === 'application/json')).toBe(true);
  });

  it('keeps at most the limit of a long streamed answer', async () => {
    r.upstream.behaviour.reply = `${'a'.repeat(CONTENT_LIMIT)}TAIL`;
    r.upstream.behaviour.chunks = 40;
    const { data: stream, response } = await r.client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'long please' }], stream: true })
      .withResponse();
    let received = '';
    for await (const chunk of stream) received += chunk.choices[0]?.delta.content ?? '';
    expect(received).toHaveLength(CONTENT_LIMIT + 4);
    const span = await exported(r, collector, byRequestId(response.headers.get('x-request-id')));
    const [message] = JSON.parse(span.attributes['gen_ai.output.messages'] as string);
    expect(message.parts[0].content).toBe('a'.repeat(CONTENT_LIMIT));
    expect(message.finish_reason).toBe('stop');
    expect(span.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
  });
});
