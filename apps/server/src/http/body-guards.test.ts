import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT_TOKEN } from '../../test/app.js';
import { partialPost } from '../../test/partial-request.js';
import { type RelayTestContext, startRelayTest } from '../../test/relay-setup.js';
import { providerType } from '../domain/channel-types/registry.js';
import { KeyAuthenticator } from '../relay/access/keys.js';

/**
 * Callers are checked before their bodies are read, /api takes small bodies, and no JSON body may
 * nest deeper than 64 levels. The unauthenticated requests below declare a large body and send a
 * few bytes of it: the answer must come without the rest (a server that reads first never answers).
 */

const EIGHT_MB = 8 * 1024 * 1024;
const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
const UNKNOWN_KEY = `sk-${'x'.repeat(48)}`;

describe('the caller is checked before the body is read', () => {
  let r: RelayTestContext;
  let base: string;
  let cookie: string;
  beforeAll(async () => {
    r = await startRelayTest();
    base = r.baseURL.replace(/\/v1$/, '');
    cookie = (await r.t.createUser('bodyguard')).cookie;
  });
  afterAll(() => r?.close());

  it('refuses a relay request with no key or an unknown key at once, on every surface', async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['/v1/chat/completions', {}, 'invalid API key'],
      ['/v1/chat/completions', { authorization: `Bearer ${UNKNOWN_KEY}` }, 'invalid API key'],
      ['/v1/embeddings', { authorization: `Bearer ${UNKNOWN_KEY}` }, 'invalid API key'],
      ['/claude/v1/messages', {}, 'invalid API key'],
      ['/v1/messages', { 'x-api-key': UNKNOWN_KEY }, 'invalid API key'],
      ['/v1/messages/count_tokens', {}, 'invalid API key'],
      ['/gemini/v1beta/models/gemini-pro:generateContent', {}, 'invalid API key'],
      [`/gemini/v1beta/models/gemini-pro:generateContent?key=${UNKNOWN_KEY}`, {}, 'invalid API key'],
    ];
    for (const [path, headers, message] of cases) {
      const answer = await partialPost(base, path, headers, EIGHT_MB, '{"model":"gpt-4o-mini","messages":[');
      expect(answer.status, path).toBe(401);
      expect(answer.body, path).toContain(message);
      expect(answer.headers.connection, path).toBe('close');
    }
  });

  it('authenticates a served request once, its body sent whole or chunked', async () => {
    const authenticate = vi.spyOn(KeyAuthenticator.prototype, 'authenticate');
    try {
      const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      const headers = { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' };
      const whole = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers, body });
      expect(whole.status).toBe(200);
      expect(authenticate).toHaveBeenCalledTimes(1);
      const chunked = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers,
        body: new Blob([body]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(200);
      expect(authenticate).toHaveBeenCalledTimes(2);
    } finally {
      authenticate.mockRestore();
    }
  });

  it('refuses an upload to a multipart route with no key at once', async () => {
    const answer = await partialPost(
      base,
      '/v1/audio/transcriptions',
      { 'content-type': 'multipart/form-data; boundary=x' },
      EIGHT_MB,
      '--x\r\n',
    );
    expect(answer.status).toBe(401);
  });

  it('refuses a guarded /api route without a session or access token at once', async () => {
    // Under /api's body limit, so only the guard can answer before the body arrives.
    for (const [method, path] of [
      ['PUT', '/api/user/self'],
      ['POST', '/api/user/topup'],
      ['POST', '/api/channel/'],
      ['PUT', '/api/option/'],
    ] as const) {
      const answer = await partialPost(base, path, {}, 900 * 1024, '{"key":', method);
      expect(answer.status, path).toBe(401);
      expect(JSON.parse(answer.body), path).toMatchObject({
        success: false,
        message: expect.stringContaining('not signed in'),
      });
    }
    const wrongToken = await partialPost(base, '/api/user/topup', { authorization: 'not-a-token' }, 900 * 1024, '{');
    expect(wrongToken.status).toBe(401);
  });

  it('gives /api a small body limit and the relay its larger one', async () => {
    const big = JSON.stringify({ display_name: 'x'.repeat(1.5 * 1024 * 1024) });
    const api = await r.t.app.inject({
      method: 'PUT',
      url: '/api/user/self',
      headers: { cookie, 'content-type': 'application/json' },
      payload: big,
    });
    expect(api.statusCode).toBe(413);
    expect(api.json()).toEqual({
      success: false,
      message: 'request body is larger than the server accepts (at most 1048576 bytes here)',
    });
    const relay = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'x'.repeat(1.5 * 1024 * 1024) }],
      }),
    });
    expect(relay.status).toBe(200);
  });

  it('refuses JSON nested deeper than 64 levels with a 400, on the relay (whole or chunked) and on /api', async () => {
    const body = `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"x":${nested(64)}}`;
    const headers = { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' };
    const whole = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers, body });
    expect(whole.status).toBe(400);
    expect(((await whole.json()) as { error: { message: string } }).error.message).toContain(
      'nested too deeply: JSON arrays and objects may nest at most 64 levels',
    );
    // A streamed (chunked) body is read by the same rules.
    const chunked = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: new Blob([body]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(400);
    expect(await chunked.text()).toContain('nested too deeply');
    const api = await r.t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"username":"root","password":${nested(70, '"x"')}}`,
    });
    expect(api.statusCode).toBe(400);
    expect(api.json().message).toContain('nested too deeply');
    // 64 levels are fine; brackets inside strings do not count.
    const deepText = JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: `${'['.repeat(500)} \\" ${'{'.repeat(500)}` }],
      x: JSON.parse(nested(63)),
    });
    const allowed = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers, body: deepText });
    expect(allowed.status).toBe(200);
  });

  it('answers a deeply nested channel plugin with a 400, not a 500', async () => {
    const plugin = `{"voice":${nested(80, '{}')}}`;
    const created = await r.t.app.inject({
      method: 'POST',
      url: '/api/channel/',
      headers: { authorization: ROOT_TOKEN, 'content-type': 'application/json' },
      payload: `{"name":"deep","type":${providerType('openai')},"key":"k","models":"gpt-4o-mini","group":"default","plugin":${plugin}}`,
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().message).toContain('nested too deeply');
    const updated = await r.t.app.inject({
      method: 'PUT',
      url: '/api/channel/',
      headers: { authorization: ROOT_TOKEN, 'content-type': 'application/json' },
      payload: `{"id":1,"plugin":${plugin}}`,
    });
    expect(updated.statusCode).toBe(400);
    expect(updated.json().message).toContain('nested too deeply');
    // The plugin may also come as JSON text inside a string.
    const asText = await r.t.app.inject({
      method: 'POST',
      url: '/api/channel/',
      headers: { authorization: ROOT_TOKEN },
      payload: {
        name: 'deep',
        type: providerType('openai'),
        key: 'k',
        models: 'gpt-4o-mini',
        group: 'default',
        plugin: `{"v":${nested(20_000)}}`,
      },
    });
    expect(asText.statusCode).toBe(400);
    expect(asText.json().message).toContain('plugin is nested too deeply');
  });

  it('serves or refuses, never fails, a chat message whose content nests 60 levels', async () => {
    let content: unknown = 'hello';
    for (let level = 0; level < 58; level++) content = [content];
    const response = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }),
    });
    expect(response.status).toBeLessThan(500);
    if (response.status !== 200) {
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain('content');
    }
  });
});
