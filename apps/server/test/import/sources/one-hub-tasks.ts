import type { Kysely } from 'kysely';
import type { Database, DialectName } from '../../../src/platform/db/index.js';
import { insertLegacyRows, type SourceKysely } from '../fixture.js';
import { NOW } from './one-hub-rows.js';

/**
 * Asynchronous tasks and Telegram menus of the One Hub fixture. bob (user 3) owns the rows a merge
 * carries, on the mock channel (1) with his key (6); alice's (user 2) are left out by a merge,
 * whose target already has an alice.
 */
export const oneHubTasks = {
  bobsImage: {
    code: 1,
    action: 'UPSCALE',
    mj_id: '1712345678901234',
    prompt: '一只猫 --v 6',
    prompt_en: 'a cat --v 6',
    description: 'Submit success',
    state: 'order-7',
    submit_time: 1_712_345_678_901,
    start_time: 1_712_345_679_500,
    finish_time: 1_712_345_701_250,
    image_url: 'https://cdn.example.com/mj/1.png',
    status: 'SUCCESS',
    progress: '100%',
    fail_reason: '',
    quota: 50_000,
    buttons: '[{"customId":"MJ::JOB::upsample::1::abc","label":"U1","emoji":"","style":2,"type":2}]',
    properties: '{"finalPrompt":"a cat --v 6","finalZhPrompt":""}',
  },
  bobsSong: {
    created_at: NOW - 3600,
    updated_at: NOW - 3000,
    task_id: 'c0ffee00-suno-0001',
    platform: 'suno',
    quota: 1000,
    action: 'MUSIC',
    status: 'SUCCESS',
    fail_reason: '',
    submit_time: NOW - 3600,
    start_time: NOW - 3590,
    finish_time: NOW - 3000,
    progress: 100,
    properties: { model: 'chirp-v3-5', title: 'Rain' },
    data: [{ id: 'clip-1', audio_url: 'https://cdn.example.com/clip-1.mp3', status: 'complete' }],
  },
  menus: [
    { command: 'start', description: 'Say hello', parse_mode: 'MarkdownV2', reply_message: 'Hello\\! Send /help' },
    { command: 'help', description: 'What I can do', parse_mode: '', reply_message: 'Ask me anything.' },
  ],
};

export async function insertTasks(db: SourceKysely, dialect: DialectName): Promise<void> {
  await insertLegacyRows(db, dialect, 'midjourneys', [
    { user_id: 2, action: 'IMAGINE', mj_id: '1', prompt: 'a cat', status: 'FAILURE', channel_id: 2, token_id: 1 },
    { ...oneHubTasks.bobsImage, user_id: 3, channel_id: 1, token_id: 6 },
  ]);
  await insertLegacyRows(db, dialect, 'tasks', [
    {
      ...oneHubTasks.bobsSong,
      task_id: 'kling-0001',
      platform: 'kling',
      action: 'text2video',
      status: 'IN_PROGRESS',
      progress: 40,
      user_id: 2,
      channel_id: 2,
      token_id: 1,
      data: null,
    },
    { ...oneHubTasks.bobsSong, user_id: 3, channel_id: 1, token_id: 6 },
  ]);
  await insertLegacyRows(db, dialect, 'telegram_menus', oneHubTasks.menus);
}

type TargetDb = Kysely<Database>;

/** What the target holds of the fixture's tasks for one (target) user, with JSON columns parsed. */
export async function importedTasksOf(db: TargetDb, userId: number) {
  const image = await db.selectFrom('midjourneys').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
  const song = await db.selectFrom('tasks').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
  const menus = await db.selectFrom('telegram_menus').selectAll().orderBy('command').execute();
  return {
    image: { ...image, submit_time: Number(image.submit_time), start_time: Number(image.start_time) },
    song: {
      ...song,
      created_at: Number(song.created_at),
      finish_time: Number(song.finish_time),
      properties: JSON.parse(song.properties) as unknown,
      data: JSON.parse(song.data) as unknown,
    },
    menus,
  };
}

/** The values a carried row of bob's must have, whatever the target's ids. */
export function expectedBobsTasks(ids: { user: number; channel: number; token: number }) {
  const { bobsImage, bobsSong } = oneHubTasks;
  return {
    image: { ...bobsImage, user_id: ids.user, channel_id: ids.channel, token_id: ids.token, mode: 'fast' },
    song: { ...bobsSong, user_id: ids.user, channel_id: ids.channel, token_id: ids.token, notify_hook: '' },
  };
}
