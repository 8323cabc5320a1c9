import { commonErrorType } from '../error-types.js';
import type { AdapterContext, ChatUsage, FinishReason, UpstreamErrorInfo } from '../types.js';
import { isRecord, num } from '../values.js';

export { isRecord, num };

/** Pieces shared by the Cohere chat, embed and rerank translations. */

export const COHERE_DEFAULT_BASE_URL = 'https://api.cohere.com';

/** A finite number, or undefined. */
export const numberOr = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * `{base}/v2/{endpoint}`. A base URL that already ends in an API version (`…/v1`, `…/v2`, as
 * people copy it from Cohere's docs) is not given a second one; an empty one is Cohere's own.
 */
export function cohereUrl(baseUrl: string, endpoint: 'chat' | 'embed' | 'rerank'): string {
  const base = (baseUrl.trim() || COHERE_DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/\/v[12]$/, '');
  return `${base}/v2/${endpoint}`;
}

/** Bearer key, JSON body; the channel's own headers first so they cannot replace the key. */
export function cohereHeaders(context: AdapterContext, stream: boolean): Record<string, string> {
  return {
    ...context.headers,
    authorization: `Bearer ${context.key}`,
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  };
}

/**
 * Cohere `usage` (chat) → OpenAI usage. `tokens` counts what the model read and wrote (the
 * prompt Cohere wraps around the messages included); `billed_units` is what Cohere invoices and
 * is used only when `tokens` is missing. `cached_tokens` are part of the input.
 */
export function usageFromCohere(usage: unknown): ChatUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const tokens = isRecord(usage.tokens) ? usage.tokens : {};
  const billed = isRecord(usage.billed_units) ? usage.billed_units : {};
  const input = numberOr(tokens.input_tokens) ?? numberOr(billed.input_tokens);
  const output = numberOr(tokens.output_tokens) ?? numberOr(billed.output_tokens);
  if (input === undefined && output === undefined) return undefined;
  const prompt = input ?? 0;
  const completion = output ?? 0;
  const cached = numberOr(usage.cached_tokens);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(cached ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  };
}

/**
 * Cohere `finish_reason` → OpenAI. `ERROR` is not a finish at all (the caller raises it);
 * reasons added later read as a normal stop.
 */
export function finishFromCohere(reason: unknown, hasToolCalls: boolean): FinishReason {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'TOOL_CALL':
      return 'tool_calls';
    default:
      // COMPLETE, STOP_SEQUENCE.
      return hasToolCalls ? 'tool_calls' : 'stop';
  }
}

/** OpenAI-style error types for Cohere's statuses (the relay disables channels on some of them). */
function errorType(status: number): string | undefined {
  switch (status) {
    case 422:
    case 498:
      return 'invalid_request_error';
    case 404:
      return 'not_found_error';
    case 503:
      return 'overloaded_error';
    case 504:
      return 'timeout_error';
    case 403:
      // Cohere's body has no code to read, and a proxy or firewall in front answers 403 too (maybe
      // provoked by the request's content): typed, it would switch the channel off.
      return undefined;
    default:
      return commonErrorType(status) ?? (status >= 500 ? 'api_error' : undefined);
  }
}

/** Cohere errors are `{"message": "…"}` (some with an `id`); proxies in front answer HTML or text. */
export function parseCohereError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  const type = errorType(status);
  const withType = (message: string): UpstreamErrorInfo => ({ status, message, ...(type ? { type } : {}) });
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) {
      if (typeof parsed.message === 'string' && parsed.message) return withType(parsed.message);
      const { error } = parsed;
      if (typeof error === 'string' && error) return withType(error);
      if (isRecord(error) && typeof error.message === 'string') return withType(error.message);
      if (typeof parsed.data === 'string' && parsed.data) return withType(parsed.data);
    }
  } catch {
    // Not JSON: the text is the message.
  }
  return withType(text.trim().slice(0, 500) || `HTTP ${status}`);
}
