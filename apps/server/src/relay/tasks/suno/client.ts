import type { RouterChannel } from '../../routing/router.js';
import { callTaskApi, channelSecret, type TaskApiAnswer, type TaskApiDeps } from '../task-api.js';
import { upstreamUnreachable } from '../task-errors.js';

/** A call to a Suno-API deployment: the channel key as a Bearer token (task-api.ts does the rest). */
export function callSuno(
  deps: TaskApiDeps,
  channel: RouterChannel,
  path: string,
  body: unknown,
): Promise<TaskApiAnswer> {
  const headers = { authorization: `Bearer ${channelSecret(channel)}` };
  return callTaskApi(deps, channel, { path, headers, body }, upstreamUnreachable);
}
