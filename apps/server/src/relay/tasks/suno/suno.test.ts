import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../../test/databases.js';
import { startTaskGateway, type TaskGateway } from '../../../../test/tasks/gateway.js';

async function logsOfType(g: TaskGateway, type: number) {
  await g.server.app.relay.flush();
  return g.server.database.db.selectFrom('logs').selectAll().where('type', '=', type).orderBy('id', 'asc').execute();
}

async function taskRow(g: TaskGateway, taskId: string) {
  return g.server.database.db.selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirst();
}

describe.each(availableDialects)('Suno relay on %s', (dialect) => {
  let g: TaskGateway;
  beforeAll(async () => {
    g = await startTaskGateway(dialect);
  });
  afterAll(async () => {
    await g?.close();
  });
  beforeEach(() => {
    g.suno.failFetch = false;
    g.suno.received.length = 0;
  });

  async function submitMusic(body: Record<string, unknown> = { mv: 'chirp-v3-5', prompt: 'a song' }) {
    const answer = await g.call('/suno/submit/music', body);
    expect(answer.status).toBe(200);
    return answer.body.data as string;
  }

  it('charges a music task once, polls it to SUCCESS and answers fetch by id and by ids', async () => {
    const before = await g.quota();
    const consumeBefore = (await logsOfType(g, 2)).length;
    const answer = await g.call('/suno/submit/music', {
      mv: 'chirp-v3-5',
      prompt: 'a song',
      notify_hook: 'http://client.example/hook',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ code: 'success' });
    const taskId = answer.body.data as string;
    expect(await g.quota()).toBe(before - 2000);
    const consume = await logsOfType(g, 2);
    expect(consume).toHaveLength(consumeBefore + 1);
    expect(consume.at(-1)).toMatchObject({ model_name: 'chirp-v3-5', quota: 2000, user_id: g.users[0]?.id });
    const sent = g.suno.received.find((call) => call.path === '/suno/submit/music');
    expect(sent?.headers.authorization).toBe(`Bearer ${g.suno.key}`);
    expect(sent?.body).toMatchObject({ mv: 'chirp-v3-5', prompt: 'a song' });
    expect(sent?.body?.notify_hook).toBeUndefined();
    const row = await taskRow(g, taskId);
    expect(row).toMatchObject({
      platform: 'suno',
      action: 'MUSIC',
      status: 'SUBMITTED',
      notify_hook: 'http://client.example/hook',
    });
    expect(Number(row?.quota)).toBe(2000);

    const first = await g.call(`/suno/fetch/${taskId}`);
    expect(first.body).toMatchObject({
      code: 'success',
      data: { task_id: taskId, status: 'SUBMITTED', progress: '0%' },
    });
    expect(await g.poller('suno').poll()).toBeGreaterThanOrEqual(1);
    expect((await taskRow(g, taskId))?.status).toBe('QUEUED');
    g.suno.settle(taskId, 'SUCCESS');
    await g.poller('suno').poll();

    const done = await g.call(`/suno/fetch/${taskId}`);
    expect(done.body.data).toMatchObject({ task_id: taskId, action: 'MUSIC', status: 'SUCCESS', progress: '100%' });
    const clip = done.body.data.data[0];
    expect(clip.audio_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/.+\.mp3$/);
    expect((await fetch(clip.audio_url)).status).toBe(200);
    const many = await g.call('/suno/fetch', { ids: [taskId, 'no-such-task'] });
    expect(many.status).toBe(200);
    expect(many.body.data.map((task: { task_id: string }) => task.task_id)).toEqual([taskId]);
    // Charged once, however often it was fetched.
    expect(await g.quota()).toBe(before - 2000);

    // Another user sees nothing of it.
    const foreign = await g.call(`/suno/fetch/${taskId}`, undefined, { user: 1 });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'task_not_exist', data: null });
    expect((await g.call('/suno/fetch', { ids: [taskId] }, { user: 1 })).body.data).toEqual([]);
  });

  it('bills lyrics as suno_lyrics and music without mv as chirp-v3-0', async () => {
    const before = await g.quota();
    const lyrics = await g.call('/suno/submit/lyrics', { prompt: 'words' });
    expect(lyrics.status).toBe(200);
    expect(await g.quota()).toBe(before - 500);
    await submitMusic({ prompt: 'no model' });
    expect(await g.quota()).toBe(before - 1500);
    const models = (await logsOfType(g, 2)).slice(-2).map((log) => log.model_name);
    expect(models).toEqual(['suno_lyrics', 'chirp-v3-0']);
    expect((await taskRow(g, lyrics.body.data))?.action).toBe('LYRICS');
  });

  it("masks the channel's key, address and host out of a refusal that quotes them", async () => {
    const host = new URL(g.suno.baseUrl).host;
    g.suno.answerNext({
      status: 400,
      body: { code: 'bad', message: `key ${g.suno.key} refused at ${g.suno.baseUrl}/suno (${host})`, data: null },
    });
    const refused = await g.call('/suno/submit/music', { prompt: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('key [key] refused at [upstream]/suno ([upstream])');
  });

  it('charges nothing when the Suno-API refuses or fails', async () => {
    const before = await g.quota();
    const rowsBefore = await g.server.database.db.selectFrom('tasks').select('id').execute();
    const consumeBefore = (await logsOfType(g, 2)).length;
    g.suno.answerNext({
      status: 400,
      body: { code: 'prompt_rejected', message: 'the prompt is not allowed', data: null },
    });
    const refused = await g.call('/suno/submit/music', { prompt: 'bad' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 'prompt_rejected', message: 'the prompt is not allowed', data: null });
    g.suno.answerNext({ status: 502, body: 'not json' });
    const broken = await g.call('/suno/submit/music', { prompt: 'x' });
    expect(broken.status).toBeGreaterThanOrEqual(500);
    expect(JSON.stringify(broken.body)).not.toContain(g.suno.baseUrl);
    expect(await g.quota()).toBe(before);
    expect(await g.server.database.db.selectFrom('tasks').select('id').execute()).toHaveLength(rowsBefore.length);
    expect(await logsOfType(g, 2)).toHaveLength(consumeBefore);
  });

  it('refunds a failed task exactly once, whatever polls and fetches race', async () => {
    const before = await g.quota();
    const taskId = await submitMusic();
    g.suno.settle(taskId, 'FAILURE', 'the model refused');
    const poller = g.poller('suno');
    await Promise.all([
      poller.poll(),
      poller.poll(),
      g.call(`/suno/fetch/${taskId}`),
      g.call('/suno/fetch', { ids: [taskId] }),
      poller.poll(),
    ]);
    await poller.poll();
    expect(await g.quota()).toBe(before);
    const refunds = (await logsOfType(g, 4)).filter((log) => log.content === `异步任务执行失败 ${taskId}，补偿 2000`);
    expect(refunds).toHaveLength(1);
    expect(await taskRow(g, taskId)).toMatchObject({ status: 'FAILURE', fail_reason: 'the model refused' });
  });

  it('fails and refunds a task older than the timeout', async () => {
    const before = await g.quota();
    const taskId = await submitMusic();
    await g.server.database.db.updateTable('tasks').set({ submit_time: 1000 }).where('task_id', '=', taskId).execute();
    await g.poller('suno').poll();
    const row = await taskRow(g, taskId);
    expect(row?.status).toBe('FAILURE');
    expect(row?.fail_reason).toContain('timed out');
    expect(await g.quota()).toBe(before);
  });

  it('keeps polling after a restart: a new server on the same database finishes the task', async () => {
    const taskId = await submitMusic();
    await g.poller('suno').poll();
    await g.restart();
    g.suno.settle(taskId, 'SUCCESS');
    await g.poller('suno').poll();
    expect((await taskRow(g, taskId))?.status).toBe('SUCCESS');
  });

  it('backs off a channel whose fetch fails, without failing its tasks', async () => {
    const taskId = await submitMusic();
    g.suno.failFetch = true;
    await g.poller('suno').poll();
    expect((await taskRow(g, taskId))?.status).toBe('SUBMITTED');
  });

  it('refuses unknown keys and actions in the Suno format', async () => {
    const unknown = await g.call('/suno/submit/music', { prompt: 'x' }, { key: 'sk-unknown-key' });
    expect(unknown.status).toBe(401);
    expect(typeof unknown.body.code).toBe('string');
    expect(typeof unknown.body.message).toBe('string');
    // A read is admitted before its handler runs, like a submission.
    const read = await g.call('/suno/fetch/task-1', undefined, { key: 'sk-unknown-key' });
    expect(read.status).toBe(401);
    expect(typeof read.body.message).toBe('string');
    const action = await g.call('/suno/submit/video', { prompt: 'x' });
    expect(action.status).toBe(400);
    expect(action.body.message).toContain('music or lyrics');
    const ids = await g.call('/suno/fetch', { ids: 'abc' });
    expect(ids.status).toBe(400);
  });
});
