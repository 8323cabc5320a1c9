import type { RouterChannel } from '../../routing/router.js';
import { callTaskApi, channelSecret, type TaskApiAnswer, type TaskApiDeps } from '../task-api.js';
import { proxyUnreachable } from './errors.js';

/**
 * A call to a channel's midjourney-proxy: the channel key in `mj-api-secret`, a failure to answer
 * in midjourney-proxy's error format (task-api.ts does the rest).
 */
export function callProxy(
  deps: TaskApiDeps,
  channel: RouterChannel,
  path: string,
  body?: unknown,
): Promise<TaskApiAnswer> {
  const headers = { 'mj-api-secret': channelSecret(channel) };
  return callTaskApi(deps, channel, { path, headers, body }, proxyUnreachable);
}
