import type { ErrorRenderer } from '../../../http/errors.js';
import { AppError } from '../../../platform/errors.js';
import { type ChannelSecrets, maskChannel } from '../../exchange/upstream-errors.js';

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

export function bodyObject(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw AppError.badRequest('request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}
