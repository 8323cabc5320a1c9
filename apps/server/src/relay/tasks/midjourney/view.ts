import type { MidjourneyRow, MidjourneyUpdate } from './repo.js';

/**
 * midjourney-proxy's task object (what `/mj/task/:id/fetch` answers) and the row it is kept in.
 * The client's own `notifyHook` is kept in the row's properties under a key of ours, which never
 * leaves in a task view and survives the proxy's property updates.
 */

export const CLIENT_HOOK_KEY = 'oneHubClientNotifyHook';

export interface ProxyTask {
  id?: unknown;
  action?: unknown;
  status?: unknown;
  progress?: unknown;
  prompt?: unknown;
  promptEn?: unknown;
  description?: unknown;
  state?: unknown;
  submitTime?: unknown;
  startTime?: unknown;
  finishTime?: unknown;
  imageUrl?: unknown;
  failReason?: unknown;
  buttons?: unknown;
  properties?: unknown;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function parseArray(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text || '[]');
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/**
 * The proxy's task properties as kept: its `notifyHook` (this gateway's signed callback address,
 * which a client must not learn) is dropped, and the client's own hook kept under our key.
 */
export function keptProperties(reported: Record<string, unknown>, clientHook: string | undefined): string {
  const { notifyHook: _callback, ...rest } = reported;
  return JSON.stringify({ ...rest, ...(clientHook ? { [CLIENT_HOOK_KEY]: clientHook } : {}) });
}

export function clientHookOf(row: Pick<MidjourneyRow, 'properties'>): string | undefined {
  const hook = parseObject(row.properties)[CLIENT_HOOK_KEY];
  return typeof hook === 'string' && hook !== '' ? hook : undefined;
}

/**
 * The row as the proxy's task object, as clients of the proxy read it. With `imageLink` (set when
 * ServerAddress is), the image is offered through this gateway (`/mj/image/:id`, signed: links.ts),
 * as the reference does, rather than at the proxy's (or Discord's) address.
 */
export function toProxyTask(row: MidjourneyRow, imageLink?: (mjId: string) => string) {
  // notifyHook: rows kept before keptProperties dropped the gateway's callback address.
  const { [CLIENT_HOOK_KEY]: _hook, notifyHook: _callback, ...properties } = parseObject(row.properties);
  return {
    id: row.mj_id,
    action: row.action,
    status: row.status,
    progress: row.progress,
    prompt: row.prompt,
    promptEn: row.prompt_en,
    description: row.description,
    state: row.state,
    submitTime: Number(row.submit_time),
    startTime: Number(row.start_time),
    finishTime: Number(row.finish_time),
    imageUrl: row.image_url && imageLink ? imageLink(row.mj_id) : row.image_url,
    failReason: row.fail_reason,
    buttons: parseArray(row.buttons),
    properties,
  };
}

/** ServerAddress without a trailing slash ('' when unset). */
export function serverAddressOf(options: { get(key: 'ServerAddress'): string }): string {
  return options.get('ServerAddress').trim().replace(/\/+$/, '');
}

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' ? value.slice(0, max) : undefined;
const millis = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;

/** The row's new values from a task object the proxy reported; only what it reported. */
export function updateFromProxy(row: MidjourneyRow, task: ProxyTask, now = Date.now()): MidjourneyUpdate {
  const update: MidjourneyUpdate = {};
  const status = text(task.status, 20);
  if (status) update.status = status;
  const progress = text(task.progress, 30);
  if (progress !== undefined) update.progress = progress;
  const fields: Array<[keyof MidjourneyUpdate, string | undefined]> = [
    ['image_url', text(task.imageUrl, 4096)],
    ['fail_reason', text(task.failReason, 4096)],
    ['prompt_en', text(task.promptEn, 65_535)],
    ['description', text(task.description, 65_535)],
  ];
  for (const [column, value] of fields) if (value !== undefined) Object.assign(update, { [column]: value });
  const start = millis(task.startTime);
  if (start) update.start_time = start;
  const finish = millis(task.finishTime);
  if (finish) update.finish_time = finish;
  else if ((status === 'SUCCESS' || status === 'FAILURE') && !Number(row.finish_time)) update.finish_time = now;
  if (Array.isArray(task.buttons)) update.buttons = JSON.stringify(task.buttons);
  if (task.properties && typeof task.properties === 'object' && !Array.isArray(task.properties)) {
    update.properties = keptProperties(task.properties as Record<string, unknown>, clientHookOf(row));
  }
  return update;
}

/** Whether an update changes anything a client would see (worth a callback). */
export function changesRow(row: MidjourneyRow, update: MidjourneyUpdate): boolean {
  return Object.entries(update).some(([column, value]) => String(row[column as keyof MidjourneyRow]) !== String(value));
}
