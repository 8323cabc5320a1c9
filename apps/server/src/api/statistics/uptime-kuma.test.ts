import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';

/** An Uptime Kuma server's two public status-page endpoints, counting the calls it gets. */
function fakeUptimeKuma() {
  const calls: string[] = [];
  const server: Server = createServer((request, response) => {
    calls.push(request.url ?? '');
    response.setHeader('content-type', 'application/json');
    if (request.url === '/api/status-page/one-hub') {
      response.end(
        JSON.stringify({
          config: { slug: 'one-hub', title: 'One Hub' },
          publicGroupList: [{ id: 1, name: 'Relay', monitorList: [{ id: 7, name: 'OpenAI channel' }] }],
        }),
      );
    } else if (request.url === '/api/status-page/heartbeat/one-hub') {
      response.end(
        JSON.stringify({
          heartbeatList: { 7: [{ status: 1, time: '2026-11-28 10:00:00' }] },
          uptimeList: { '7_24': 0.9987 },
        }),
      );
    } else {
      response.statusCode = 404;
      response.end('{"ok":false}');
    }
  });
  return { server, calls };
}

describe('the Uptime Kuma status page on the dashboard', () => {
  let t: TestApp;
  let kuma: ReturnType<typeof fakeUptimeKuma>;
  let origin = '';

  const setOption = async (key: string, value: string) => {
    const answer = await t.app.inject({
      method: 'PUT',
      url: '/api/option/',
      headers: { authorization: ROOT_TOKEN },
      payload: { key, value },
    });
    expect(answer.statusCode).toBe(200);
  };
  const get = (path: string, cookie: string) =>
    t.app.inject({ method: 'GET', url: `/api/user/dashboard/uptimekuma/${path}`, headers: { cookie } });

  beforeAll(async () => {
    kuma = fakeUptimeKuma();
    await new Promise<void>((resolve) => kuma.server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(kuma.server.address() as AddressInfo).port}`;
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => kuma.server.close(resolve));
  });

  it('is refused while UptimeEnabled is off, and to callers who are not signed in', async () => {
    const { cookie } = await t.createUser('uptimeoff');
    expect((await get('status-page', cookie)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/dashboard/uptimekuma/status-page' })).statusCode).toBe(
      401,
    );
    expect(kuma.calls).toEqual([]);
  });

  it("relays the status page's groups and heartbeats as Uptime Kuma gives them, fetched once a minute", async () => {
    await setOption('UptimeDomain', `${origin}/`);
    await setOption('UptimePageName', 'one-hub');
    await setOption('UptimeEnabled', 'true');
    const { cookie } = await t.createUser('uptimeon');
    const page = await get('status-page', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.json().publicGroupList[0].monitorList[0]).toEqual({ id: 7, name: 'OpenAI channel' });
    const beats = await get('status-page/heartbeat', cookie);
    expect(beats.json()).toMatchObject({ uptimeList: { '7_24': 0.9987 }, heartbeatList: { 7: [{ status: 1 }] } });
    await get('status-page', cookie);
    await get('status-page/heartbeat', cookie);
    expect(kuma.calls).toEqual(['/api/status-page/one-hub', '/api/status-page/heartbeat/one-hub']);
  });

  it('answers a clear error when the page does not exist there', async () => {
    await setOption('UptimePageName', 'missing-page');
    const { cookie } = await t.createUser('uptimegone');
    const answer = await get('status-page', cookie);
    expect(answer.statusCode).toBe(502);
    expect(answer.json().message).toContain('Uptime Kuma answered HTTP 404');
  });
});
