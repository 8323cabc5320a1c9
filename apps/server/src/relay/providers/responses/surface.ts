import type { Json, SurfaceTranslator } from '../types.js';
import { responsesToChat } from './request.js';
import { responsesFromChat } from './response.js';
import { responsesStreamEncoder } from './stream.js';

/**
 * OpenAI's Responses API (`POST /v1/responses`: Codex-style agents, `openai.responses.create`)
 * in front of channels whose upstream has no Responses API. `fromChat` and `encodeStream` take
 * an optional third argument, the canonical request `toChat` made, to echo the request fields a
 * response repeats (instructions, tools, metadata…); without it those read as OpenAI's defaults.
 */

/** OpenAI error types by status; the SDK picks its error class from the status alone. */
export function responsesErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** OpenAI's error envelope. A 400 whose message starts with a field path names it as `param`. */
export function responsesErrorBody(status: number, message: string, type?: string): Json {
  const param = status === 400 ? (/^([\w.[\]]+):/.exec(message)?.[1] ?? null) : null;
  return { error: { message, type: type || responsesErrorType(status), param, code: null } };
}

export const responsesSurface: SurfaceTranslator = {
  toChat: responsesToChat,
  fromChat: responsesFromChat,
  encodeStream: responsesStreamEncoder,
  errorBody: responsesErrorBody,
};

export { RESPONSES_ECHO } from './common.js';
export { type ResponsesStreamEncoder, responsesStreamError } from './stream.js';
export { responsesFromChat, responsesStreamEncoder, responsesToChat };
