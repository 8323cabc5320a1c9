import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../../test/databases.js';
import { type MjGateway, startMjGateway } from '../../../../test/midjourney/gateway.js';

async function refundLogs(g: MjGateway, mjId: string) {
  return g.server.database.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', 4)
    .where('content', '=', `构图失败 ${mjId}，补偿 2000`)
    .execute();
}

async function imagine(g: MjGateway, prompt: string): Promise<string> {
  const answer = await g.mj('/mj/submit/imagine', { prompt });
  expect(answer.body.code).toBe(1);
  return answer.body.result as string;
}

describe.each(availableDialects)('Midjourney polling on %s', (dialect) => {
  let g: MjGateway;
  beforeAll(async () => {
    g = await startMjGateway(dialect, { TASK_TIMEOUT_MINUTES: '30' });
  });
  afterAll(async () => {
    await g?.close();
  });

  it('follows a task through progress to SUCCESS', async () => {
    const mjId = await imagine(g, 'progressing');
    g.proxy.progress(mjId, '50%');
    expect(await g.poller().poll()).toBeGreaterThanOrEqual(1);
    expect((await g.mj(`/mj/task/${mjId}/fetch`)).body).toMatchObject({ status: 'IN_PROGRESS', progress: '50%' });
    g.proxy.settle(mjId, 'SUCCESS');
    await g.poller().poll();
    const done = (await g.mj(`/mj/task/${mjId}/fetch`)).body;
    expect(done).toMatchObject({
      status: 'SUCCESS',
      progress: '100%',
      imageUrl: `http://localhost:3000${await g.imagePath(mjId)}`,
    });
    expect(done.imageUrl).toContain(`/mj/image/${mjId}?sig=`);
    const stored = await g.server.database.db
      .selectFrom('midjourneys')
      .select('image_url')
      .where('mj_id', '=', mjId)
      .executeTakeFirstOrThrow();
    expect(stored.image_url).toBe(`${g.proxy.baseUrl}/images/${mjId}.png`);
    expect(done.buttons[0].customId).toContain('upsample');
    expect(done.finishTime).toBeGreaterThan(0);
  });

  it('refunds a failed task exactly once when two polls and a notify race', async () => {
    const before = await g.quota();
    const mjId = await imagine(g, 'doomed');
    expect(await g.quota()).toBe(before - 2000);
    g.proxy.settle(mjId, 'FAILURE', 'banned prompt');
    const [, , notified] = await Promise.all([
      g.poller().poll(),
      g.poller().poll(),
      fetch(`${g.url}${g.notifyPath()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: mjId, status: 'FAILURE' }),
      }),
    ]);
    expect(notified.status).toBe(200);
    await g.poller().poll();
    expect(await g.quota()).toBe(before);
    expect(await refundLogs(g, mjId)).toHaveLength(1);
    expect(JSON.parse((await refundLogs(g, mjId))[0]?.metadata ?? '')).toEqual({
      event: 'task_refund',
      kind: 'midjourney',
      task_id: mjId,
      quota: 2000,
    });
    expect((await g.mj(`/mj/task/${mjId}/fetch`)).body).toMatchObject({
      status: 'FAILURE',
      failReason: 'banned prompt',
    });
  });

  it('fails and refunds a task that outlives the task timeout', async () => {
    const before = await g.quota();
    const mjId = await imagine(g, 'stuck');
    await g.server.database.db
      .updateTable('midjourneys')
      .set({ submit_time: Date.now() - 31 * 60_000 })
      .where('mj_id', '=', mjId)
      .execute();
    await g.poller().poll();
    expect(await g.quota()).toBe(before);
    const task = (await g.mj(`/mj/task/${mjId}/fetch`)).body;
    expect(task.status).toBe('FAILURE');
    expect(task.failReason).toContain('timed out');
    expect(await refundLogs(g, mjId)).toHaveLength(1);
  });

  it('takes from a notify only what the channel confirms, and refuses unknown tasks', async () => {
    const mjId = await imagine(g, 'forged');
    const notifyPath = g.notifyPath();
    const post = (body: unknown) =>
      fetch(`${g.url}${notifyPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    g.proxy.progress(mjId, '70%');
    const forged = await post({ id: mjId, status: 'SUCCESS', imageUrl: 'http://evil.example/x.png' });
    expect(forged.status).toBe(200);
    expect((await g.mj(`/mj/task/${mjId}/fetch`)).body).toMatchObject({
      status: 'IN_PROGRESS',
      progress: '70%',
      imageUrl: '',
    });
    const unknown = await post({ id: 'no-such-task' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 4 });
  });

  it("posts each change to the client's notifyHook when MjNotifyEnabled is on", async () => {
    const posted: Array<Record<string, unknown>> = [];
    let heard: (() => void) | undefined;
    const hook = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      request.on('end', () => {
        posted.push(JSON.parse(text) as Record<string, unknown>);
        response.end('ok');
        if (posted.some((task) => task.status === 'SUCCESS')) heard?.();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const enabled = await g.admin('PUT', '/api/option/', { key: 'MjNotifyEnabled', value: 'true' });
    expect(enabled.status).toBe(200);
    // The hook listens on loopback: only the explicit setting lets the gateway post there.
    expect((await g.admin('PUT', '/api/option/', { key: 'MjNotifyAllowPrivate', value: 'true' })).status).toBe(200);
    try {
      const notifyHook = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const answer = await g.mj('/mj/submit/imagine', { prompt: 'tell me', notifyHook });
      const mjId = answer.body.result as string;
      const success = new Promise<void>((resolve) => {
        heard = resolve;
      });
      g.proxy.settle(mjId, 'SUCCESS');
      await g.poller().poll();
      await success;
      expect(posted.at(-1)).toMatchObject({ id: mjId, status: 'SUCCESS', progress: '100%' });
      expect(posted.at(-1)?.properties).not.toHaveProperty('oneHubClientNotifyHook');
    } finally {
      await g.admin('PUT', '/api/option/', { key: 'MjNotifyEnabled', value: 'false' });
      await g.admin('PUT', '/api/option/', { key: 'MjNotifyAllowPrivate', value: 'false' });
      await new Promise<void>((resolve) => hook.close(() => resolve()));
    }
  });

  it('backs off a channel whose listing fails, keeping its tasks unfinished', async () => {
    const mjId = await imagine(g, 'listing broken');
    g.proxy.settle(mjId, 'SUCCESS');
    g.proxy.failListing = true;
    try {
      await g.poller().poll();
    } finally {
      g.proxy.failListing = false;
    }
    expect((await g.mj(`/mj/task/${mjId}/fetch`)).body.status).toBe('NOT_START');
  });

  it('finishes a task after a restart on the same database', async () => {
    const mjId = await imagine(g, 'across restarts');
    await g.restart();
    g.proxy.settle(mjId, 'SUCCESS');
    await g.poller().poll();
    expect((await g.mj(`/mj/task/${mjId}/fetch`)).body.status).toBe('SUCCESS');
  });

  it('lists tasks for administrators and users with their filters', async () => {
    const mjId = await imagine(g, 'listed');
    const row = await g.server.database.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('mj_id', '=', mjId)
      .executeTakeFirstOrThrow();
    const submit = Number(row.submit_time);
    const all = await g.admin(
      'GET',
      `/api/mj/?channel_id=${g.channelId}&mj_id=${mjId}&start_timestamp=${submit}&end_timestamp=${submit}`,
    );
    expect(all.status).toBe(200);
    expect(all.body.data.total_count).toBe(1);
    expect(all.body.data.data[0]).toMatchObject({
      mj_id: mjId,
      channel_id: g.channelId,
      user_id: g.userId,
      quota: 2000,
    });
    const later = await g.admin('GET', `/api/mj/?start_timestamp=${submit + 1}&mj_id=${mjId}`);
    expect(later.body.data.total_count).toBe(0);
    const otherChannel = await g.admin('GET', `/api/mj/?channel_id=${g.channelId + 1000}`);
    expect(otherChannel.body.data.total_count).toBe(0);

    const own = await g.server.app.inject({
      method: 'GET',
      url: `/api/mj/self/?mj_id=${mjId}`,
      headers: { cookie: g.cookie },
    });
    expect(own.statusCode).toBe(200);
    const ownRow = own.json().data.data[0];
    expect(ownRow.mj_id).toBe(mjId);
    expect(ownRow).not.toHaveProperty('channel_id');
    const byToken = await g.server.app.inject({
      method: 'GET',
      url: `/api/mj/self?token_id=${Number(row.token_id) + 1000}`,
      headers: { cookie: g.cookie },
    });
    expect(byToken.json().data.total_count).toBe(0);
    const denied = await g.server.app.inject({ method: 'GET', url: '/api/mj/', headers: { cookie: g.cookie } });
    expect(denied.statusCode).toBe(403);
    const bad = await g.admin('GET', '/api/mj/?start_timestamp=soon');
    expect(bad.status).toBe(400);
  });
});
