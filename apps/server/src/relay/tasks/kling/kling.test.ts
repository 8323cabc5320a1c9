import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../../test/databases.js';
import { startTaskGateway, type TaskGateway } from '../../../../test/tasks/gateway.js';
import { verifyKlingJwt } from '../../../../test/tasks/kling-stand-in.js';
import { klingAuthorization, signKlingJwt } from './jwt.js';

async function logsOfType(g: TaskGateway, type: number) {
  await g.server.app.relay.flush();
  return g.server.database.db.selectFrom('logs').selectAll().where('type', '=', type).orderBy('id', 'asc').execute();
}

async function taskRow(g: TaskGateway, taskId: string) {
  return g.server.database.db.selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirst();
}

describe('Kling JWT', () => {
  it('signs HS256 with iss = access key and a current nbf/exp, as jose verifies it; a key without | is a ready token', async () => {
    const token = await signKlingJwt('ak', 'sk');
    expect(await verifyKlingJwt(token, 'ak', 'sk')).toMatchObject({ iss: 'ak' });
    expect(await verifyKlingJwt(token, 'ak', 'other-secret')).toBeUndefined();
    expect(await verifyKlingJwt(token, 'other-access-key', 'sk')).toBeUndefined();
    expect(await verifyKlingJwt(await signKlingJwt('ak', 'sk', 1000), 'ak', 'sk')).toBeUndefined();
    expect(await klingAuthorization('ready-token')).toBe('Bearer ready-token');
    expect(await verifyKlingJwt((await klingAuthorization('ak|sk')).slice(7), 'ak', 'sk')).toBeDefined();
  });
});

describe.each(availableDialects)('Kling relay on %s', (dialect) => {
  let g: TaskGateway;
  beforeAll(async () => {
    g = await startTaskGateway(dialect);
  });
  afterAll(async () => {
    await g?.close();
  });
  beforeEach(() => {
    g.kling.received.length = 0;
  });

  it('fills the defaults, bills the derived model once, and follows the task to its video', async () => {
    const before = await g.quota();
    const answer = await g.call('/kling/v1/videos/text2video', {
      prompt: 'a cat surfing',
      callback_url: 'http://client.example/kling-hook',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ code: 0, data: { task_status: 'submitted' } });
    const taskId = answer.body.data.task_id as string;
    expect(await g.quota()).toBe(before - 3000);
    expect((await logsOfType(g, 2)).at(-1)).toMatchObject({ model_name: 'kling-video_kling-v1_std_5', quota: 3000 });
    const sent = g.kling.received.find((call) => call.path === '/v1/videos/text2video');
    expect(sent?.body).toMatchObject({ prompt: 'a cat surfing', model_name: 'kling-v1', mode: 'std', duration: '5' });
    expect(sent?.body?.callback_url).toBeUndefined();
    // The stand-in accepted the call only with a JWT signed by the channel's secret key.
    expect(g.kling.tokens.at(-1)).toMatchObject({ iss: g.kling.accessKey });
    expect(await taskRow(g, taskId)).toMatchObject({
      platform: 'kling',
      action: 'text2video',
      notify_hook: 'http://client.example/kling-hook',
    });

    const processing = await g.call(`/kling/v1/videos/text2video/${taskId}`);
    expect(processing.body).toMatchObject({ code: 0, data: { task_id: taskId, task_status: 'processing' } });
    g.kling.settle(taskId, 'SUCCESS');
    expect(await g.poller('kling').poll()).toBe(0);
    const done = await g.call(`/kling/v1/videos/text2video/${taskId}`);
    expect(done.body.data.task_status).toBe('succeed');
    const video = done.body.data.task_result.videos[0];
    expect((await fetch(video.url)).status).toBe(200);
    expect(await taskRow(g, taskId)).toMatchObject({ status: 'SUCCESS', progress: 100 });

    expect((await g.call(`/kling/v1/videos/text2video/${taskId}`, undefined, { user: 1 })).status).toBe(404);
    expect((await g.call(`/kling/v1/videos/image2video/${taskId}`)).status).toBe(404);
    expect(await g.quota()).toBe(before - 3000);
  });

  it('bills the model, mode and duration the client chose', async () => {
    const before = await g.quota();
    const answer = await g.call('/kling/v1/videos/image2video', {
      image: 'http://client.example/cat.png',
      model_name: 'kling-v1-6',
      mode: 'pro',
      duration: 10,
    });
    expect(answer.status).toBe(200);
    expect(await g.quota()).toBe(before - 4000);
    expect((await logsOfType(g, 2)).at(-1)?.model_name).toBe('kling-video_kling-v1-6_pro_10');
  });

  it('refuses bad classes, actions and durations in the Kling format, charging nothing', async () => {
    const before = await g.quota();
    for (const [path, body] of [
      ['/kling/v1/images/text2video', { prompt: 'x' }],
      ['/kling/v1/videos/lip-sync', { prompt: 'x' }],
      ['/kling/v1/videos/text2video', { prompt: 'x', duration: '7' }],
      ['/kling/v1/videos/text2video', { prompt: 'x', mode: 'turbo' }],
    ] as const) {
      const answer = await g.call(path, body);
      expect(answer.status, path).toBe(400);
      expect(typeof answer.body.code).toBe('string');
      expect(answer.body.message.length).toBeGreaterThan(0);
    }
    expect(g.kling.received).toHaveLength(0);
    expect(await g.quota()).toBe(before);
    const unknown = await g.call('/kling/v1/videos/text2video', { prompt: 'x' }, { key: 'sk-nobody' });
    expect(unknown.status).toBe(401);
    const read = await g.call('/kling/v1/videos/text2video/task-1', undefined, { key: 'sk-nobody' });
    expect(read.status).toBe(401);
  });

  it("masks the channel's address and host out of a refusal that quotes them", async () => {
    const host = new URL(g.kling.baseUrl).hostname;
    g.kling.answerNext({ status: 400, body: { code: 1201, message: `${g.kling.baseUrl} says no; ask ${host}` } });
    const refused = await g.call('/kling/v1/videos/text2video', { prompt: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('[upstream] says no; ask [upstream]');
  });

  it('charges nothing when Kling refuses the task', async () => {
    const before = await g.quota();
    g.kling.answerNext({ status: 400, body: { code: 1201, message: 'invalid prompt', request_id: 'r' } });
    const refused = await g.call('/kling/v1/videos/text2video', { prompt: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: '1201', message: 'invalid prompt' });
    expect(await g.quota()).toBe(before);
  });

  it('asks the channel about a task at most once per window, however often the client fetches it', async () => {
    const taskId = (await g.call('/kling/v1/videos/text2video', { prompt: 'x' })).body.data.task_id as string;
    const fetches = await Promise.all(Array.from({ length: 5 }, () => g.call(`/kling/v1/videos/text2video/${taskId}`)));
    expect(fetches.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    g.kling.settle(taskId, 'SUCCESS');
    expect((await g.call(`/kling/v1/videos/text2video/${taskId}`)).body.data.task_status).toBe('processing');
    const asked = g.kling.received.filter((call) => call.path === `/v1/videos/text2video/${taskId}`);
    expect(asked).toHaveLength(1);
    // The poller is not throttled: it brings the task up to date.
    await g.poller('kling').poll();
    expect((await g.call(`/kling/v1/videos/text2video/${taskId}`)).body.data.task_status).toBe('succeed');
  });

  it('refunds a failed video exactly once, with fetches racing the poller', async () => {
    const before = await g.quota();
    const taskId = (await g.call('/kling/v1/videos/text2video', { prompt: 'x' })).body.data.task_id as string;
    g.kling.settle(taskId, 'FAILURE', 'content rejected');
    await Promise.all([
      g.poller('kling').poll(),
      g.call(`/kling/v1/videos/text2video/${taskId}`),
      g.call(`/kling/v1/videos/text2video/${taskId}`),
      g.poller('kling').poll(),
    ]);
    expect(await g.quota()).toBe(before);
    const refunds = (await logsOfType(g, 4)).filter((log) => log.content === `异步任务执行失败 ${taskId}，补偿 3000`);
    expect(refunds).toHaveLength(1);
    const failed = await g.call(`/kling/v1/videos/text2video/${taskId}`);
    expect(failed.body.data).toMatchObject({ task_status: 'failed', task_status_msg: 'content rejected' });
  });
});
