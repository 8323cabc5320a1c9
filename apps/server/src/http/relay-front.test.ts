import diagnostics from 'node:diagnostics_channel';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayTest } from '../../test/relay-setup.js';

/**
 * The relay's surfaces are served by the relay front (relay-front.ts) alone; Fastify serves /api
 * and the console. These tests check that no relay request reaches Fastify, that a body is read by
 * the same rules whether it is sent whole or chunked, and that every answer, errors included, is in
 * the route's surface format and names its request.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** Requests served by Fastify's route handlers. */
const fastifyHandled: string[] = [];
const onHandlerStart = (message: unknown) => {
  fastifyHandled.push(String((message as { request?: { url?: string } }).request?.url));
};

/** A raw HTTP request, with the body sent whole (`content-length`) or `chunked`. */
function send(
  base: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  framing: 'whole' | 'chunked' = 'whole',
  method = 'POST',
): Promise<Answer> {
  const url = new URL(`${base}${path}`);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers:
          framing === 'whole' && body !== undefined
            ? { ...headers, 'content-length': Buffer.byteLength(body) }
            : headers,
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
    if (body === undefined) {
      outgoing.end();
      return;
    }
    if (framing === 'chunked') outgoing.write(body.slice(0, 1));
    outgoing.end(framing === 'chunked' ? body.slice(1) : body);
  });
}

/** The parts of an answer that must not depend on how the body was sent; request ids differ. */
function comparable(answer: Answer) {
  const id = String(answer.headers['x-request-id']);
  return {
    status: answer.status,
    contentType: answer.headers['content-type'],
    body: answer.body.split(id).join('<id>'),
    sameLegacyId: answer.headers['x-oneapi-request-id'] === id,
    headerNames: Object.keys(answer.headers)
      .filter((name) => !['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name))
      .sort(),
  };
}

describe('the relay front', () => {
  let r: RelayTestContext;
  let base: string;
  let json: Record<string, string>;
  beforeAll(async () => {
    diagnostics.subscribe('tracing:fastify.request.handler:start', onHandlerStart);
    r = await startRelayTest({ env: { TRUST_PROXY: 'true' } });
    base = r.baseURL.replace(/\/v1$/, '');
    json = { 'content-type': 'application/json', authorization: `Bearer ${r.apiKey}` };
  });
  afterAll(async () => {
    diagnostics.unsubscribe('tracing:fastify.request.handler:start', onHandlerStart);
    await r?.close();
  });

  it('serves the relay without Fastify, which still serves /api', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] });
    fastifyHandled.length = 0;
    const whole = await send(base, '/v1/chat/completions', json, body);
    expect(whole.headers['x-request-id']).toBe((await lastConsumeLog(r)).request_id);
    const chunked = await send(base, '/v1/chat/completions', json, body, 'chunked');
    const models = await send(base, '/v1/models', json, undefined, 'whole', 'GET');
    const unknown = await send(base, '/v1/unknown', json, undefined, 'whole', 'GET');
    expect(fastifyHandled).toEqual([]);
    expect([whole.status, chunked.status, models.status, unknown.status]).toEqual([200, 200, 200, 404]);
    expect(JSON.parse(whole.body)).toMatchObject({
      choices: [{ message: { content: 'Hello from the mock upstream.' } }],
    });
    expect(JSON.parse(whole.body).choices).toEqual(JSON.parse(chunked.body).choices);
    expect(comparable(whole).headerNames).toEqual(comparable(chunked).headerNames);
    expect(comparable(whole).sameLegacyId).toBe(true);
    const status = await send(base, '/api/status', {}, undefined, 'whole', 'GET');
    expect(status.status).toBe(200);
    expect(fastifyHandled).toEqual(['/api/status']);
    expect(status.headers['x-request-id']).toBe(status.headers['x-oneapi-request-id']);
  });

  it.each([
    ['malformed JSON', '{"model": "gpt-4o-mini",'],
    ['a prototype key', '{"__proto__": {"admin": true}, "model": "gpt-4o-mini", "messages": []}'],
    ['a constructor prototype', '{"constructor": {"prototype": {"admin": true}}, "model": "gpt-4o-mini"}'],
    ['an array', '[1, 2]'],
    ['a wrong type', '{"model": "gpt-4o-mini", "messages": [], "stream": "yes"}'],
    ['an unknown model', '{"model": "no-such-model", "messages": [{"role": "user", "content": "hi"}]}'],
  ])('answers %s in OpenAI’s envelope, alike whole or chunked', async (_case, body) => {
    const whole = await send(base, '/v1/chat/completions', json, body);
    const chunked = await send(base, '/v1/chat/completions', json, body, 'chunked');
    expect(whole.status).toBeGreaterThanOrEqual(400);
    expect(whole.status).toBeLessThan(500);
    expect(comparable(whole)).toEqual(comparable(chunked));
    expect(JSON.parse(whole.body).error.message).toContain(String(whole.headers['x-request-id']));
  });

  it('answers each surface’s errors in its own format, unknown paths included', async () => {
    const anthropic = { 'content-type': 'application/json; charset=utf-8', 'anthropic-version': '2023-06-01' };
    const claudeBody = JSON.stringify({ model: 'claude-3-5-haiku', max_tokens: 10, messages: [] });
    for (const path of ['/v1/messages', '/claude/v1/messages']) {
      const answer = await send(base, path, anthropic, claudeBody);
      expect(answer.status, path).toBe(401);
      expect(JSON.parse(answer.body), path).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    }
    const gemini = await send(
      base,
      '/gemini/v1beta/models/gemini-pro:generateContent',
      { 'content-type': 'application/json' },
      '{"contents":[]}',
    );
    expect(gemini.status).toBe(401);
    expect(JSON.parse(gemini.body)).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    const rerank = await send(base, '/v1/rerank', {}, '{}');
    expect(rerank.status).toBe(401);
    expect(JSON.parse(rerank.body)).toMatchObject({
      error: { type: 'authentication_error' },
      detail: expect.any(String),
    });
    const cases: Array<[string, string, (body: unknown) => void]> = [
      ['GET', '/v1/nothing/here', (body) => expect(body).toMatchObject({ error: { type: 'invalid_request_error' } })],
      ['POST', '/v1/models', (body) => expect(body).toMatchObject({ error: { type: 'invalid_request_error' } })],
      ['GET', '/claude/v1/nothing', (body) => expect(body).toMatchObject({ type: 'error', error: {} })],
      ['GET', '/gemini/v1beta/nothing/here', (body) => expect(body).toMatchObject({ error: { code: 404 } })],
      ['GET', '/dashboard/nothing', (body) => expect(body).toMatchObject({ error: { type: 'invalid_request_error' } })],
    ];
    for (const [method, path, check] of cases) {
      const answer = await send(base, path, json, method === 'POST' ? '{}' : undefined, 'whole', method);
      expect(answer.status, path).toBe(404);
      expect(answer.headers['x-request-id'], path).toBeDefined();
      check(JSON.parse(answer.body));
    }
  });

  it('serves trailing slashes and path parameters as Fastify did', async () => {
    const list = await send(base, '/v1/models/', json, undefined, 'whole', 'GET');
    expect(list.status).toBe(200);
    const one = await send(base, '/v1/models/gpt-4o-mini', json, undefined, 'whole', 'GET');
    expect(JSON.parse(one.body)).toMatchObject({ id: 'gpt-4o-mini', object: 'model' });
    const missing = await send(base, '/v1/models/no%20such', json, undefined, 'whole', 'GET');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.message).toContain("'no such'");
    // A Gemini model named with slashes spans segments, sent as they are or encoded.
    const gemini = { 'content-type': 'application/json', 'x-goog-api-key': r.apiKey };
    const contents = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    for (const path of [
      '/gemini/v1beta/models/@cf/team/no-such:generateContent',
      '/gemini/v1beta/models/%40cf%2Fteam%2Fno-such:streamGenerateContent',
    ]) {
      const answer = await send(base, path, gemini, contents);
      // The model's own refusal, not the router's.
      expect(answer.status, path).toBe(404);
      expect(JSON.parse(answer.body).error.message, path).toMatch(/^model @cf\/team\/no-such does not exist/);
    }
  });

  it('refuses other content types, empty and oversized bodies, whole or chunked', async () => {
    const text = await send(base, '/v1/chat/completions', { ...json, 'content-type': 'text/plain' }, '{}');
    expect(text.status).toBe(415);
    expect(JSON.parse(text.body).error.type).toBe('invalid_request_error');
    const empty = await send(base, '/v1/chat/completions', json, '');
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body).error.message).toContain('request body is empty');
    const limit = r.t.app.initialConfig.bodyLimit ?? 0;
    const huge = `"${'x'.repeat(limit)}"`;
    for (const framing of ['whole', 'chunked'] as const) {
      const answer = await send(base, '/v1/chat/completions', json, huge, framing);
      expect(answer.status, framing).toBe(413);
      expect(JSON.parse(answer.body).error.message).toContain(`larger than the server accepts (at most ${limit} bytes`);
    }
  });

  it('takes the client address from X-Forwarded-For when the proxy is trusted', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const forwarded = { ...json, 'x-forwarded-for': '203.0.113.7, 10.0.0.1' };
    await send(base, '/v1/chat/completions', forwarded, body);
    expect((await lastConsumeLog(r)).source_ip).toBe('203.0.113.7');
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
    await send(r.baseURL.replace(/\/v1$/, ''), '/v1/chat/completions', forwarded, body);
    expect((await lastConsumeLog(r)).source_ip).toBe('10.0.0.1');
  });
});

describe('closing with a relay request in flight', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayTest();
  });
  afterAll(() => r?.close());

  it('lets the stream finish and bills it before the server stops', async () => {
    r.upstream.behaviour = { ...r.upstream.behaviour, chunks: 6, chunkDelayMs: 40 };
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
    expect(parts.join('')).toBe('Hello from the mock upstream.');
    const log = await lastConsumeLog(r);
    expect(log).toMatchObject({ model_name: 'gpt-4o-mini', is_stream: 1 });
  });
});
