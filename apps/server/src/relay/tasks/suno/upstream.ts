import type { RouterChannel } from '../../routing/router.js';
import type { UpstreamClient } from '../../transport/executor.js';
import { upstreamUnreachable } from './errors.js';

/**
 * JSON calls to a task channel (a Suno-API deployment, Kling's API): its base URL, the given
 * Authorization, JSON both ways. A network failure or an answer that is not JSON is the channel's
 * failure; the channel's key and address never reach the client.
 */
export interface TaskApiDeps {
  upstream: Pick<UpstreamClient, 'fetchWhole'>;
  baseUrlOf(channel: RouterChannel): string;
}

export interface TaskApiAnswer {
  status: number;
  body: unknown;
}

/** Suno clip lists of 500 tasks stay far below this. */
const ANSWER_LIMIT = 32 * 1024 * 1024;

export async function callTaskApi(
  deps: TaskApiDeps,
  channel: RouterChannel,
  request: { path: string; authorization: string; body?: unknown },
): Promise<TaskApiAnswer> {
  const base = deps.baseUrlOf(channel).replace(/\/+$/, '');
  const { body } = request;
  let answer: Awaited<ReturnType<TaskApiDeps['upstream']['fetchWhole']>>;
  try {
    answer = await deps.upstream.fetchWhole(
      {
        url: `${base}${request.path}`,
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...channel.model_headers,
          authorization: request.authorization,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        proxy: channel.proxy,
      },
      ANSWER_LIMIT,
    );
  } catch {
    throw upstreamUnreachable(channel.id, 'did not answer');
  }
  const text = answer.body.toString('utf8');
  try {
    return { status: answer.status, body: text === '' ? null : JSON.parse(text) };
  } catch {
    throw upstreamUnreachable(channel.id, `answered HTTP ${answer.status} with something that is not JSON`);
  }
}

/** The first non-empty line of a channel key (a key of several lines uses its first). */
export function channelSecret(channel: Pick<RouterChannel, 'key'>): string {
  return (channel.key.split('\n').find((line) => line.trim() !== '') ?? '').trim();
}

/** An object's field as text ('' when absent or not a string/number). */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

export function objectOf(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
