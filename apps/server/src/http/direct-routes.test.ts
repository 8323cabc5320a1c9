import diagnostics from 'node:diagnostics_channel';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayTest } from '../../test/relay-setup.js';

/**
 * The relay's JSON routes are served before Fastify (direct-routes.ts). These tests send the same
 * requests both ways (the direct path over a socket, Fastify through `inject` or a chunked body)
 * and expect the same answers, so the two cannot drift apart.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** Requests served by Fastify's route handlers; the direct path never reaches them. */
const fastifyHandled: string[] = [];
const onHandlerStart = (message: unknown) => {
  fastifyHandled.push(String((message as { request?: { url?: string } }).request?.url));
};

/** A raw HTTP request, with the body sent whole (`content-length`) or `chunked`. */
function send(
  baseURL: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  framing: 'whole' | 'chunked' = 'whole',
): Promise<Answer> {
  const url = new URL(`${baseURL}${path}`);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: framing === 'whole' ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers,
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (part: string) => {
          text += part;
        });
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: text }));
      },
    );
    outgoing.on('error', reject);
    if (framing === 'chunked') outgoing.write(body.slice(0, 1));
    outgoing.end(framing === 'chunked' ? body.slice(1) : body);
  });
}

/** The parts of an answer both paths must agree on; request ids differ per request. */
function comparable(answer: Answer) {
  const id = String(answer.headers['x-request-id']);
  return {
    status: answer.status,
    contentType: answer.headers['content-type'],
    retryAfter: answer.headers['retry-after'],
    body: answer.body.split(id).join('<id>'),
    sameLegacyId: answer.headers['x-oneapi-request-id'] === id,
    headerNames: Object.keys(answer.headers)
      .filter((name) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
      .sort(),
  };
}

describe('the direct path for the relay JSON routes', () => {
  let r: RelayTestContext;
  let json: Record<string, string>;
  beforeAll(async () => {
    diagnostics.subscribe('tracing:fastify.request.handler:start', onHandlerStart);
    r = await startRelayTest({ env: { TRUST_PROXY: 'true' } });
    json = { 'content-type': 'application/json', authorization: `Bearer ${r.apiKey}` };
  });
  afterAll(async () => {
    diagnostics.unsubscribe('tracing:fastify.request.handler:start', onHandlerStart);
    await r?.close();
  });

  const inject = async (headers: Record<string, string>, body: string): Promise<Answer> => {
    const response = await r.t.app.inject({ method: 'POST', url: '/v1/chat/completions', headers, payload: body });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  };

  it('serves a plain JSON request without Fastify, and a chunked one through it, alike', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] });
    fastifyHandled.length = 0;
    const direct = await send(r.baseURL, '/chat/completions', json, body);
    expect(fastifyHandled).toEqual([]);
    expect(direct.headers['x-request-id']).toBe((await lastConsumeLog(r)).request_id);
    const viaFastify = await send(r.baseURL, '/chat/completions', json, body, 'chunked');
    expect(fastifyHandled).toEqual(['/v1/chat/completions']);
    expect(direct.status).toBe(200);
    expect(JSON.parse(direct.body)).toMatchObject({
      choices: [{ message: { content: 'Hello from the mock upstream.' } }],
    });
    expect(JSON.parse(direct.body).choices).toEqual(JSON.parse(viaFastify.body).choices);
    expect(comparable(direct)).toMatchObject({ status: 200, contentType: viaFastify.headers['content-type'] });
  });

  it.each([
    ['malformed JSON', '{"model": "gpt-4o-mini",'],
    ['a prototype key', '{"__proto__": {"admin": true}, "model": "gpt-4o-mini", "messages": []}'],
    ['a constructor prototype', '{"constructor": {"prototype": {"admin": true}}, "model": "gpt-4o-mini"}'],
    ['an array', '[1, 2]'],
    ['a wrong type', '{"model": "gpt-4o-mini", "messages": [], "stream": "yes"}'],
    ['an unknown model', '{"model": "no-such-model", "messages": [{"role": "user", "content": "hi"}]}'],
  ])('answers %s exactly as Fastify does', async (_case, body) => {
    fastifyHandled.length = 0;
    const direct = await send(r.baseURL, '/chat/completions', json, body);
    expect(fastifyHandled).toEqual([]);
    const viaFastify = await inject(json, body);
    expect(direct.status).toBeGreaterThanOrEqual(400);
    expect(direct.status).not.toBe(500);
    expect(comparable(direct)).toEqual(comparable(viaFastify));
    expect(JSON.parse(direct.body).error.message).toContain(String(direct.headers['x-request-id']));
  });

  it('answers a missing key the same way, with the surface’s own error format', async () => {
    const body = JSON.stringify({ model: 'claude-3-5-haiku', max_tokens: 10, messages: [] });
    const headers = { 'content-type': 'application/json; charset=utf-8', 'anthropic-version': '2023-06-01' };
    const direct = await send(r.baseURL, '/messages', headers, body);
    const response = await r.t.app.inject({ method: 'POST', url: '/v1/messages', headers, payload: body });
    expect(direct.status).toBe(401);
    expect(comparable(direct)).toEqual(
      comparable({ status: response.statusCode, headers: response.headers, body: response.body }),
    );
    expect(JSON.parse(direct.body)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('leaves other content types, empty and oversized bodies to Fastify', async () => {
    fastifyHandled.length = 0;
    const text = await send(r.baseURL, '/chat/completions', { ...json, 'content-type': 'text/plain' }, '{}');
    expect(fastifyHandled).toEqual(['/v1/chat/completions']);
    expect(text.status).toBe(415);
    // Fastify's body parser answers these before any handler runs, each with its own message.
    const empty = await send(r.baseURL, '/chat/completions', json, '');
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body).error.message).toContain('request body is empty');
    const huge = await send(
      r.baseURL,
      '/chat/completions',
      json,
      `"${'x'.repeat(r.t.app.initialConfig.bodyLimit ?? 0)}"`,
    );
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body).error.message).toContain('larger than the server accepts');
  });

  it('takes the client address from X-Forwarded-For when the proxy is trusted, as Fastify does', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const forwarded = { ...json, 'x-forwarded-for': '203.0.113.7, 10.0.0.1' };
    await send(r.baseURL, '/chat/completions', forwarded, body);
    const direct = await lastConsumeLog(r);
    await send(r.baseURL, '/chat/completions', forwarded, body, 'chunked');
    const viaFastify = await lastConsumeLog(r);
    expect(direct.source_ip).toBe('203.0.113.7');
    expect(viaFastify.source_ip).toBe(direct.source_ip);
  });

  it('keeps the server settings Fastify gives its own server', () => {
    expect(r.t.app.server.keepAliveTimeout).toBe(72_000);
  });
});

describe('client addresses behind a listed proxy', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    // Only the loopback proxy is trusted: what it was told by the hop before it is taken, no more.
    r = await startRelayTest({ env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => r?.close());

  it('takes the address the trusted proxy saw, not one the client wrote in the header', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const forwarded = {
      'content-type': 'application/json',
      authorization: `Bearer ${r.apiKey}`,
      'x-forwarded-for': '203.0.113.7, 10.0.0.1',
    };
    await send(r.baseURL, '/chat/completions', forwarded, body);
    const direct = await lastConsumeLog(r);
    await send(r.baseURL, '/chat/completions', forwarded, body, 'chunked');
    const viaFastify = await lastConsumeLog(r);
    expect(direct.source_ip).toBe('10.0.0.1');
    expect(viaFastify.source_ip).toBe('10.0.0.1');
  });
});

describe('closing with a request in flight on the direct path', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayTest();
  });
  afterAll(() => r?.close());

  it('lets the stream finish and bills it before the server stops', async () => {
    r.upstream.behaviour = { ...r.upstream.behaviour, chunks: 6, chunkDelayMs: 40 };
    fastifyHandled.length = 0;
    const stream = await r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Say hello' }],
      stream: true,
    });
    const parts: string[] = [];
    let closed: Promise<void> | undefined;
    for await (const chunk of stream) {
      parts.push(chunk.choices[0]?.delta.content ?? '');
      closed ??= r.t.app.close();
    }
    await closed;
    expect(fastifyHandled).toEqual([]);
    expect(parts.join('')).toBe('Hello from the mock upstream.');
    const log = await lastConsumeLog(r);
    expect(log).toMatchObject({ model_name: 'gpt-4o-mini', is_stream: 1 });
  });
});
