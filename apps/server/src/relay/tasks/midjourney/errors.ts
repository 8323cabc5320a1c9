import type { ErrorRenderer } from '../../../http/errors.js';
import { AppError } from '../../../platform/errors.js';
import { type ChannelSecrets, maskChannel } from '../../exchange/upstream-errors.js';

/**
 * Midjourney's error format (reference §2.3): `{"description", "type", "code"}` where `code` is a
 * midjourney-proxy answer code. Local refusals carry code 4 (a request error) or 5 (anything else)
 * and type `one_hub_error`; a proxy's refusal keeps its own code with type `upstream_error`.
 */

/** midjourney-proxy: the request itself is wrong. */
export const MJ_CODE_REQUEST_ERROR = 4;
/** midjourney-proxy: unknown failure. */
export const MJ_CODE_UNKNOWN = 5;
/** midjourney-proxy: no account can take the task in this mode (fast mode then retries in relax). */
export const MJ_CODE_NO_ACCOUNT = 3;
/** midjourney-proxy: the account's queue is full, i.e. try later. */
export const MJ_CODE_QUEUE_FULL = 30;

export const renderMidjourneyError: ErrorRenderer = (error) => {
  const upstreamCode = Number(error.details.code);
  return {
    description: error.message,
    type: error.details.type ?? 'one_hub_error',
    code:
      Number.isInteger(upstreamCode) && error.details.code !== undefined
        ? upstreamCode
        : error.status < 500
          ? MJ_CODE_REQUEST_ERROR
          : MJ_CODE_UNKNOWN,
  };
};

/**
 * The proxy refused the task: HTTP 400 (429 when its queue is full) with its code and words, without
 * the channel's key and address.
 */
export function proxyRefusal(code: number, description: string, result: unknown, channel: ChannelSecrets): AppError {
  const detail = result === undefined || result === null || result === '' ? '' : ` ${String(result)}`;
  const message = maskChannel(`${description}${detail}`.trim(), channel);
  return new AppError(code === MJ_CODE_QUEUE_FULL ? 'rate_limited' : 'bad_request', message, {
    status: code === MJ_CODE_QUEUE_FULL ? 429 : 400,
    details: { type: 'upstream_error', code: String(code) },
  });
}

/** The proxy could not be reached or answered something that is not midjourney-proxy's JSON. */
export function proxyUnreachable(channelId: number, what: string): AppError {
  return new AppError('upstream_error', `channel ${channelId} ${what}; try again later`, {
    details: { type: 'upstream_error', code: String(MJ_CODE_UNKNOWN) },
  });
}
