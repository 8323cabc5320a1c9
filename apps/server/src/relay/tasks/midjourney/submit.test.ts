import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../../test/databases.js';
import { type MjGateway, startMjGateway } from '../../../../test/midjourney/gateway.js';
import { STAND_IN_PNG, startMidjourneyProxy } from '../../../../test/midjourney/proxy-stand-in.js';
import { providerType } from '../../../domain/channel-types/registry.js';

async function consumeLogs(g: MjGateway) {
  await g.server.app.relay.flush();
  return g.server.database.db.selectFrom('logs').selectAll().where('type', '=', 2).orderBy('id', 'asc').execute();
}

async function taskRows(g: MjGateway) {
  return g.server.database.db.selectFrom('midjourneys').selectAll().orderBy('id', 'asc').execute();
}

describe.each(availableDialects)('Midjourney submissions on %s', (dialect) => {
  let g: MjGateway;
  beforeAll(async () => {
    g = await startMjGateway(dialect);
  });
  afterAll(async () => {
    await g?.close();
  });
  beforeEach(() => {
    g.proxy.noFastAccount = false;
    g.proxy.received.length = 0;
  });

  it('charges an accepted imagine once, records it, and answers fetch and list-by-condition locally', async () => {
    const before = await g.quota();
    const logsBefore = (await consumeLogs(g)).length;
    const answer = await g.mj('/mj/submit/imagine', {
      prompt: 'a cat',
      state: 'mine',
      notifyHook: 'http://client.example/hook',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.code).toBe(1);
    const mjId = answer.body.result as string;
    expect(await g.quota()).toBe(before - 2000);
    const logs = await consumeLogs(g);
    expect(logs).toHaveLength(logsBefore + 1);
    expect(logs.at(-1)).toMatchObject({ model_name: 'mj_imagine', quota: 2000, user_id: g.userId });
    // The proxy got the channel key and the gateway's callback, not the client's hook.
    const sent = g.proxy.received.at(-1);
    expect(sent?.headers['mj-api-secret']).toBe(g.proxy.secret);
    expect(sent?.body?.notifyHook).toMatch(
      new RegExp(`^http://localhost:3000/mj/notify\\?channel=${g.channelId}&sig=[\\w-]{22}$`),
    );

    const fetched = await g.mj(`/mj/task/${mjId}/fetch`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({
      id: mjId,
      action: 'IMAGINE',
      prompt: 'a cat',
      state: 'mine',
      status: 'NOT_START',
    });
    expect(fetched.body.properties.oneHubClientNotifyHook).toBeUndefined();
    const listed = await g.mj('/mj/task/list-by-condition', { ids: [mjId, 'unknown-id'] });
    expect(listed.body.map((task: { id: string }) => task.id)).toEqual([mjId]);
    const row = (await taskRows(g)).find((candidate) => candidate.mj_id === mjId);
    expect(row).toMatchObject({ quota: 2000, mode: 'fast', channel_id: g.channelId, user_id: g.userId });
  });

  it("masks the channel's key and address out of the proxy's refusal", async () => {
    g.proxy.answerNext({
      body: { code: 4, description: `secret ${g.proxy.secret} refused`, result: `see ${g.proxy.baseUrl}/mj` },
    });
    const refused = await g.mj('/mj/submit/imagine', { prompt: 'x' });
    expect(refused).toEqual({
      status: 400,
      body: { description: 'secret [key] refused see [upstream]/mj', type: 'upstream_error', code: 4 },
    });
  });

  it('charges nothing when the proxy refuses, and renders its refusal in the Midjourney format', async () => {
    const before = await g.quota();
    const rows = (await taskRows(g)).length;
    g.proxy.answerNext(
      { body: { code: 4, description: 'banned prompt', result: null } },
      { body: { code: 30, description: 'queue full', result: null } },
      { status: 500, body: { error: 'boom' } },
      { body: { code: 1, description: 'ok', result: null } },
    );
    const banned = await g.mj('/mj/submit/imagine', { prompt: 'x' });
    expect(banned).toEqual({ status: 400, body: { description: 'banned prompt', type: 'upstream_error', code: 4 } });
    const full = await g.mj('/mj/submit/imagine', { prompt: 'x' });
    expect(full.status).toBe(429);
    expect(full.body.code).toBe(30);
    const broken = await g.mj('/mj/submit/imagine', { prompt: 'x' });
    expect(broken.status).toBe(502);
    expect(broken.body.type).toBe('upstream_error');
    const noId = await g.mj('/mj/submit/imagine', { prompt: 'x' });
    expect(noId.status).toBe(502);
    expect(await g.quota()).toBe(before);
    expect(await taskRows(g)).toHaveLength(rows);
  });

  it('passes an upload through without recording a task', async () => {
    const rows = (await taskRows(g)).length;
    const answer = await g.mj('/mj/submit/upload-discord-images', { base64Array: ['data:image/png;base64,AAAA'] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ code: 1, result: [`${g.proxy.baseUrl}/images/upload.png`] });
    expect(await taskRows(g)).toHaveLength(rows);
    expect((await consumeLogs(g)).at(-1)).toMatchObject({ model_name: 'mj_upload', quota: 0 });
  });

  it('answers code 21 as 1 and charges it', async () => {
    const before = await g.quota();
    g.proxy.answerNext({ body: { code: 21, description: 'exists', result: 'task-21' } });
    const answer = await g.mj('/mj/submit/imagine', { prompt: 'again' });
    expect(answer.body).toMatchObject({ code: 1, result: 'task-21' });
    expect(await g.quota()).toBe(before - 2000);
  });

  it('retries in relax mode when fast mode has no account, charging only the relax price', async () => {
    g.proxy.noFastAccount = true;
    const before = await g.quota();
    const answer = await g.mj('/mj/submit/imagine', { prompt: 'slowly' });
    expect(answer.status).toBe(200);
    expect(g.proxy.received.map((request) => request.mode)).toEqual(['', 'relax']);
    expect(g.proxy.received.map((request) => request.path)).toEqual(['/mj/submit/imagine', '/mj/submit/imagine']);
    expect(await g.quota()).toBe(before - 500);
    expect((await consumeLogs(g)).at(-1)).toMatchObject({ model_name: 'mj_relax_imagine', quota: 500 });
    const row = (await taskRows(g)).find((candidate) => candidate.mj_id === answer.body.result);
    expect(row?.mode).toBe('relax');
  });

  it('bills a mode prefix as that mode and passes the mode on as an account filter', async () => {
    const before = await g.quota();
    const answer = await g.mj('/mj-turbo/mj/submit/imagine', { prompt: 'quickly', accountFilter: { remark: 'a' } });
    expect(answer.body.code).toBe(1);
    const sent = g.proxy.received.at(-1);
    expect(sent?.path).toBe('/mj/submit/imagine');
    expect(sent?.body?.accountFilter).toEqual({ remark: 'a', modes: ['TURBO'] });
    expect(await g.quota()).toBe(before - 3000);
    expect((await consumeLogs(g)).at(-1)).toMatchObject({ model_name: 'mj_turbo_imagine' });
  });

  it('refuses unknown modes, unknown keys and unknown tasks in the Midjourney format', async () => {
    const badMode = await g.mj('/mj-slow/mj/submit/imagine', { prompt: 'x' });
    expect(badMode).toEqual({ status: 400, body: { description: '无效的加速模式', type: 'one_hub_error', code: 4 } });
    const badKey = await g.mj('/mj/submit/imagine', { prompt: 'x' }, { 'mj-api-secret': `sk-${'x'.repeat(48)}` });
    expect(badKey.status).toBe(401);
    expect(badKey.body).toMatchObject({ type: 'one_hub_error', code: 4 });
    expect(typeof badKey.body.description).toBe('string');
    const badRead = await g.mj('/mj/task/nope/fetch', undefined, { 'mj-api-secret': `sk-${'x'.repeat(48)}` });
    expect(badRead.status).toBe(401);
    expect(badRead.body).toMatchObject({ type: 'one_hub_error', code: 4 });
    const bearer = await g.mj('/mj/task/nope/fetch', undefined, {
      'mj-api-secret': '',
      authorization: `Bearer ${g.key}`,
    });
    expect(bearer.status).toBe(404);
    const before = await g.quota();
    const action = await g.mj('/mj/submit/action', { customId: 'MJ::JOB::upsample::1::x', taskId: 'nope' });
    expect(action.status).toBe(404);
    expect(action.body.code).toBe(4);
    expect(await g.quota()).toBe(before);
  });

  it('streams a finished task image at its signed link without a key, and 404s a task without one', async () => {
    const answer = await g.mj('/mj/submit/imagine', { prompt: 'picture' });
    const mjId = answer.body.result as string;
    const signature = g.server.services.links.sign('mj-image', mjId);
    expect((await fetch(`${g.url}/mj/image/${mjId}?sig=${signature}`)).status).toBe(404);
    g.proxy.settle(mjId, 'SUCCESS');
    await g.poller().poll();
    // Clients are given the image through the gateway (ServerAddress), not the proxy's address.
    const fetched = await g.mj(`/mj/task/${mjId}/fetch`);
    expect(fetched.body.imageUrl).toBe(`http://localhost:3000/mj/image/${mjId}?sig=${signature}`);
    const image = await fetch(`${g.url}${await g.imagePath(mjId)}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(STAND_IN_PNG);
  });

  it('sends an action to the channel holding the task, and an inpaint for free', async () => {
    // A second proxy, preferred for new tasks: the action must still go to the first task's channel.
    const other = await startMidjourneyProxy({ secret: 'other-secret' });
    try {
      const first = await g.mj('/mj/submit/imagine', { prompt: 'bound' });
      const mjId = first.body.result as string;
      const early = await g.mj('/mj/submit/change', { action: 'UPSCALE', index: 1, taskId: mjId });
      expect(early.status).toBe(400);
      const added = await g.admin('POST', '/api/channel/', {
        name: 'other mj',
        type: providerType('midjourney'),
        key: other.secret,
        base_url: other.baseUrl,
        models: 'mj_imagine,mj_upscale,mj_inpaint',
        group: 'default',
        priority: 10,
      });
      expect(added.status).toBe(200);
      g.proxy.settle(mjId, 'SUCCESS');
      await g.poller().poll();
      g.proxy.received.length = 0;
      const before = await g.quota();
      const upscale = await g.mj('/mj/submit/action', { customId: `MJ::JOB::upsample::1::${mjId}`, taskId: mjId });
      expect(upscale.body.code).toBe(1);
      expect(g.proxy.received.map((request) => request.path)).toEqual(['/mj/submit/action']);
      expect(other.received).toHaveLength(0);
      expect(await g.quota()).toBe(before - 1000);
      const inpaint = await g.mj('/mj/submit/action', { customId: `MJ::Inpaint::1::${mjId}::SOLO`, taskId: mjId });
      expect(inpaint.body.code).toBe(1);
      expect(await g.quota()).toBe(before - 1000);
      // A modal-opening action answered 21 keeps its code: the client must send the modal.
      g.proxy.answerNext({
        body: { code: 21, description: 'waiting', result: 'modal-1', properties: { status: 'MODAL' } },
      });
      const modal = await g.mj('/mj/submit/action', { customId: `MJ::Inpaint::1::${mjId}::SOLO`, taskId: mjId });
      expect(modal.body.code).toBe(21);
      expect((await g.mj('/mj/task/modal-1/fetch')).body).toMatchObject({ status: 'MODAL', prompt: 'bound' });
      expect(await g.quota()).toBe(before - 1000);
    } finally {
      await other.close();
    }
  });
});
