import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../test/app.js';

/** Writes under /api that ride on the session cookie must come from this site's own pages. */
describe('/api writes check where a cookie-borne request came from', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp();
    cookie = (await t.createUser('origincheck')).cookie;
  });
  afterAll(() => t?.close());

  const update = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/user/self',
      headers: { host: 'hub.example.com', ...headers },
      payload: { display_name: 'changed' },
    });

  it('refuses a foreign Origin or a cross-site fetch with a 403', async () => {
    const foreign: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'http://hub.example.com.evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of foreign) {
      const response = await update({ cookie, ...headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.json().message, JSON.stringify(headers)).toContain('came from another');
    }
  });

  it('accepts the site itself, requests without Origin, and scripts with an access token', async () => {
    expect(
      (await update({ cookie, origin: 'http://hub.example.com', 'sec-fetch-site': 'same-origin' })).statusCode,
    ).toBe(200);
    expect((await update({ cookie })).statusCode).toBe(200);
    const script = await t.app.inject({
      method: 'PUT',
      url: '/api/user/self',
      headers: { authorization: ROOT_TOKEN, origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
      payload: { display_name: 'root' },
    });
    expect(script.statusCode).toBe(200);
  });

  it('follows the host the proxy reports when TRUST_PROXY is set', async () => {
    const proxied = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const session = (await proxied.createUser('proxied')).cookie;
      const send = (origin: string) =>
        proxied.app.inject({
          method: 'PUT',
          url: '/api/user/self',
          headers: { cookie: session, origin, 'x-forwarded-proto': 'https', 'x-forwarded-host': 'hub.example.com' },
          payload: { display_name: 'p' },
        });
      expect((await send('https://hub.example.com')).statusCode).toBe(200);
      expect((await send('https://other.example.com')).statusCode).toBe(403);
    } finally {
      await proxied.close();
    }
  });

  it('lets the console through a proxy it does not trust, which ends TLS or rewrites Host', async () => {
    // nginx with `proxy_pass http://127.0.0.1:3000` and no Host header of its own: the server sees
    // plain http to 127.0.0.1:3000, while the browser is on https://hub.example.com.
    const viaProxy = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/user/self',
        headers: { cookie, host: '127.0.0.1:3000', origin: 'https://hub.example.com', ...headers },
        payload: { display_name: 'proxied' },
      });
    expect((await viaProxy({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await viaProxy({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    // An older browser without Sec-Fetch-Site: the host must match, whatever the scheme.
    expect((await viaProxy({ host: 'hub.example.com' })).statusCode).toBe(200);
    expect((await viaProxy({})).statusCode).toBe(403);
  });
});
