import {
  type LegacyMidjourney,
  type LegacyTask,
  type LegacyTelegramMenu,
  rowsIfPresent,
  type Skipped,
  type SourceDb,
  type SourceRow,
} from '../legacy.js';
import { toInteger, toJsonText, toText, toUnixSeconds } from './values.js';

/**
 * Asynchronous tasks and Telegram menus in One Hub's shapes. Older One Hub schemas lack some
 * columns (mode, token_id, notify_hook…): they get the column's default. new-api's `midjourneys`
 * has the same columns minus `mode` and `token_id`, so the same reader serves it.
 */

/** A time column kept in its own unit (milliseconds in midjourneys, seconds in tasks); 0 when empty. */
const time = (value: unknown) => Math.max(0, toInteger(value));

/** One Hub's tasks keep progress as 0–100; new-api writes "45%". */
function percent(value: unknown): number {
  const number = Number.parseInt(toText(value).replace('%', '').trim(), 10);
  return Number.isFinite(number) ? Math.min(100, Math.max(0, number)) : 0;
}

const MODES = new Set(['fast', 'turbo', 'relax']);

export function midjourneyRow(row: SourceRow): LegacyMidjourney {
  const mode = toText(row.mode);
  return {
    id: toInteger(row.id),
    code: toInteger(row.code),
    user_id: toInteger(row.user_id),
    action: toText(row.action),
    mj_id: toText(row.mj_id),
    prompt: toText(row.prompt),
    prompt_en: toText(row.prompt_en),
    description: toText(row.description),
    state: toText(row.state),
    submit_time: time(row.submit_time),
    start_time: time(row.start_time),
    finish_time: time(row.finish_time),
    image_url: toText(row.image_url),
    status: toText(row.status),
    progress: toText(row.progress),
    fail_reason: toText(row.fail_reason),
    channel_id: toInteger(row.channel_id),
    quota: toInteger(row.quota),
    buttons: toJsonText(row.buttons, ''),
    properties: toJsonText(row.properties, ''),
    mode: MODES.has(mode) ? mode : 'fast',
    token_id: toInteger(row.token_id),
  };
}

export function taskRow(row: SourceRow): LegacyTask {
  const created = toUnixSeconds(row.created_at) ?? 0;
  return {
    id: toInteger(row.id),
    created_at: created,
    updated_at: toUnixSeconds(row.updated_at) ?? created,
    task_id: toText(row.task_id),
    platform: toText(row.platform),
    user_id: toInteger(row.user_id),
    channel_id: toInteger(row.channel_id),
    quota: toInteger(row.quota),
    action: toText(row.action),
    status: toText(row.status),
    fail_reason: toText(row.fail_reason),
    submit_time: time(row.submit_time),
    start_time: time(row.start_time),
    finish_time: time(row.finish_time),
    progress: percent(row.progress),
    properties: toJsonText(row.properties, '{}'),
    data: toJsonText(row.data, '{}'),
    notify_hook: toText(row.notify_hook),
    token_id: toInteger(row.token_id),
  };
}

/**
 * new-api names a task's platform "suno", or by the channel type's number for its video
 * adapters (Kling, Jimeng, Vidu…), whose stored answers follow new-api's own formats. Only Suno
 * tasks mean the same here (same Suno-API answers, same status names); the rest are reported.
 */
const NEW_API_CARRIED_PLATFORMS = new Set(['suno']);

export function newApiTasks(rows: SourceRow[]): LegacyTask[] {
  return rows.filter((row) => NEW_API_CARRIED_PLATFORMS.has(toText(row.platform))).map(taskRow);
}

export function newApiTaskNotes(rows: SourceRow[]): Skipped[] {
  const left = new Map<string, number>();
  for (const row of rows) {
    const platform = toText(row.platform);
    if (!NEW_API_CARRIED_PLATFORMS.has(platform)) left.set(platform, (left.get(platform) ?? 0) + 1);
  }
  return [...left].map(([platform, count]) => ({
    table: 'tasks',
    reason: `platform '${platform}' tasks (new-api video adapters) have no equivalent here; only Suno tasks are carried`,
    count,
  }));
}

export async function telegramMenus(source: SourceDb): Promise<LegacyTelegramMenu[]> {
  return (await rowsIfPresent(source, 'telegram_menus')).map((row) => ({
    command: toText(row.command).trim(),
    description: toText(row.description),
    parse_mode: row.parse_mode === undefined || row.parse_mode === null ? 'MarkdownV2' : toText(row.parse_mode),
    reply_message: toText(row.reply_message),
  }));
}
