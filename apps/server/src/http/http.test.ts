import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';

function fakeConsole(): string {
  const directory = mkdtempSync(join(tmpdir(), 'one-hub-console-'));
  mkdirSync(join(directory, 'assets'));
  writeFileSync(
    join(directory, 'index.html'),
    '<!doctype html><html><head><title>x</title></head><body>console</body></html>',
  );
  writeFileSync(join(directory, 'assets', 'app-123.js'), 'console.log(1)');
  return directory;
}

describe('HTTP edge: errors, limits and the console', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp({ consoleDirectory: fakeConsole(), env: { BODY_LIMIT_BYTES: '2048', BASE_PATH: '/hub' } });
    // The relay's surfaces and the request ids live on the server's listener, which `inject` skips.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  it('answers malformed JSON with a 400 envelope', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "root", ',
    });
    expect(response.statusCode).toBe(400);
    // About no single field, so the envelope has no `field`.
    expect(response.json()).toEqual({ success: false, message: 'request body is not valid JSON' });
  });

  it('answers a JSON array where an object belongs with a 400', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/user/login', payload: [1, 2] });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('request body must be a JSON object');
  });

  it('answers a body over the limit with 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { username: 'big', password: 'x'.repeat(5000) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().success).toBe(false);
  });

  it('answers unknown API paths with a JSON 404, with or without the base path', async () => {
    for (const url of ['/api/nope', '/api/user/self/extra/deep']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toMatchObject({ success: false });
    }
    // The relay surface answers in OpenAI's error format.
    const relay = await fetch(`${base}/v1/unknown`);
    expect(relay.status).toBe(404);
    expect(((await relay.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });

  it('serves index.html with the base path for client-side routes under BASE_PATH', async () => {
    for (const url of ['/hub/', '/hub/panel/token', '/hub/login?x=1']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<base href="/hub/" />');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/hub/assets/app-123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ method: 'GET', url: '/elsewhere' })).statusCode).toBe(404);
  });

  it('accepts list paths with and without the trailing slash', async () => {
    const withSlash = await t.app.inject({ method: 'GET', url: '/api/user_group/' });
    const without = await t.app.inject({ method: 'GET', url: '/api/user_group' });
    expect(withSlash.statusCode).toBe(401);
    expect(without.statusCode).toBe(401);
  });

  it('names every response with a request id', async () => {
    for (const url of ['/api/status', '/v1/models', '/hub/']) {
      const response = await fetch(`${base}${url}`);
      expect(response.headers.get('x-oneapi-request-id'), url).toMatch(/^\d{14}[A-Za-z0-9]{12}$/);
      expect(response.headers.get('x-request-id'), url).toBe(response.headers.get('x-oneapi-request-id'));
    }
    // Also a request whose URL cannot even be decoded: a clear 400 that still names itself, in
    // the management envelope on /api and in OpenAI's on /v1.
    for (const [url, shape] of [
      ['/api/%zz', { success: false }],
      ['/v1/chat/%E0%A4%A', { error: { type: 'invalid_request_error' } }],
    ] as const) {
      const malformed = await fetch(`${base}${url}`);
      expect(malformed.status, url).toBe(400);
      expect(malformed.headers.get('x-request-id')).toMatch(/^\d{14}[A-Za-z0-9]{12}$/);
      expect(malformed.headers.get('x-oneapi-request-id')).toBe(malformed.headers.get('x-request-id'));
      const body = await malformed.json();
      expect(body, url).toMatchObject(shape);
      expect(JSON.stringify(body)).toContain('not a valid url');
    }
  });
});

describe('sign-in rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { CRITICAL_RATE_LIMIT: '3' } });
  });
  afterAll(() => t?.close());

  it('answers 429 after too many attempts from one address, while other routes still work', async () => {
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: 'root', password: 'wrong-password' },
      });
    const statuses = [];
    for (let index = 0; index < 5; index++) statuses.push((await attempt()).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const limited = await attempt();
    expect(limited.json()).toMatchObject({ success: false });
    expect(limited.json().message).toContain('too many attempts');
    expect((await t.app.inject({ method: 'GET', url: '/api/status' })).statusCode).toBe(200);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      remoteAddress: '10.1.2.3',
      payload: { username: 'root', password: 'wrong-password' },
    });
    expect(elsewhere.statusCode).toBe(401);
  });
});
