import type { RouterChannel } from '../../routing/router.js';
import type { UpstreamClient } from '../../transport/executor.js';
import { proxyUnreachable } from './errors.js';

/**
 * Calls to a channel's midjourney-proxy: its base URL, the channel key in `mj-api-secret`, JSON
 * both ways. A network failure or an answer that is not JSON is the channel's failure.
 */
export interface ProxyClientDeps {
  upstream: Pick<UpstreamClient, 'fetchWhole'>;
  baseUrlOf(channel: RouterChannel): string;
}

export interface ProxyAnswer {
  status: number;
  body: unknown;
}

/** The proxy's answers are small JSON documents; a task list of 100 tasks stays far below this. */
const ANSWER_LIMIT = 16 * 1024 * 1024;

/** The key the proxy checks; a channel key of several lines uses its first. */
export function proxySecret(channel: Pick<RouterChannel, 'key'>): string {
  return (channel.key.split('\n').find((line) => line.trim() !== '') ?? '').trim();
}

export async function callProxy(
  deps: ProxyClientDeps,
  channel: RouterChannel,
  path: string,
  body?: unknown,
): Promise<ProxyAnswer> {
  const base = deps.baseUrlOf(channel).replace(/\/+$/, '');
  let answer: Awaited<ReturnType<ProxyClientDeps['upstream']['fetchWhole']>>;
  try {
    answer = await deps.upstream.fetchWhole(
      {
        url: `${base}${path}`,
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...channel.model_headers,
          'mj-api-secret': proxySecret(channel),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        proxy: channel.proxy,
      },
      ANSWER_LIMIT,
    );
  } catch {
    throw proxyUnreachable(channel.id, 'did not answer');
  }
  const text = answer.body.toString('utf8');
  try {
    return { status: answer.status, body: text === '' ? null : JSON.parse(text) };
  } catch {
    throw proxyUnreachable(channel.id, `answered HTTP ${answer.status} with something that is not JSON`);
  }
}
