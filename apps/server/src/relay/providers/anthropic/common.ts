import type { ChatRequest, ChatUsage, FinishReason, Json } from '../types.js';
import { isRecord, num } from '../values.js';

export { isRecord, num };

/**
 * Pieces shared by the Anthropic adapter (OpenAI → Anthropic upstream), the Anthropic surface
 * (Anthropic clients → any upstream) and the native pass-through meter.
 */

export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Thinking budgets per OpenAI reasoning effort. Anthropic's minimum budget is 1024 tokens; the
 * other levels double/quadruple from there so each step is a clear difference in depth.
 */
export const EFFORT_BUDGETS = { minimal: 1024, low: 2048, medium: 8192, high: 24576 } as const;
export type Effort = keyof typeof EFFORT_BUDGETS;

/** The effort whose budget is nearest (by absolute difference) to an Anthropic `budget_tokens`. */
export function effortForBudget(budget: number): Effort {
  let best: Effort = 'minimal';
  for (const effort of Object.keys(EFFORT_BUDGETS) as Effort[]) {
    if (Math.abs(EFFORT_BUDGETS[effort] - budget) < Math.abs(EFFORT_BUDGETS[best] - budget)) best = effort;
  }
  return best;
}

/**
 * The exact `thinking.budget_tokens` an Anthropic client asked for, carried on the canonical
 * request under a symbol: JSON.stringify skips symbol keys, so an OpenAI-format upstream never
 * sees it, while the Anthropic adapter reads it back instead of the coarser `reasoning_effort`.
 */
export const THINKING_BUDGET: unique symbol = Symbol.for('one-hub.anthropic.thinking_budget');

export function thinkingBudgetOf(request: ChatRequest): number | undefined {
  const value = (request as { [THINKING_BUDGET]?: unknown })[THINKING_BUDGET];
  return typeof value === 'number' && value > 0 ? value : undefined;
}

export function setThinkingBudget(request: ChatRequest, budget: number): void {
  (request as { [THINKING_BUDGET]?: number })[THINKING_BUDGET] = budget;
}

/** Anthropic `usage` → OpenAI usage: the prompt counts cached reads and cache writes too. */
export function usageFromAnthropic(usage: Json): ChatUsage {
  return usageWithCache({
    input: num(usage.input_tokens),
    output: num(usage.output_tokens),
    cacheRead: num(usage.cache_read_input_tokens),
    cacheWrite: num(usage.cache_creation_input_tokens),
  });
}

/**
 * OpenAI usage from counts that keep the cached prompt apart (Anthropic, Bedrock Converse): the
 * prompt is the uncached input plus what was read from and written to the cache.
 */
export function usageWithCache(counts: {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}): ChatUsage {
  const { cacheRead, cacheWrite } = counts;
  const prompt = counts.input + cacheRead + cacheWrite;
  const completion = counts.output;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cacheRead, cached_write_tokens: cacheWrite, cached_read_tokens: cacheRead },
  };
}

/** OpenAI usage → Anthropic `usage`: Anthropic's `input_tokens` excludes the cached parts. */
export function usageToAnthropic(usage: ChatUsage | undefined | null): {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
} {
  const cacheRead = num(usage?.prompt_tokens_details?.cached_tokens);
  const cacheWrite = num(usage?.prompt_tokens_details?.cached_write_tokens);
  return {
    input_tokens: Math.max(0, num(usage?.prompt_tokens) - cacheRead - cacheWrite),
    output_tokens: num(usage?.completion_tokens),
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
  };
}

/** Anthropic `stop_reason` → OpenAI `finish_reason`. Unknown reasons read as a normal stop. */
export function finishFromStopReason(reason: unknown): FinishReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      // end_turn, stop_sequence, pause_turn (a server tool paused the turn: nothing more is coming).
      return 'stop';
  }
}

/** OpenAI `finish_reason` → Anthropic `stop_reason`. */
export function stopReasonFromFinish(finish: FinishReason | null | undefined, hasToolCalls: boolean): string {
  if (hasToolCalls && (finish === 'stop' || finish === null || finish === undefined)) return 'tool_use';
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

/** `data:<mime>;base64,<data>` → its parts, or undefined for any other URL. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)((?:;[^;,]*)*);base64,/i.exec(url);
  if (!match?.[1]) return undefined;
  return { mediaType: match[1].toLowerCase(), data: url.slice(match[0].length) };
}

/** A `msg_…` id from a canonical `chatcmpl-…` id. */
export function messageIdOf(id: string): string {
  if (id.startsWith('msg_')) return id;
  return `msg_${id.replace(/^chatcmpl-/, '') || 'unknown'}`;
}
