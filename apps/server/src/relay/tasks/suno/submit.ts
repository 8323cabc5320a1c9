import type { RelayHttpReply, RelayHttpRequest } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import type { RelayCaller } from '../../access/keys.js';
import { cancelSubmission, confirmSubmission, openSubmission } from '../submission.js';
import { nowSeconds, type TaskRepository } from '../task-repo.js';
import type { TaskRelayDeps } from '../types.js';
import { bodyObject, upstreamRefusal, upstreamUnreachable } from './errors.js';
import { callTaskApi, channelSecret, objectOf, textOf } from './upstream.js';

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

/** A client's callback address, kept on the row (the Suno-API is not told of it). */
export function clientHook(value: unknown): string {
  return typeof value === 'string' && /^https?:\/\//i.test(value) && value.length <= 2048 ? value : '';
}

export async function submitSuno(
  deps: SunoDeps,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
  endpoint: SunoEndpoint,
): Promise<unknown> {
  const caller = request.relayCaller as RelayCaller;
  const body = bodyObject(request.body);
  const model = billedModel(endpoint, body);
  const { notify_hook: hook, ...sent } = body;
  const submission = await openSubmission(deps, {
    caller,
    model,
    channelTypes: [SUNO_CHANNEL_TYPE],
    setHeader: (name, value) => reply.header(name, value),
    limitsEntered: request.limitsEntered,
  });
  let taskId: string;
  let answer: Record<string, unknown>;
  try {
    const result = await callTaskApi(deps, submission.channel, {
      path: `/suno/submit/${endpoint}`,
      authorization: `Bearer ${channelSecret(submission.channel)}`,
      body: sent,
    });
    answer = objectOf(result.body);
    taskId = textOf(answer.data);
    if (result.status !== 200 || answer.code !== 'success') {
      if (answer.code === undefined) throw upstreamUnreachable(submission.channel.id, `answered HTTP ${result.status}`);
      throw upstreamRefusal(result.status, textOf(answer.code), textOf(answer.message), submission.channel);
    }
    // Without a task id the task could be neither followed nor refunded: it is not charged.
    if (taskId === '' || taskId.length > 50) {
      throw upstreamUnreachable(submission.channel.id, 'accepted the task without a usable task id');
    }
  } catch (error) {
    await cancelSubmission(deps, submission);
    throw error;
  }
  const action = SUNO_ACTIONS[endpoint];
  const charged = await confirmSubmission(deps, submission, { request, content: `Suno ${action} ${taskId}` });
  const now = nowSeconds();
  await deps.repo.insert({
    created_at: now,
    updated_at: now,
    task_id: taskId,
    platform: 'suno',
    user_id: caller.user.id,
    channel_id: submission.channel.id,
    quota: charged,
    action,
    status: 'SUBMITTED',
    fail_reason: '',
    submit_time: now,
    start_time: 0,
    finish_time: 0,
    progress: 0,
    properties: JSON.stringify({ ...sent, model }),
    data: '',
    notify_hook: clientHook(hook),
    token_id: caller.token.id,
  });
  return { code: 'success', message: textOf(answer.message), data: taskId };
}
