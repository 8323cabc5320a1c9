import type { RelayHttpReply, RelayHttpRequest } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import type { RelayCaller } from '../../access/keys.js';
import type { RouterChannel } from '../../routing/router.js';
import { cancelSubmission, confirmSubmission, openSubmission } from '../submission.js';
import { bodyObject, upstreamRefusal, upstreamUnreachable } from '../suno/errors.js';
import { clientHook } from '../suno/submit.js';
import { callTaskApi, channelSecret, objectOf, textOf } from '../suno/upstream.js';
import { nowSeconds, type TaskRepository } from '../task-repo.js';
import type { TaskRelayDeps } from '../types.js';
import { klingAuthorization } from './jwt.js';

/**
 * `POST /kling/v1/videos/{text2video,image2video}` (reference §2.1): defaults model_name
 * `kling-v1`, mode `std`, duration "5"; billed `kling-video_<model_name>_<mode>_<duration>`. The
 * price is reserved, Kling asked, and charged only when it answers code 0 with a task id.
 */

export const KLING_CHANNEL_TYPE = 53;
export const KLING_ACTIONS = ['text2video', 'image2video'] as const;
export type KlingAction = (typeof KLING_ACTIONS)[number];

export type KlingDeps = TaskRelayDeps & { repo: TaskRepository };

export function klingAuthorizationOf(channel: RouterChannel): Promise<string> {
  return klingAuthorization(channelSecret(channel));
}

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
  const caller = request.relayCaller as RelayCaller;
  // The client's callback stays here: Kling would call it with its own task, not the gateway's row.
  const { callback_url: hook, ...rest } = bodyObject(request.body);
  const { sent, model } = withDefaults(rest);
  const submission = await openSubmission(deps, {
    caller,
    model,
    channelTypes: [KLING_CHANNEL_TYPE],
    setHeader: (name, value) => reply.header(name, value),
    limitsEntered: request.limitsEntered,
  });
  let data: Record<string, unknown>;
  let taskId: string;
  try {
    const result = await callTaskApi(deps, submission.channel, {
      path: `/v1/videos/${action}`,
      authorization: await klingAuthorizationOf(submission.channel),
      body: sent,
    });
    const answer = objectOf(result.body);
    data = objectOf(answer.data);
    taskId = textOf(data.task_id);
    if (result.status !== 200 || answer.code !== 0) {
      if (answer.code === undefined) throw upstreamUnreachable(submission.channel.id, `answered HTTP ${result.status}`);
      throw upstreamRefusal(result.status, textOf(answer.code), textOf(answer.message), submission.channel);
    }
    if (taskId === '' || taskId.length > 50) {
      throw upstreamUnreachable(submission.channel.id, 'accepted the task without a usable task id');
    }
  } catch (error) {
    await cancelSubmission(deps, submission);
    throw error;
  }
  const charged = await confirmSubmission(deps, submission, { request, content: `Kling ${action} ${taskId}` });
  const now = nowSeconds();
  await deps.repo.insert({
    created_at: now,
    updated_at: now,
    task_id: taskId,
    platform: 'kling',
    user_id: caller.user.id,
    channel_id: submission.channel.id,
    quota: charged,
    action,
    status: 'SUBMITTED',
    fail_reason: '',
    submit_time: now,
    start_time: 0,
    finish_time: 0,
    progress: 10,
    properties: JSON.stringify({ ...sent, model }),
    data: JSON.stringify(data),
    notify_hook: clientHook(hook),
    token_id: caller.token.id,
  });
  return {
    code: 0,
    message: 'SUCCEED',
    request_id: request.id,
    data: { ...data, task_id: taskId, task_status: 'submitted' },
  };
}
