import type { FailureClass } from '@one-hub/contracts';
import { AppError } from '../../platform/errors.js';
import type { ChatAdapter } from '../providers/types.js';

/** What went wrong upstream, and what the relay should do about it. */
export interface UpstreamFailure {
  error: AppError;
  /** Another channel may succeed. */
  retry: boolean;
  /** The channel's credentials or account are bad: disable it when auto-disable is on. */
  disable: boolean;
  /** 429 or a timeout: rest this channel for this model. */
  coolDown: boolean;
  /** The channel did not answer in time (connect, first byte). */
  timedOut?: boolean;
  /** The HTTP status the channel answered with, when it answered (a trace's try span shows it). */
  upstreamStatus?: number;
  /** What only administrators may read (the channel's address in a connection error); for logs and tests. */
  detail?: string;
  /** What the failure says of the channel's health (routing/health.ts); absent when it says nothing (the client's mistake). */
  class?: FailureClass;
  /**
   * The message of the vendor's own structured error object, unmasked: matched against
   * DisableChannelKeywords (routing/channel-failure.ts), never shown.
   */
  upstreamMessage?: string;
}

/** Some vendors quote the key they refused; it must not reach the caller, the console or the logs. */
export function maskKey(message: string, key: string): string {
  return key.length >= 4 ? message.replaceAll(key, '[key]') : message;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The spellings of a channel's base URL an upstream may quote (whole, without its scheme, host
 * with port, host name), longest first; none for an empty or unreadable address.
 */
function addressForms(baseUrl: string): string[] {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return [];
  }
  const path = url.pathname.replace(/\/+$/, '');
  const whole = `${url.protocol}//${url.host}${path}`;
  const forms = [baseUrl.trim().replace(/\/+$/, ''), whole, `${url.host}${path}`, url.host, url.hostname];
  // A host of a few letters would mask ordinary words.
  return [...new Set(forms)].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
}

/**
 * Masks a channel's own base URL and host name (case-insensitively, as hosts are) out of a
 * message: where a channel's upstream lives is for administrators, and upstreams quote it in errors.
 */
export function maskAddress(message: string, baseUrl: string): string {
  const forms = baseUrl ? addressForms(baseUrl) : [];
  if (forms.length === 0) return message;
  return message.replace(new RegExp(forms.map(escapeRegExp).join('|'), 'gi'), '[upstream]');
}

/** What of a channel must not reach a client: its key, and its address. */
export interface ChannelSecrets {
  key: string;
  base_url: string;
}

/** A message with the channel's key and address masked out: what of an upstream's words a client may read. */
export function maskChannel(message: string, channel: ChannelSecrets): string {
  return maskAddress(maskKey(message, channel.key), channel.base_url);
}

/**
 * The failure with the channel's key masked out of its message and detail, and its address out of
 * its message: the message reaches the caller (any user), the logs and the disable notice, and a
 * channel's key and address are for administrators only. The detail (logs, channel tests) keeps
 * the address, which is what it is for.
 */
export function withoutChannelKey(failure: UpstreamFailure, channel: ChannelSecrets): UpstreamFailure {
  const { error } = failure;
  const message = maskChannel(error.message, channel);
  const detail = failure.detail === undefined ? {} : { detail: maskKey(failure.detail, channel.key) };
  if (message === error.message) return { ...failure, ...detail };
  const masked = new AppError(error.code, message, {
    status: error.status,
    retryable: error.retryable,
    details: error.details,
    cause: error.cause,
  });
  return { ...failure, ...detail, error: masked };
}

/**
 * Bodies that say the account itself cannot be used (bad key, no credit, deactivated, no
 * permission), read from the vendor's own structured error fields. Never from message text: an
 * error message may repeat the client's input, and a client must not be able to switch a channel off.
 */
const DISABLING_CODES = new Set([
  'invalid_api_key',
  'account_deactivated',
  'billing_not_active',
  'insufficient_quota',
  'billing_hard_limit_reached',
  'access_terminated',
  'organization_deactivated',
  // Google's `error.status`, and the reason of its bad-key 400.
  'PERMISSION_DENIED',
  'API_KEY_INVALID',
  'UNAUTHENTICATED',
]);
const DISABLING_TYPES = new Set([
  'insufficient_quota',
  'authentication_error',
  'permission_error',
  'forbidden',
  'billing_error',
]);
/** For retries only (another channel may have credit): these never disable, as they are message text. */
const CREDENTIAL_MESSAGES = ['Your credit balance is too low', 'Operation not allowed', 'API key not valid'];

export interface ParsedError {
  message: string;
  type?: string;
  code?: string;
  param?: string;
  /** The body was the vendor's error object, not a page or text from something in between. */
  structured: boolean;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function parseErrorBody(bodyText: string): ParsedError {
  try {
    const parsed = JSON.parse(bodyText) as unknown;
    // Google answers some errors as a one-element list.
    const envelope = (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown> | null;
    const error = envelope?.error;
    if (error && typeof error === 'object') {
      const { message, type, code, param, status, details } = error as Record<string, unknown>;
      // Google puts its code name in `status` (`PERMISSION_DENIED`) and a number in `code`; a bad
      // key is a 400 INVALID_ARGUMENT told apart only by the reason in its details.
      const keyInvalid = Array.isArray(details) && details.some((detail) => detail?.reason === 'API_KEY_INVALID');
      const codeName = keyInvalid ? 'API_KEY_INVALID' : (text(code) ?? text(status));
      return {
        message: text(message) ?? JSON.stringify(error),
        ...(text(type) ? { type: text(type) } : {}),
        ...(codeName ? { code: codeName } : {}),
        ...(text(param) ? { param: text(param) } : {}),
        structured: true,
      };
    }
    if (typeof error === 'string') return { message: error, structured: true };
    if (typeof envelope?.message === 'string') return { message: envelope.message, structured: true };
    if (typeof envelope?.detail === 'string') return { message: envelope.detail, structured: true };
  } catch {
    // Not JSON: use the text itself below.
  }
  return { message: bodyText.slice(0, 500) || 'no error message', structured: false };
}

/**
 * Whether the failure says the channel's credentials or account are unusable (reference §4.5,
 * keeping its structural rules): a 401; account-level codes and types in the vendor's error
 * object, for a 403 as for any 4xx; `param: PERMISSIONDENIED`. A 403 alone does not: another
 * gateway or a firewall in front of the vendor answers 403 with JSON of its own, and its verdict
 * can be provoked by the request's content. `keywords` are searched in the message only when the
 * request was the gateway's own (channel tests), never a client's, and never in a rate limit: a 429
 * rests a channel whatever its words (Gemini's per-minute 429 says "You exceeded your current
 * quota", a default keyword), while OpenAI's out-of-credit 429 disables by its code. The relay's
 * keyword search (accountKeyword) keeps the same rule.
 */
function disables(status: number, parsed: ParsedError, keywords: readonly string[]): boolean {
  if (status === 401) return true;
  if (parsed.type === 'rate_limit_error') return false;
  if (status >= 400 && status < 500) {
    if (parsed.code !== undefined && DISABLING_CODES.has(parsed.code)) return true;
    if (parsed.type !== undefined && DISABLING_TYPES.has(parsed.type)) return true;
    // How some vendors' OpenAI-format errors say the account may not use the API at all.
    if (parsed.param === 'PERMISSIONDENIED') return true;
  }
  return status !== 429 && keywords.some((keyword) => keyword && parsed.message.includes(keyword));
}

/**
 * Classifies an upstream error answer. `trustedKeywords` (the DisableChannelKeywords setting) are
 * for requests the gateway wrote itself (channel tests); the relay passes none.
 */
export function classifyUpstreamError(
  status: number,
  bodyText: string,
  trustedKeywords: readonly string[] = [],
): UpstreamFailure {
  return classifyParsedError(status, parseErrorBody(bodyText), trustedKeywords);
}

export function classifyParsedError(
  status: number,
  parsed: ParsedError,
  trustedKeywords: readonly string[] = [],
): UpstreamFailure {
  const credentialProblem = CREDENTIAL_MESSAGES.some((phrase) => parsed.message.includes(phrase));
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
  const disable = disables(status, parsed, trustedKeywords);
  const failureClass = classOf(status, disable);
  return {
    error,
    retry,
    disable,
    coolDown: status === 429,
    upstreamStatus: status,
    ...(failureClass ? { class: failureClass } : {}),
    ...(parsed.structured ? { upstreamMessage: parsed.message } : {}),
  };
}

/** What an error answer says of the channel: its account, its rate limit, its time, its server; a client's mistake nothing. */
function classOf(status: number, disable: boolean): FailureClass | undefined {
  if (disable || status === 401) return 'account';
  if (status === 429) return 'rate_limit';
  if (status === 408 || status === 504 || status === 524) return 'timeout';
  return status >= 500 ? '5xx' : undefined;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Whether an upstream call failed on one of the executor's timeouts (connect, first byte, idle). */
export function isUpstreamTimeout(cause: unknown): boolean {
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TIMEOUT_CODES.has(code);
}

/**
 * A network failure before any response (refused, unresolvable, reset, timed out). The caller
 * gets a generic message (with the request id, added when rendered): the cause names the
 * channel's address, which is for administrators, so it goes to `detail` (logs, channel tests).
 * A timeout rests the channel like a 429 does; neither disables it.
 */
export function networkFailure(cause: unknown): UpstreamFailure {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const timedOut = isUpstreamTimeout(cause);
  const error = timedOut
    ? new AppError('upstream_error', 'upstream timed out: the channel did not answer in time', {
        status: 504,
        retryable: true,
        cause,
        details: { type: 'upstream_error', code: 'upstream_timeout' },
      })
    : new AppError('upstream_error', 'upstream unavailable: the channel could not be reached', {
        status: 502,
        retryable: true,
        cause,
        details: { type: 'upstream_error', code: 'upstream_unavailable' },
      });
  const detail = `${timedOut ? 'the upstream timed out' : 'could not reach the upstream'}: ${reason}`;
  return {
    error,
    retry: true,
    disable: false,
    coolDown: timedOut,
    timedOut,
    detail,
    class: timedOut ? 'timeout' : 'connection',
  };
}

/** The DisableChannelKeywords setting as a list: one keyword a line, blank lines ignored. */
export function disableKeywords(raw: string): string[] {
  return raw
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * The first DisableChannelKeywords entry found in the message of the vendor's own structured
 * error object of a failed relay call, and not in what the client sent: an upstream that repeats
 * the client's input must not let the client switch a channel off. `clientSent` is read only
 * when a keyword is in the message, which is rare.
 */
export function accountKeyword(
  failure: UpstreamFailure,
  keywords: readonly string[],
  clientSent: () => string,
): string | undefined {
  const message = failure.upstreamMessage;
  // Never in a rate limit, as in `disables`.
  if (!message || failure.class === 'rate_limit') return undefined;
  const found = keywords.filter((keyword) => message.includes(keyword));
  if (found.length === 0) return undefined;
  const sent = clientSent();
  return found.find((keyword) => !sent.includes(keyword));
}

/** What an administrator is told of a failure (channel tests, disable notices, logs): the detail when there is one. */
export function adminMessage(failure: UpstreamFailure): string {
  return failure.detail ?? failure.error.message;
}

/**
 * An upstream error in an adapter's format, classified like OpenAI-format errors (retry, disable,
 * cool down). `trustedKeywords` only for requests the gateway wrote itself (channel tests).
 */
export function classifyAdapterError(
  adapter: Pick<ChatAdapter, 'parseError'>,
  status: number,
  body: Buffer,
  trustedKeywords: readonly string[] = [],
): UpstreamFailure {
  const info = adapter.parseError(status, body);
  const parsed = {
    message: info.message,
    ...(info.type ? { type: info.type } : {}),
    ...(info.code ? { code: info.code } : {}),
    structured: Boolean(info.type || info.code),
  };
  return classifyParsedError(info.status, parsed, trustedKeywords);
}

/** A 2xx answer that cannot be read: 502 to the client, and another channel may be tried. */
export function malformedAnswer(message: string): UpstreamFailure {
  return {
    error: new AppError('upstream_error', `the upstream's answer could not be read: ${message}`, { status: 502 }),
    retry: true,
    disable: false,
    coolDown: false,
    class: 'malformed',
  };
}

/**
 * The upstream request could not be made. A network error on the way (fetching a Vertex token)
 * names an address, so it is told like any unreachable upstream; our own reasons are told as they are.
 */
export function buildFailure(error: unknown): UpstreamFailure {
  // An adapter's AppError names what this channel cannot take (a 400 such as Replicate's refusal to
  // stream): the client is told so with its status, unless another channel serves the request.
  if (error instanceof AppError) return { error, retry: true, disable: false, coolDown: false };
  const code = error instanceof AppError ? undefined : (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_)/.test(code)) return networkFailure(error);
  const message = error instanceof Error ? error.message : 'the request could not be built';
  return { error: new AppError('upstream_error', message), retry: true, disable: false, coolDown: false };
}

/** Whether an exchange handed back a failure rather than an answer. */
export const isFailure = (value: object): value is UpstreamFailure => 'retry' in value && 'error' in value;
