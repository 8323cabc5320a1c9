import type { RouterChannel } from '../../routing/router.js';
import { callTaskApi, channelSecret, type TaskApiAnswer, type TaskApiDeps } from '../task-api.js';
import { upstreamUnreachable } from '../task-errors.js';
import { klingAuthorization } from './jwt.js';

/** A call to Kling's API: the channel key made a JWT (jwt.ts) as a Bearer token (task-api.ts does the rest). */
export async function callKling(
  deps: TaskApiDeps,
  channel: RouterChannel,
  path: string,
  body?: unknown,
): Promise<TaskApiAnswer> {
  const headers = { authorization: await klingAuthorization(channelSecret(channel)) };
  return callTaskApi(deps, channel, { path, headers, body }, upstreamUnreachable);
}
