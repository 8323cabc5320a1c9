import { upstreamUrl } from '../openai/request.js';
import type { AdapterContext, ChatAdapter, ChatRequest, UpstreamCall, UpstreamErrorInfo } from '../types.js';
import { upstreamObject } from '../values.js';
import { anthropicStreamDecoder, completionFromMessage } from './answer.js';
import { ANTHROPIC_VERSION, isRecord } from './common.js';
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

export function parseAnthropicError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8');
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) {
      const error = parsed.error;
      if (isRecord(error)) {
        return {
          status,
          message: typeof error.message === 'string' ? error.message : JSON.stringify(error),
          ...(typeof error.type === 'string' ? { type: error.type } : {}),
          ...(typeof error.code === 'string' ? { code: error.code } : {}),
        };
      }
      if (typeof error === 'string') return { status, message: error };
      if (typeof parsed.message === 'string') return { status, message: parsed.message };
    }
  } catch {
    // Not JSON (a proxy's HTML page, a plain-text failure): the text is the message.
  }
  return { status, message: text.trim().slice(0, 500) || `HTTP ${status}` };
}

export const anthropicAdapter: ChatAdapter = {
  format: 'anthropic',
  buildChat(request: ChatRequest, context: AdapterContext): UpstreamCall {
    const body = buildAnthropicBody(request, context.upstreamModel, context.stream);
    return {
      url: upstreamUrl(context.baseUrl, '/v1/messages'),
      headers: {
        'x-api-key': context.key,
        'anthropic-version': ANTHROPIC_VERSION,
        'content-type': 'application/json',
        ...context.headers,
      },
      body: JSON.stringify(body),
    };
  },
  parseChat: (body, context) => completionFromMessage(upstreamObject(body, 'answer'), context),
  decodeStream: anthropicStreamDecoder,
  parseError: parseAnthropicError,
};
