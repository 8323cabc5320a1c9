import type { AppError } from '../../platform/errors.js';
import type { RouterChannel } from '../routing/router.js';
import type { UpstreamClient } from '../transport/executor.js';

/**
 * The one client of the task channels (a midjourney-proxy, a Suno-API deployment, Kling's API):
 * the channel's base URL and model headers, the vendor's credential header, JSON both ways. A
 * network failure or an answer that is not JSON is the channel's failure, told in the vendor's own
 * error (`unreachable`); the channel's key and address never reach the client.
 */
export interface TaskApiDeps {
  upstream: Pick<UpstreamClient, 'fetchWhole'>;
  baseUrlOf(channel: RouterChannel): string;
}

export interface TaskApiCall {
  path: string;
  /** The vendor's credential (`mj-api-secret`, `authorization`). */
  headers: Record<string, string>;
  /** Sent as JSON with a POST; without it the call is a GET. */
  body?: unknown;
}

export interface TaskApiAnswer {
  status: number;
  body: unknown;
}

/** The channel could not be reached or did not answer JSON, in the vendor's error format. */
export type Unreachable = (channelId: number, what: string) => AppError;

/** Task answers are small JSON documents; a Suno clip list of 500 tasks stays far below this. */
const ANSWER_LIMIT = 32 * 1024 * 1024;

export async function callTaskApi(
  deps: TaskApiDeps,
  channel: RouterChannel,
  call: TaskApiCall,
  unreachable: Unreachable,
): Promise<TaskApiAnswer> {
  const base = deps.baseUrlOf(channel).replace(/\/+$/, '');
  const { body } = call;
  let answer: Awaited<ReturnType<TaskApiDeps['upstream']['fetchWhole']>>;
  try {
    answer = await deps.upstream.fetchWhole(
      {
        url: `${base}${call.path}`,
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...channel.model_headers,
          ...call.headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        proxy: channel.proxy,
      },
      ANSWER_LIMIT,
    );
  } catch {
    throw unreachable(channel.id, 'did not answer');
  }
  const text = answer.body.toString('utf8');
  try {
    return { status: answer.status, body: text === '' ? null : JSON.parse(text) };
  } catch {
    throw unreachable(channel.id, `answered HTTP ${answer.status} with something that is not JSON`);
  }
}

/** The first non-empty line of a channel key (a key of several lines uses its first). */
export function channelSecret(channel: Pick<RouterChannel, 'key'>): string {
  return (channel.key.split('\n').find((line) => line.trim() !== '') ?? '').trim();
}
