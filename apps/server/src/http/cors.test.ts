import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RelayTestContext, startRelayTest } from '../../test/relay-setup.js';

const ORIGIN = 'https://chat.example.com';

describe('cross-origin access for browser clients', () => {
  let r: RelayTestContext;
  let base: string;
  beforeAll(async () => {
    r = await startRelayTest();
    base = r.baseURL.replace(/\/v1$/, '');
  });
  afterAll(() => r?.close());

  const chat = (stream: boolean, headers: Record<string, string> = {}) =>
    request(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { origin: ORIGIN, authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream }),
    });

  it.each([
    '/v1/chat/completions',
    '/claude/v1/messages',
    '/gemini/v1beta/models/gemini-2.0-flash:generateContent',
    '/recraftAI/v1/images/vectorize',
  ])(
    'answers a preflight for the relay surface %s with the origin and the asked headers, without credentials',
    async (path) => {
      const preflight = await request(`${base}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, x-stainless-os',
        },
      });
      await preflight.body.dump();
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers).toMatchObject({
        'access-control-allow-origin': ORIGIN,
        'access-control-allow-headers': 'authorization, content-type, x-stainless-os',
      });
      // The relay is called with a bearer key: a browser need not send cookies along.
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
    },
  );

  it('lets a page on another site read the OpenAPI document, without credentials', async () => {
    const response = await request(`${base}/api/openapi.json`, { headers: { origin: ORIGIN } });
    expect(response.statusCode).toBe(200);
    expect(((await response.body.json()) as { openapi: string }).openapi).toBe('3.1.0');
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('keeps credentials allowed on the public lists under /api, as the reference does', async () => {
    for (const path of ['/api/prices', '/api/available_model']) {
      const preflight = await request(`${base}${path}`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
      });
      await preflight.body.dump();
      expect(preflight.statusCode, path).toBe(204);
      expect(preflight.headers['access-control-allow-credentials'], path).toBe('true');
    }
  });

  it('marks whole and streamed answers, and errors, as readable by the calling origin', async () => {
    for (const answer of [
      await chat(false),
      await chat(true),
      await chat(false, { authorization: 'Bearer sk-wrong' }),
    ]) {
      await answer.body.dump();
      expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(answer.headers['access-control-expose-headers'])).toContain('X-Request-Id');
    }
    // A route Fastify serves.
    const models = await request(`${base}/v1/models`, {
      headers: { origin: ORIGIN, authorization: `Bearer ${r.apiKey}` },
    });
    await models.body.dump();
    expect(models.statusCode).toBe(200);
    expect(models.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  it('leaves the cookie-signed management API and same-origin requests alone', async () => {
    const management = await request(`${base}/api/user/self`, { headers: { origin: ORIGIN } });
    await management.body.dump();
    expect(management.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(`${base}/api/user/self`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    });
    await preflight.body.dump();
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const sameOrigin = await request(`${base}/v1/models`, { headers: { authorization: `Bearer ${r.apiKey}` } });
    await sameOrigin.body.dump();
    expect(sameOrigin.statusCode).toBe(200);
    expect(sameOrigin.headers['access-control-allow-origin']).toBeUndefined();
  });
});
