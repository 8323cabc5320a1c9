import type { Json, SurfaceTranslator } from '../types.js';
import { anthropicFromChat } from './surface-answer.js';
import { anthropicToChat } from './surface-request.js';
import { anthropicStreamEncoder } from './surface-stream.js';

/**
 * Clients that speak Anthropic's Messages API (Claude Code, `@anthropic-ai/sdk`) in front of any
 * upstream. Documented choices:
 * - `system` as a string is one system message; as blocks, one system message per block (so an
 *   Anthropic upstream gets the same blocks back). `cache_control` marks are dropped.
 * - Assistant text blocks are joined into one string (widest vendor support); thinking blocks go
 *   to `reasoning_content` (signatures and redacted thinking are dropped).
 * - Tool results become `tool` messages placed before the rest of their user turn; text-only
 *   results are joined with newlines into a string, results with images keep their parts.
 *   `is_error: true` is noted by prefixing the text with `[tool error] `.
 * - `thinking: {type:'enabled', budget_tokens}` → the nearest `reasoning_effort` and the exact
 *   budget under a symbol key (invisible in JSON) for the Anthropic adapter. `adaptive` → medium.
 * - Server tools (web search, code execution…), Files API sources and URL documents are refused
 *   with a 400: no other upstream can run them through this translation.
 */

const ERROR_TYPES = new Set([
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'request_too_large',
  'rate_limit_error',
  'api_error',
  'timeout_error',
  'overloaded_error',
]);

export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return 'api_error';
  }
}

export const anthropicSurface: SurfaceTranslator = {
  toChat: anthropicToChat,
  fromChat: anthropicFromChat,
  encodeStream: anthropicStreamEncoder,
  errorBody(status: number, message: string, type?: string): Json {
    // An Anthropic type from upstream is kept; anything else is derived from the status.
    const errorType = type && ERROR_TYPES.has(type) ? type : anthropicErrorType(status);
    return { type: 'error', error: { type: errorType, message } };
  },
};

export { anthropicFromChat, anthropicStreamEncoder, anthropicToChat };
