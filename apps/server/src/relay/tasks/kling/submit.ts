import type { RelayHttpReply, RelayHttpRequest } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import { bodyObject, objectOf, textOf } from '../body.js';
import { acceptedTaskId } from '../task-errors.js';
import { submitTableTask, type TaskRepository } from '../task-repo.js';
import type { TaskRelayDeps } from '../types.js';
import { callKling } from './client.js';

/**
 * `POST /kling/v1/videos/{text2video,image2video}` (reference §2.1): defaults model_name
 * `kling-v1`, mode `std`, duration "5"; billed `kling-video_<model_name>_<mode>_<duration>`. The
 * price is reserved, Kling asked, and charged only when it answers code 0 with a task id.
 */

export const KLING_CHANNEL_TYPE = 53;
export const KLING_ACTIONS = ['text2video', 'image2video'] as const;
export type KlingAction = (typeof KLING_ACTIONS)[number];

export type KlingDeps = TaskRelayDeps & { repo: TaskRepository };

/** The client's body with Kling's defaults filled in, and the model it is billed as. */
export function withDefaults(body: Record<string, unknown>): { sent: Record<string, unknown>; model: string } {
  const modelName = body.model_name ?? 'kling-v1';
  if (typeof modelName !== 'string' || !/^[\w.-]{1,60}$/.test(modelName)) {
    throw AppError.badRequest('model_name must be a Kling model name such as kling-v1');
  }
  const mode = body.mode ?? 'std';
  if (mode !== 'std' && mode !== 'pro') throw AppError.badRequest('mode must be std or pro');
  const duration = body.duration === undefined ? '5' : String(body.duration);
  if (duration !== '5' && duration !== '10') throw AppError.badRequest('duration must be "5" or "10"');
  return {
    sent: { ...body, model_name: modelName, mode, duration },
    model: `kling-video_${modelName}_${mode}_${duration}`,
  };
}

export async function submitKling(
  deps: KlingDeps,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
  action: KlingAction,
): Promise<unknown> {
  // The client's callback stays here: Kling would call it with its own task, not the gateway's row.
  const { callback_url: hook, ...rest } = bodyObject(request.body);
  const { sent, model } = withDefaults(rest);

  const task = {
    platform: 'kling',
    label: 'Kling',
    action,
    model,
    channelType: KLING_CHANNEL_TYPE,
    sent,
    hook,
    progress: 10,
  };
  const { taskId, answered } = await submitTableTask(deps, request, reply, task, async (channel) => {
    const result = await callKling(deps, channel, `/v1/videos/${action}`, sent);
    const answer = objectOf(result.body);
    const answered = objectOf(answer.data);
    const taskId = textOf(answered.task_id);
    acceptedTaskId(channel, result.status, answer, answer.code === 0, taskId);
    return { taskId, data: JSON.stringify(answered), answered };
  });
  return {
    code: 0,
    message: 'SUCCEED',
    request_id: request.id,
    data: { ...answered, task_id: taskId, task_status: 'submitted' },
  };
}
