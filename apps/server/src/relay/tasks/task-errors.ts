import type { ErrorRenderer } from '../../http/errors.js';
import { AppError } from '../../platform/errors.js';
import { type ChannelSecrets, maskChannel } from '../exchange/upstream-errors.js';
import { textOf } from './body.js';

/**
 * The Suno and Kling error format (reference §2.3): `{"code": <string>, "message", "data"}` with
 * the real HTTP status. Local refusals carry the error's own code (`unauthorized`, `bad_request`…);
 * an upstream refusal keeps the upstream's code.
 */
export const renderTaskError: ErrorRenderer = (error) => ({
  code: error.details.code ?? error.code,
  message: error.message,
  data: null,
});

/** The channel could not be reached or did not answer its API's JSON. */
export function upstreamUnreachable(channelId: number, what: string): AppError {
  return new AppError('upstream_error', `channel ${channelId} ${what}; try again later`, {
    details: { code: 'upstream_error' },
  });
}

/**
 * The upstream refused the task: its words (without the channel's key and address), with a 4xx for
 * a refusal of the request, else 502.
 */
export function upstreamRefusal(status: number, code: string, message: string, channel: ChannelSecrets): AppError {
  const clientError = status >= 400 && status < 500 && status !== 401 && status !== 403;
  return new AppError(
    clientError || status === 200 ? 'bad_request' : 'upstream_error',
    maskChannel(message, channel) || 'the upstream refused the task',
    {
      status: status === 429 ? 429 : clientError || status === 200 ? 400 : 502,
      details: { code: code || 'upstream_error' },
    },
  );
}

export function taskNotFound(taskId: string): AppError {
  return new AppError('not_found', `task ${taskId} does not exist`, { details: { code: 'task_not_exist' } });
}

/**
 * The task id of a submission the upstream answered: its refusal (HTTP status other than 200, or
 * `accepted` false) in its own words, or, without a usable task id, the channel's failure — a task
 * that could be neither followed nor refunded is not charged.
 */
export function acceptedTaskId(
  channel: ChannelSecrets & { id: number },
  status: number,
  answer: Record<string, unknown>,
  accepted: boolean,
  taskId: string,
): string {
  if (status !== 200 || !accepted) {
    if (answer.code === undefined) throw upstreamUnreachable(channel.id, `answered HTTP ${status}`);
    throw upstreamRefusal(status, textOf(answer.code), textOf(answer.message), channel);
  }
  if (taskId === '' || taskId.length > 50) {
    throw upstreamUnreachable(channel.id, 'accepted the task without a usable task id');
  }
  return taskId;
}
