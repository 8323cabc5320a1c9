import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTaskGateway, type TaskGateway } from '../../../test/tasks/gateway.js';

describe('GET /api/task/ and /api/task/self', () => {
  let g: TaskGateway;
  let music: string;
  let lyrics: string;
  let video: string;
  let othersMusic: string;

  beforeAll(async () => {
    g = await startTaskGateway();
    music = (await g.call('/suno/submit/music', { prompt: 'a song', mv: 'chirp-v3-5' })).body.data;
    lyrics = (await g.call('/suno/submit/lyrics', { prompt: 'words' })).body.data;
    video = (await g.call('/kling/v1/videos/text2video', { prompt: 'a cat' })).body.data.task_id;
    othersMusic = (await g.call('/suno/submit/music', { prompt: 'theirs' }, { user: 1 })).body.data;
    g.suno.settle(music, 'SUCCESS');
    g.suno.settle(othersMusic, 'SUCCESS');
    await g.poller('suno').poll();
    await g.poller('suno').poll();
  });
  afterAll(async () => {
    await g?.close();
  });

  const ids = (body: { data: { data: Array<{ task_id: string }> } }) => body.data.data.map((task) => task.task_id);

  it('lists every task to an administrator, with filters and paging', async () => {
    const all = await g.admin('GET', '/api/task/');
    expect(all.status).toBe(200);
    expect(all.body.success).toBe(true);
    expect(all.body.data).toMatchObject({ page: 1, size: 10, total_count: 4 });
    const row = all.body.data.data.find((task: { task_id: string }) => task.task_id === music);
    expect(row).toMatchObject({ platform: 'suno', action: 'MUSIC', status: 'SUCCESS', progress: 100, quota: 2000 });
    expect(typeof row.channel_id).toBe('number');
    // JSON columns come parsed; the administrator sees the clips as stored.
    expect(row.properties).toMatchObject({ prompt: 'a song', model: 'chirp-v3-5' });
    expect(row.data[0].user_id).toBe('suno-account-user-id');

    expect(ids((await g.admin('GET', '/api/task/?platform=kling')).body)).toEqual([video]);
    expect(ids((await g.admin('GET', `/api/task/?user_id=${g.users[1]?.id}`)).body)).toEqual([othersMusic]);
    expect(
      (await g.admin('GET', `/api/task/?user_ids=${g.users[0]?.id},${g.users[1]?.id}`)).body.data.total_count,
    ).toBe(4);
    expect(ids((await g.admin('GET', '/api/task/?action=LYRICS')).body)).toEqual([lyrics]);
    expect(ids((await g.admin('GET', `/api/task/?task_id=${video}`)).body)).toEqual([video]);
    expect((await g.admin('GET', '/api/task/?status=SUCCESS')).body.data.total_count).toBe(2);
    expect((await g.admin('GET', '/api/task/?start_timestamp=4000000000')).body.data.total_count).toBe(0);
    expect((await g.admin('GET', '/api/task/?end_timestamp=4000000000')).body.data.total_count).toBe(4);
    const paged = await g.admin('GET', '/api/task/?size=1&page=2&order=id');
    expect(paged.body.data).toMatchObject({ page: 2, size: 1, total_count: 4 });
    expect(ids(paged.body)).toEqual([lyrics]);
  });

  it('lists a user their own tasks without channels or Suno account ids', async () => {
    for (const url of ['/api/task/self', '/api/task/self/']) {
      const own = await g.console(url);
      expect(own.status).toBe(200);
      expect(own.body.data.total_count).toBe(3);
      expect(ids(own.body)).not.toContain(othersMusic);
      for (const task of own.body.data.data) expect(task.channel_id).toBeUndefined();
    }
    const mine = (await g.console(`/api/task/self?task_id=${music}`)).body.data.data[0];
    expect(mine.data[0].audio_url).toMatch(/\.mp3$/);
    expect(JSON.stringify(mine.data)).not.toContain('user_id');
    // user_id (admin-only) is ignored here: the list stays the caller's own.
    expect((await g.console(`/api/task/self?user_id=${g.users[1]?.id}`, 0)).body.data.total_count).toBe(3);
    expect(ids((await g.console('/api/task/self?platform=kling')).body)).toEqual([video]);
  });

  it('refuses non-administrators and bad filters', async () => {
    expect((await g.console('/api/task/')).status).toBe(403);
    const bad = await g.admin('GET', '/api/task/?user_ids=1,x');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('user_ids');
    expect((await g.admin('GET', '/api/task/?start_timestamp=soon')).status).toBe(400);
  });
});
