import type { RelayHttpReply, RelayHttpRequest } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import { bodyObject, objectOf, textOf } from '../body.js';
import { acceptedTaskId } from '../task-errors.js';
import { submitTableTask, type TaskRepository } from '../task-repo.js';
import type { TaskRelayDeps } from '../types.js';
import { callSuno } from './client.js';

/**
 * `POST /suno/submit/{music,lyrics}` (reference §4.15): music is billed as its `mv` model
 * (default chirp-v3-0), lyrics as `suno_lyrics`. The price is reserved, the Suno-API asked, and
 * charged only when it answers `{code:"success", data:<task id>}`; a refusal charges nothing.
 */

export const SUNO_CHANNEL_TYPE = 41;
export const SUNO_ACTIONS = { music: 'MUSIC', lyrics: 'LYRICS' } as const;
export type SunoEndpoint = keyof typeof SUNO_ACTIONS;

export type SunoDeps = TaskRelayDeps & { repo: TaskRepository };

function billedModel(endpoint: SunoEndpoint, body: Record<string, unknown>): string {
  if (endpoint === 'lyrics') return 'suno_lyrics';
  const mv = body.mv;
  if (mv === undefined || mv === null || mv === '') return 'chirp-v3-0';
  if (typeof mv !== 'string' || mv.length > 100) throw AppError.badRequest('mv must be a model name');
  return mv;
}

export async function submitSuno(
  deps: SunoDeps,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
  endpoint: SunoEndpoint,
): Promise<unknown> {
  const body = bodyObject(request.body);
  const model = billedModel(endpoint, body);
  const { notify_hook: hook, ...sent } = body;
  const action = SUNO_ACTIONS[endpoint];

  const task = {
    platform: 'suno',
    label: 'Suno',
    action,
    model,
    channelType: SUNO_CHANNEL_TYPE,
    sent,
    hook,
    progress: 0,
  };
  const { taskId, message } = await submitTableTask(deps, request, reply, task, async (channel) => {
    const result = await callSuno(deps, channel, `/suno/submit/${endpoint}`, sent);
    const answer = objectOf(result.body);
    const taskId = textOf(answer.data);
    acceptedTaskId(channel, result.status, answer, answer.code === 'success', taskId);
    return { taskId, data: '', message: textOf(answer.message) };
  });
  return { code: 'success', message, data: taskId };
}
