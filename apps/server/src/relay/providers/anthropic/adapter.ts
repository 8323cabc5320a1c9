import { parseOpenAiError } from '../openai/adapter.js';
import { upstreamUrl } from '../openai/request.js';
import type { AdapterContext, ChatAdapter, ChatRequest, UpstreamCall, UpstreamErrorInfo } from '../types.js';
import { upstreamObject } from '../values.js';
import { anthropicStreamDecoder, completionFromMessage } from './answer.js';
import { ANTHROPIC_VERSION } from './common.js';
import { buildAnthropicBody } from './request.js';

export * from './answer.js';
export * from './request.js';

/**
 * OpenAI chat completions → Anthropic Messages API (`POST /v1/messages`) and back.
 *
 * Documented choices:
 * - `max_tokens` is required by Anthropic. Without `max_completion_tokens`/`max_tokens` we send
 *   4096 for the Claude 3 family (claude-3-opus/sonnet/haiku, whose output limit is 4096) and 8192
 *   for everything newer (3.5, 3.7, 4.x), the limit of the smallest of those.
 * - Thinking is on when the upstream model ends with `#thinking` (budget of `medium`) or the request
 *   has `reasoning_effort` (minimal 1024, low 2048, medium 8192, high 24576 budget tokens), or an
 *   exact budget carried from an Anthropic client. `max_tokens` ≤ budget is raised to budget + 4096.
 *   `temperature`, `top_p`, `top_k` are removed with thinking. `reasoning_effort` is ignored for
 *   models that cannot think (Claude 2, 3 and 3.5). Thinking is also left off when Anthropic would
 *   refuse it: a forced tool choice, or a tool loop whose last assistant turn (from an OpenAI
 *   client) cannot carry the signed thinking block Anthropic demands back.
 * - System and developer messages anywhere in the conversation are hoisted to `system`. A request
 *   with only system messages sends them as the user turn instead (Anthropic needs one message).
 * - A tool message whose text starts with `[tool error] ` (how the Anthropic surface notes
 *   `is_error`) goes back as a `tool_result` with `is_error: true`.
 * - Dropped, for Anthropic has no equivalent: n, seed, presence/frequency penalties,
 *   response_format, logprobs; and assistant `reasoning_content` (no signature to echo it with).
 */

// ---- errors ----

/**
 * Anthropic's error envelope is OpenAI's (`{"type": "error", "error": {"type", "message"}}`), and
 * so are the bare `{"error": "…"}` and `{"message": "…"}` that proxies in front of it answer.
 */
export const parseAnthropicError: (status: number, body: Buffer) => UpstreamErrorInfo = parseOpenAiError;

export const anthropicAdapter: ChatAdapter = {
  format: 'anthropic',
  buildChat(request: ChatRequest, context: AdapterContext): UpstreamCall {
    const body = buildAnthropicBody(request, context.upstreamModel, context.stream, context.settings);
    return {
      url: upstreamUrl(context.baseUrl, '/v1/messages'),
      // The channel's headers first: as in One Hub, they never replace the key or the API version.
      headers: {
        ...context.headers,
        'content-type': 'application/json',
        'anthropic-version': ANTHROPIC_VERSION,
        'x-api-key': context.key,
      },
      body: JSON.stringify(body),
    };
  },
  parseChat: (body, context) => completionFromMessage(upstreamObject(body, 'answer'), context),
  decodeStream: anthropicStreamDecoder,
  parseError: parseAnthropicError,
};
