/// <reference lib="dom" />
/**
 * The Midjourney and Async tasks screens, on rows the gateway really made: channels of types
 * 34/41/53 point at the stand-ins, a user and root submit through `/mj`, `/suno` and `/kling`,
 * the stand-ins settle the tasks and the server's poller (every second here) records the outcome.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MidjourneyProxyStandIn, startMidjourneyProxy } from '../apps/server/test/midjourney/proxy-stand-in.js';
import { type KlingApiStandIn, startKlingApi } from '../apps/server/test/tasks/kling-stand-in.js';
import { type SunoApiStandIn, startSunoApi } from '../apps/server/test/tasks/suno-stand-in.js';
import { adminApi, apiCall, sessionCookie } from './support/api.js';
import { closed, launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type PageOpener, type PageOptions, pageOpener, phone } from './support/pages.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-tasks';
const USER = { username: 'painter', password: 'painter-password-1' };

let server: RunningServer;
let browser: Browser;
let pages: PageOpener;
let mjProxy: MidjourneyProxyStandIn;
let suno: SunoApiStandIn;
let kling: KlingApiStandIn;
let userId = 0;
const ids = { mjDone: '', mjFailed: '', mjRoot: '', music: '', lyrics: '', video: '', rootMusic: '' };

interface Row {
  id: number;
  user_id: number;
  status: string;
}
interface MjRow extends Row {
  mj_id: string;
}
interface TaskRow extends Row {
  task_id: string;
}

const asRoot = <T>(method: string, path: string, body?: unknown) =>
  apiCall<T>(server.origin, method, path, { token: ROOT_TOKEN }, body);

async function addChannel(name: string, type: number, key: string, baseUrl: string, models: string[]) {
  await asRoot('POST', '/api/channel/', {
    name,
    type,
    key,
    base_url: baseUrl,
    models: models.join(','),
    group: 'default',
  });
  for (const model of models) {
    // A default price of the same model may exist already: replace it with a known one.
    await fetch(`${server.origin}/api/prices/single/${model}`, {
      method: 'DELETE',
      headers: { authorization: ROOT_TOKEN },
    });
    await asRoot('POST', '/api/prices/single', { model, type: 'times', channel_type: type, input: 1, output: 1 });
  }
}

/** A relay call with an API key; answers the parsed body after checking the HTTP status. */
async function relay(path: string, key: string, body: unknown): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (path.startsWith('/mj/')) headers['mj-api-secret'] = key;
  else headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${server.origin}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function submitAll(userKey: string, rootKey: string): Promise<void> {
  const imagine = async (key: string, prompt: string) =>
    String((await relay('/mj/submit/imagine', key, { prompt })).result);
  ids.mjDone = await imagine(userKey, 'a lighthouse at dawn, watercolour');
  ids.mjFailed = await imagine(userKey, 'a forbidden subject');
  ids.mjRoot = await imagine(rootKey, 'root drawing of a fox');
  const sunoTask = async (kind: string, key: string, body: unknown) =>
    String((await relay(`/suno/submit/${kind}`, key, body)).data);
  ids.music = await sunoTask('music', userKey, { prompt: 'sea shanty', mv: 'chirp-v3-0', title: 'Shanty' });
  ids.lyrics = await sunoTask('lyrics', userKey, { prompt: 'a song about rain' });
  ids.rootMusic = await sunoTask('music', rootKey, { prompt: 'root song', mv: 'chirp-v3-0' });
  const video = await relay('/kling/v1/videos/text2video', userKey, { prompt: 'a cat surfing' });
  ids.video = String((video.data as { task_id: string }).task_id);
}

/** Polls `read` until it equals `expected` (a hook cannot use expect.poll); fails with the last value. */
async function until<T>(read: () => Promise<T>, expected: T): Promise<void> {
  let last: T | undefined;
  for (let attempt = 0; attempt < 600; attempt++) {
    last = await read();
    if (JSON.stringify(last) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`still ${JSON.stringify(last)}, expected ${JSON.stringify(expected)}`);
}

const sortedEntries = (rows: Array<[string, string]>) => rows.sort(([a], [b]) => a.localeCompare(b));

/** The poller runs every second: wait until the lists show every settled outcome. */
async function waitForOutcomes(): Promise<void> {
  const mjStatus = async () =>
    sortedEntries(
      (await asRoot<{ data: MjRow[] }>('GET', '/api/mj/?size=100')).data.map((row) => [row.mj_id, row.status]),
    );
  await until(
    mjStatus,
    sortedEntries([
      [ids.mjDone, 'SUCCESS'],
      [ids.mjFailed, 'FAILURE'],
      [ids.mjRoot, 'SUCCESS'],
    ]),
  );
  const taskStatus = async () =>
    sortedEntries(
      (await asRoot<{ data: TaskRow[] }>('GET', '/api/task/?size=100')).data.map((row) => [row.task_id, row.status]),
    );
  await until(
    taskStatus,
    sortedEntries([
      [ids.music, 'SUCCESS'],
      [ids.lyrics, 'SUCCESS'],
      [ids.rootMusic, 'FAILURE'],
      [ids.video, 'SUCCESS'],
    ]),
  );
}

beforeAll(async () => {
  [mjProxy, suno, kling] = await Promise.all([startMidjourneyProxy(), startSunoApi(), startKlingApi()]);
  server = await startServer({
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    TASK_POLL_INTERVAL_SECONDS: '1',
  });
  await addChannel('mj proxy', 34, mjProxy.secret, mjProxy.baseUrl, ['mj_imagine']);
  await addChannel('suno api', 41, suno.key, suno.baseUrl, ['chirp-v3-0', 'suno_lyrics']);
  await addChannel('kling api', 53, kling.key, kling.baseUrl, ['kling-video_kling-v1_std_5']);

  const admin = adminApi(server.origin, ROOT_TOKEN);
  await admin.createUser(USER);
  const userCookie = await sessionCookie(server.origin, USER.username, USER.password);
  userId = (await apiCall<{ id: number }>(server.origin, 'GET', '/api/user/self', { cookie: userCookie })).id;
  await admin.addQuota(userId, 50_000_000);
  await admin.addQuota(1, 50_000_000);
  const newKey = async (auth: { token?: string; cookie?: string }) =>
    (
      await apiCall<{ key: string }>(server.origin, 'POST', '/api/token/', auth, {
        name: 'tasks',
        expired_time: -1,
        remain_quota: 0,
        unlimited_quota: true,
      })
    ).key;
  const userKey = await newKey({ cookie: userCookie });
  const rootKey = await newKey({ token: ROOT_TOKEN });

  await submitAll(userKey, rootKey);
  mjProxy.settle(ids.mjDone, 'SUCCESS');
  mjProxy.settle(ids.mjFailed, 'FAILURE', 'banned prompt detected');
  mjProxy.settle(ids.mjRoot, 'SUCCESS');
  suno.settle(ids.music, 'SUCCESS');
  suno.settle(ids.lyrics, 'SUCCESS');
  suno.settle(ids.rootMusic, 'FAILURE', 'suno quota exhausted');
  kling.settle(ids.video, 'SUCCESS');
  await waitForOutcomes();

  browser = await launchBrowser();
  pages = pageOpener(() => browser);
}, 180_000);

afterAll(async () => {
  await pages?.closeAll();
  await browser?.close();
  await server?.stop();
  await Promise.all([mjProxy?.close(), suno?.close(), kling?.close()]);
});

async function openScreen(who: 'root' | 'user', path: string, options: PageOptions = {}): Promise<Page> {
  const page = await pages.open(options);
  const [username, password] = who === 'root' ? ['root', ROOT_PASSWORD] : [USER.username, USER.password];
  await signInWithForm(page, server.origin, username, password);
  await page.goto(`${server.origin}${path}`);
  return page;
}

const rowIds = (page: Page, prefix: string) =>
  page
    .locator(`[data-testid^="${prefix}-row-"]`)
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid') ?? '').sort());

/** The database id of the row showing `taskId`, read back through the API. */
async function rowId(list: 'mj' | 'task', taskId: string): Promise<number> {
  if (list === 'mj') {
    const rows = (await asRoot<{ data: MjRow[] }>('GET', '/api/mj/?size=100')).data;
    return rows.find((row) => row.mj_id === taskId)?.id ?? 0;
  }
  const rows = (await asRoot<{ data: TaskRow[] }>('GET', '/api/task/?size=100')).data;
  return rows.find((row) => row.task_id === taskId)?.id ?? 0;
}

const naturalWidth = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((image) => (image as HTMLImageElement).naturalWidth);

describe('Midjourney screen', () => {
  it('shows an administrator every drawing with status, channel, a loading thumbnail and its preview', async () => {
    const page = await openScreen('root', '/panel/midjourney');
    const done = await rowId('mj', ids.mjDone);
    const failed = await rowId('mj', ids.mjFailed);
    const rootRow = await rowId('mj', ids.mjRoot);
    await expect
      .poll(() => rowIds(page, 'mj'))
      .toEqual([`mj-row-${done}`, `mj-row-${failed}`, `mj-row-${rootRow}`].sort());
    expect(await page.getByTestId(`mj-status-${done}`).getAttribute('data-state')).toBe('SUCCESS');
    expect(await page.getByTestId(`mj-status-${failed}`).getAttribute('data-state')).toBe('FAILURE');
    expect(await page.getByTestId(`mj-fail-${failed}`).textContent()).toContain('banned prompt detected');
    expect(await page.getByTestId(`mj-user-${done}`).textContent()).toBe(`#${userId}`);
    await page.getByTestId(`mj-channel-${done}`).waitFor();
    // Through the gateway, at the link signed for the task (an unsigned /mj/image is refused).
    expect(await page.getByTestId(`mj-image-${done}`).getAttribute('src')).toMatch(
      new RegExp(`^/mj/image/${ids.mjDone}\\?sig=[\\w-]{22}$`),
    );
    await expect.poll(() => naturalWidth(page, `mj-image-${done}`)).toBeGreaterThan(0);
    await screenshot(page, 'tasks-mj-admin-light');

    await page.getByTestId(`mj-image-${done}-open`).click();
    await page.getByTestId('mj-preview-image').waitFor();
    await expect.poll(() => naturalWidth(page, 'mj-preview-image')).toBeGreaterThan(0);
    await screenshot(page, 'tasks-mj-preview');
    await page.getByTestId('mj-preview-close').click();
    await closed(page, 'mj-preview');

    // The task-id filter narrows the list to the one drawing, and the URL keeps it.
    await page.getByTestId('mj-filter-mj_id').fill(ids.mjFailed);
    await page.getByTestId('mj-filter-submit').click();
    await expect.poll(() => rowIds(page, 'mj')).toEqual([`mj-row-${failed}`]);
    expect(new URL(page.url()).searchParams.get('mj_id')).toBe(ids.mjFailed);
  });

  it('reads in Chinese on a dark theme', async () => {
    const page = await openScreen('root', '/panel/midjourney', { language: 'zh_CN', dark: true });
    const done = await rowId('mj', ids.mjDone);
    expect(await page.getByTestId(`mj-status-${done}`).textContent()).toBe('成功');
    await expect.poll(() => naturalWidth(page, `mj-image-${done}`)).toBeGreaterThan(0);
    await screenshot(page, 'tasks-mj-admin-dark-zh');
  });

  it('shows a user only their own drawings, without the channel column, also on a phone', async () => {
    const page = await openScreen('user', '/panel/midjourney');
    const done = await rowId('mj', ids.mjDone);
    const failed = await rowId('mj', ids.mjFailed);
    await expect.poll(() => rowIds(page, 'mj')).toEqual([`mj-row-${done}`, `mj-row-${failed}`].sort());
    expect(await page.locator('[data-testid^="mj-channel-"]').count()).toBe(0);
    expect(await page.locator('[data-testid="mj-filter-channel_id"]').count()).toBe(0);
    await expect.poll(() => naturalWidth(page, `mj-image-${done}`)).toBeGreaterThan(0);
    await screenshot(page, 'tasks-mj-user');

    const small = await openScreen('user', '/panel/midjourney', { viewport: phone, language: 'zh_CN' });
    await expect.poll(() => rowIds(small, 'mj')).toEqual([`mj-row-${done}`, `mj-row-${failed}`].sort());
    await expect.poll(() => naturalWidth(small, `mj-image-${done}`)).toBeGreaterThan(0);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await screenshot(small, 'tasks-mj-phone-zh');
  });
});

describe('Async tasks screen', () => {
  it('shows an administrator songs, lyrics, videos, failures and the response body', async () => {
    const page = await openScreen('root', '/panel/task');
    const [music, lyrics, video, rootMusic] = await Promise.all(
      [ids.music, ids.lyrics, ids.video, ids.rootMusic].map((id) => rowId('task', id)),
    );
    await expect
      .poll(() => rowIds(page, 'task'))
      .toEqual([music, lyrics, video, rootMusic].map((id) => `task-row-${id}`).sort());
    expect(await page.getByTestId(`task-status-${music}`).getAttribute('data-state')).toBe('SUCCESS');
    expect(await page.getByTestId(`task-status-${rootMusic}`).getAttribute('data-state')).toBe('FAILURE');
    expect(await page.getByTestId(`task-fail-${rootMusic}`).textContent()).toContain('suno quota exhausted');
    expect(await page.getByTestId(`task-platform-${video}`).textContent()).toBe('Kling');
    await page.getByTestId(`task-channel-${music}`).waitFor();
    expect(await page.getByTestId(`task-result-${music}-clip-0-audio`).getAttribute('src')).toBe(
      `${suno.baseUrl}/files/${ids.music}-1.mp3`,
    );
    expect(await page.getByTestId(`task-result-${video}-0-video`).getAttribute('src')).toBe(
      `${kling.baseUrl}/videos/${ids.video}.mp4`,
    );
    await screenshot(page, 'tasks-task-admin-light');

    await page.getByTestId(`task-result-${lyrics}-lyrics`).click();
    expect(await page.getByTestId('task-lyrics-dialog-text').textContent()).toBe('la la la');
    await page.getByTestId('task-lyrics-dialog-close').click();
    await closed(page, 'task-lyrics-dialog');

    await page.getByTestId(`task-body-${video}`).click();
    const body = JSON.parse((await page.getByTestId('task-body-dialog-text').textContent()) ?? '{}');
    expect(body).toMatchObject({ task_id: ids.video, task_status: 'succeed' });
    await screenshot(page, 'tasks-task-body');
    await page.getByTestId('task-body-dialog-close').click();
    await closed(page, 'task-body-dialog');

    // Platform filter: only the Kling video is left.
    await page.getByTestId('task-filter-platform').click();
    await page.getByTestId('task-option-kling').click();
    await page.getByTestId('task-filter-submit').click();
    await expect.poll(() => rowIds(page, 'task')).toEqual([`task-row-${video}`]);
    expect(new URL(page.url()).searchParams.get('platform')).toBe('kling');
  });

  it('reads in Chinese on a dark theme', async () => {
    const page = await openScreen('root', '/panel/task', { language: 'zh_CN', dark: true });
    const music = await rowId('task', ids.music);
    expect(await page.getByTestId(`task-status-${music}`).textContent()).toBe('成功');
    await screenshot(page, 'tasks-task-admin-dark-zh');
  });

  it('shows a user only their own tasks, without the channel and user columns, also on a phone', async () => {
    const page = await openScreen('user', '/panel/task');
    const own = await Promise.all([ids.music, ids.lyrics, ids.video].map((id) => rowId('task', id)));
    const expected = own.map((id) => `task-row-${id}`).sort();
    await expect.poll(() => rowIds(page, 'task')).toEqual(expected);
    expect(await page.locator('[data-testid^="task-channel-"]').count()).toBe(0);
    expect(await page.locator('[data-testid^="task-user-"]').count()).toBe(0);
    await screenshot(page, 'tasks-task-user');

    const small = await openScreen('user', '/panel/task', { viewport: phone, language: 'zh_CN' });
    await expect.poll(() => rowIds(small, 'task')).toEqual(expected);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await screenshot(small, 'tasks-task-phone-zh');
  });
});
