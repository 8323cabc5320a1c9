import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../../test/databases.js';
import { type MjGateway, startMjGateway } from '../../../../test/midjourney/gateway.js';
import { STAND_IN_PNG } from '../../../../test/midjourney/proxy-stand-in.js';
import { partialPost } from '../../../../test/partial-request.js';

/**
 * Issue 29: the Midjourney routes that take no key (the proxy's callback, a task's image) are
 * reached only through links the gateway signed, checked before a body is read; a client's
 * notifyHook and a proxy's image address go through the private-address guard; a callback
 * refreshes a task from its channel at most once per window.
 */

async function imagine(g: MjGateway, body: Record<string, unknown> = {}) {
  return g.mj('/mj/submit/imagine', { prompt: 'keyless', ...body });
}

function post(g: MjGateway, path: string, body: unknown) {
  return fetch(`${g.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function setOption(g: MjGateway, key: string, value: string) {
  expect((await g.admin('PUT', '/api/option/', { key, value })).status).toBe(200);
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

describe.each(availableDialects)('Midjourney keyless routes on %s', (dialect) => {
  let g: MjGateway;
  /** A loopback server that is not the proxy: what a hostile hook or image address would reach. */
  let inside: Server;
  let insidePort = 0;
  const insideHits: string[] = [];
  beforeAll(async () => {
    g = await startMjGateway(dialect);
    inside = createServer((request, response) => {
      insideHits.push(`${request.method} ${request.url}`);
      request.resume();
      response.writeHead(200, { 'content-type': 'image/png' }).end(STAND_IN_PNG);
    });
    insidePort = await listen(inside);
  });
  afterAll(async () => {
    await g?.close();
    await new Promise((resolve) => inside?.close(resolve));
  });
  beforeEach(() => {
    insideHits.length = 0;
    g.proxy.received.length = 0;
  });

  it('refuses an unsigned /mj/notify (and its mode copies) with 401 before reading the body', async () => {
    for (const path of ['/mj/notify', '/mj-fast/mj/notify', '/mj-relax/mj/notify', '/mj-turbo/mj/notify']) {
      // Declares 1 MiB and sends a few bytes: a server that waited for the body would never answer.
      const answer = await partialPost(g.url, path, {}, 1024 * 1024, '{"id":');
      expect(answer.status, path).toBe(401);
      expect(answer.headers.connection, path).toBe('close');
      expect(JSON.parse(answer.body)).toMatchObject({ code: 4 });
    }
  });

  it('refuses a wrongly signed /mj/notify with 403 before reading the body', async () => {
    await imagine(g);
    const signed = new URL(g.notifyPath(), g.url);
    const sig = signed.searchParams.get('sig') as string;
    const otherChannel = `/mj/notify?channel=${g.channelId + 1}&sig=${sig}`;
    const flipped = `/mj/notify?channel=${g.channelId}&sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [otherChannel, flipped, `/mj/notify?channel=${g.channelId}&sig=short`]) {
      const answer = await partialPost(g.url, path, {}, 1024 * 1024, '{"id":');
      expect(answer.status, path).toBe(403);
      expect(answer.headers.connection, path).toBe('close');
    }
    expect(g.proxy.received.filter((call) => call.path.endsWith('/fetch'))).toHaveLength(0);
  });

  it('accepts a signed notify for its own channel only, and caps its body at 16 KiB', async () => {
    const mjId = (await imagine(g)).body.result as string;
    const path = g.notifyPath();
    expect(path).toContain(`channel=${g.channelId}&sig=`);
    g.proxy.progress(mjId, '40%');
    const accepted = await post(g, path, { id: mjId });
    expect(accepted.status).toBe(200);
    const view = await g.mj(`/mj/task/${mjId}/fetch`);
    expect(view.body).toMatchObject({ status: 'IN_PROGRESS', progress: '40%' });
    // The proxy echoes its notifyHook in the task's properties: a client never learns the signed callback.
    expect(g.proxy.tasks.get(mjId)?.properties.notifyHook).toContain('sig=');
    expect(JSON.stringify(view.body)).not.toContain('sig=');
    // A task of another channel under this channel's signature is not found.
    await g.server.database.db
      .updateTable('midjourneys')
      .set({ channel_id: g.channelId + 1000 })
      .where('mj_id', '=', mjId)
      .execute();
    expect((await post(g, path, { id: mjId })).status).toBe(404);
    const large = await partialPost(g.url, path, {}, 64 * 1024, '{"id":');
    expect(large.status).toBe(413);
  });

  it('refreshes a task from its channel at most once per window however often it is notified', async () => {
    const mjId = (await imagine(g)).body.result as string;
    const path = g.notifyPath();
    g.proxy.progress(mjId, '10%');
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(g, path, { id: mjId })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const fetches = g.proxy.received.filter((call) => call.path === `/mj/task/${mjId}/fetch`);
    expect(fetches).toHaveLength(1);
    expect((await g.mj(`/mj/task/${mjId}/fetch`)).body.progress).toBe('10%');
  });

  it('refuses a notifyHook at a private address with 400 at submit, charging nothing', async () => {
    const before = await g.quota();
    for (const hook of [
      `http://127.0.0.1:${insidePort}/hook`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://localhost/hook',
      'http://10.0.0.5/hook',
    ]) {
      const answer = await imagine(g, { notifyHook: hook });
      expect(answer.status, hook).toBe(400);
      expect(answer.body.description, hook).toContain('notifyHook');
    }
    expect(g.proxy.received).toHaveLength(0);
    expect(await g.quota()).toBe(before);
  });

  it('posts to a private notifyHook only when MjNotifyAllowPrivate is on', async () => {
    await setOption(g, 'MjNotifyEnabled', 'true');
    try {
      // Stored before the rule (or written around it): the post itself is refused by the guard.
      const mjId = (await imagine(g, { notifyHook: 'http://hooks.example.invalid/hook' })).body.result as string;
      const row = await g.server.database.db
        .selectFrom('midjourneys')
        .select('properties')
        .where('mj_id', '=', mjId)
        .executeTakeFirstOrThrow();
      const properties = {
        ...JSON.parse(row.properties),
        oneHubClientNotifyHook: `http://127.0.0.1:${insidePort}/old`,
      };
      await g.server.database.db
        .updateTable('midjourneys')
        .set({ properties: JSON.stringify(properties) })
        .where('mj_id', '=', mjId)
        .execute();
      g.proxy.progress(mjId, '20%');
      await g.poller().poll();
      expect((await g.mj(`/mj/task/${mjId}/fetch`)).body.progress).toBe('20%');

      await setOption(g, 'MjNotifyAllowPrivate', 'true');
      const allowed = await imagine(g, { notifyHook: `http://127.0.0.1:${insidePort}/allowed` });
      expect(allowed.status).toBe(200);
      g.proxy.progress(allowed.body.result as string, '30%');
      await g.poller().poll();
      await expect.poll(() => insideHits.includes('POST /allowed')).toBe(true);
      expect(insideHits).not.toContain('POST /old');
    } finally {
      await setOption(g, 'MjNotifyEnabled', 'false');
      await setOption(g, 'MjNotifyAllowPrivate', 'false');
    }
  });

  it('serves /mj/image/:id only at its signed link', async () => {
    const mjId = (await imagine(g)).body.result as string;
    g.proxy.settle(mjId, 'SUCCESS');
    await g.poller().poll();
    const unsigned = await fetch(`${g.url}/mj/image/${mjId}`);
    expect(unsigned.status).toBe(401);
    const other = (await imagine(g)).body.result as string;
    const otherSignature = g.server.services.links.sign('mj-image', other);
    expect((await fetch(`${g.url}/mj/image/${mjId}?sig=${otherSignature}`)).status).toBe(403);
    // A signature for the callback is no signature for an image.
    const notifySignature = g.server.services.links.sign('mj-notify', mjId);
    expect((await fetch(`${g.url}/mj/image/${mjId}?sig=${notifySignature}`)).status).toBe(403);
    const signed = await fetch(`${g.url}${await g.imagePath(mjId)}`);
    expect(signed.status).toBe(200);
    expect(Buffer.from(await signed.arrayBuffer())).toEqual(STAND_IN_PNG);
  });

  it("gives the console the task's signed image link, which loads without a key", async () => {
    const mjId = (await imagine(g)).body.result as string;
    g.proxy.settle(mjId, 'SUCCESS');
    await g.poller().poll();
    const listed = await g.server.app.inject({
      method: 'GET',
      url: `/api/mj/self?mj_id=${mjId}`,
      headers: { cookie: g.cookie },
    });
    const src = listed.json().data.data[0].image_src as string;
    expect(src).toBe(await g.imagePath(mjId));
    expect((await fetch(`${g.url}${src}`)).status).toBe(200);
    const unfinished = (await imagine(g)).body.result as string;
    const pending = await g.admin('GET', `/api/mj/?mj_id=${unfinished}`);
    expect(pending.body.data.data[0].image_src).toBe('');
  });

  it("refuses to fetch an image the proxy reported at a private address other than the proxy's own", async () => {
    const mjId = (await imagine(g)).body.result as string;
    g.proxy.settle(mjId, 'SUCCESS');
    Object.assign(g.proxy.tasks.get(mjId) ?? {}, { imageUrl: `http://127.0.0.1:${insidePort}/secret.png` });
    await g.poller().poll();
    const path = await g.imagePath(mjId);
    const refused = await fetch(`${g.url}${path}`);
    expect(refused.status).toBe(502);
    expect(((await refused.json()) as { description: string }).description).toContain('private address');
    expect(insideHits).toHaveLength(0);

    await setOption(g, 'ChatImageAllowPrivate', 'true');
    try {
      const allowed = await fetch(`${g.url}${path}`);
      expect(allowed.status).toBe(200);
      expect(insideHits).toEqual(['GET /secret.png']);
    } finally {
      await setOption(g, 'ChatImageAllowPrivate', 'false');
    }
  });
});
