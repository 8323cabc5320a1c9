import { AppError } from '../platform/errors.js';

/** What went wrong upstream, and what the relay should do about it. */
export interface UpstreamFailure {
  error: AppError;
  /** Another channel may succeed. */
  retry: boolean;
  /** The channel's credentials or account are bad: disable it when auto-disable is on. */
  disable: boolean;
  /** 429: rest this channel for this model. */
  coolDown: boolean;
}

/** Some vendors quote the key they refused; it must not reach the caller, the console or the logs. */
export function maskKey(message: string, key: string): string {
  return key.length >= 4 ? message.replaceAll(key, '[key]') : message;
}

/**
 * The failure with the channel's key masked out of its message: the message reaches the caller
 * (any user), the logs and the disable notice, and a channel key is for administrators only.
 */
export function withoutChannelKey(failure: UpstreamFailure, key: string): UpstreamFailure {
  const { error } = failure;
  const message = maskKey(error.message, key);
  if (message === error.message) return failure;
  const masked = new AppError(error.code, message, {
    status: error.status,
    retryable: error.retryable,
    details: error.details,
    cause: error.cause,
  });
  return { ...failure, error: masked };
}

const CREDENTIAL_MESSAGES = ['Your credit balance is too low', 'Operation not allowed', 'API key not valid'];
const DISABLING_CODES = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active']);
const DISABLING_TYPES = new Set(['insufficient_quota', 'authentication_error', 'permission_error', 'forbidden']);

interface ParsedError {
  message: string;
  type?: string;
  code?: string;
  param?: string;
}

function parseErrorBody(text: string): ParsedError {
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = parsed.error;
    if (error && typeof error === 'object') {
      const { message, type, code, param } = error as Record<string, unknown>;
      return {
        message: typeof message === 'string' ? message : JSON.stringify(error),
        ...(typeof type === 'string' ? { type } : {}),
        ...(typeof code === 'string' ? { code } : {}),
        ...(typeof param === 'string' ? { param } : {}),
      };
    }
    if (typeof error === 'string') return { message: error };
    if (typeof parsed.message === 'string') return { message: parsed.message };
    if (typeof parsed.detail === 'string') return { message: parsed.detail };
  } catch {
    // Not JSON: use the text itself below.
  }
  return { message: text.slice(0, 500) || 'no error message' };
}

export function classifyUpstreamError(status: number, bodyText: string, disableKeywords: string[]): UpstreamFailure {
  const parsed = parseErrorBody(bodyText);
  const credentialProblem = CREDENTIAL_MESSAGES.some((phrase) => parsed.message.includes(phrase));
  // A rate limit is transient even when its text reads like an account problem (Gemini's per-minute
  // limit says "You exceeded your current quota"): it cools the channel down, it does not disable it.
  const rateLimited = parsed.type === 'rate_limit_error';
  const keywordHit = !rateLimited && disableKeywords.some((keyword) => keyword && parsed.message.includes(keyword));
  const disable =
    status === 401 ||
    (parsed.code !== undefined && DISABLING_CODES.has(parsed.code)) ||
    (parsed.type !== undefined && DISABLING_TYPES.has(parsed.type)) ||
    // How some vendors' OpenAI-format errors say the account may not use the API at all.
    parsed.param === 'PERMISSIONDENIED' ||
    keywordHit;
  let retry: boolean;
  if (status === 429 || status === 307) retry = true;
  else if (status === 408 || status === 504 || status === 524) retry = false;
  else if (status === 400) retry = credentialProblem;
  else retry = status >= 401;
  // The client's own mistakes keep their status; the channel's failures are the gateway's (502/503).
  // A 400 about the channel's own key (Gemini answers a bad key with 400) is the channel's failure.
  const clientMistake = (status === 400 && !credentialProblem) || status === 404 || status === 413 || status === 422;
  const clientStatus = clientMistake ? status : status === 429 ? 429 : 502;
  const error = new AppError('upstream_error', `upstream error: ${parsed.message}`, {
    status: clientStatus,
    retryable: retry,
    details: { type: parsed.type ?? 'upstream_error', ...(parsed.code ? { code: parsed.code } : {}) },
  });
  return { error, retry, disable, coolDown: status === 429 };
}

/** A network failure before any response (refused, reset, timed out). */
export function networkFailure(cause: unknown): UpstreamFailure {
  const message = cause instanceof Error ? cause.message : String(cause);
  return {
    error: new AppError('upstream_error', `could not reach the upstream: ${message}`, {
      status: 502,
      retryable: true,
      cause,
    }),
    retry: true,
    disable: false,
    coolDown: false,
  };
}
