import { isRecord, num } from '../anthropic/common.js';
import type { ChatRequest, ChatUsage, FinishReason, Json } from '../types.js';

/**
 * Pieces shared by the Responses request translation, the whole-answer translation and the
 * stream encoder: ids, usage, the terminal status and the request fields a response echoes.
 */

export { isRecord, num };

/**
 * The id stem of a canonical answer: `chatcmpl-abc` → `abc`. Every id of the translated response
 * is built from it, so a response and its items can be matched up in logs.
 */
export function idStem(id: string | undefined): string {
  const stem = (id ?? '').replace(/^(chatcmpl-|chatcmpl_|resp_|msg_)/, '');
  return stem.replace(/[^\w-]/g, '') || 'unknown';
}

export const responseIdOf = (stem: string): string => `resp_${stem}`;

/** Item ids carry their output index, so a stream and a whole answer of the same text agree. */
export const itemId = (prefix: 'msg' | 'rs' | 'fc', stem: string, outputIndex: number): string =>
  `${prefix}_${stem}_${outputIndex}`;

/** A tool call id for an upstream that gave none (Responses requires `call_id`). */
export const fallbackCallId = (stem: string, index: number): string => `call_${stem}_${index}`;

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/**
 * Canonical usage → Responses usage. Both count cached tokens inside the input and reasoning
 * tokens inside the output; Anthropic-style cache writes have no field of their own here and
 * stay counted in `input_tokens`.
 */
export function usageToResponses(usage: ChatUsage | null | undefined): ResponsesUsage {
  const input = num(usage?.prompt_tokens);
  const output = num(usage?.completion_tokens);
  const total = num(usage?.total_tokens) || input + output;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: num(usage?.prompt_tokens_details?.cached_tokens) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: num(usage?.completion_tokens_details?.reasoning_tokens) },
    total_tokens: total,
  };
}

export type ResponseStatus = 'completed' | 'incomplete';

/** `length` and `content_filter` end a response as incomplete, with OpenAI's reasons. */
export function statusOf(finish: FinishReason | null | undefined): {
  status: ResponseStatus;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
} {
  if (finish === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finish === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/**
 * The request fields a Responses `response` object repeats (instructions, tools, sampling…).
 * `toChat` leaves them on the canonical request under a symbol key, which JSON.stringify skips,
 * so no upstream ever sees them; `fromChat`/`encodeStream` read them back when the caller hands
 * them the canonical request (an optional third argument the contract does not have).
 */
export const RESPONSES_ECHO: unique symbol = Symbol.for('one-hub.responses.echo');

export interface ResponsesEcho {
  instructions: string | null;
  metadata: Json;
  tools: unknown[];
  tool_choice: unknown;
  temperature: number | null;
  top_p: number | null;
  max_output_tokens: number | null;
  parallel_tool_calls: boolean;
  reasoning: { effort: string | null; summary: string | null };
  text: Json;
  truncation: string;
  store: boolean;
  user: string | null;
}

export const DEFAULT_ECHO: ResponsesEcho = {
  instructions: null,
  metadata: {},
  tools: [],
  tool_choice: 'auto',
  temperature: null,
  top_p: null,
  max_output_tokens: null,
  parallel_tool_calls: true,
  reasoning: { effort: null, summary: null },
  text: { format: { type: 'text' } },
  truncation: 'disabled',
  store: false,
  user: null,
};

export function setEcho(request: ChatRequest, echo: ResponsesEcho): void {
  (request as { [RESPONSES_ECHO]?: ResponsesEcho })[RESPONSES_ECHO] = echo;
}

export function echoOf(request: ChatRequest | undefined): ResponsesEcho {
  const echo = request && (request as { [RESPONSES_ECHO]?: ResponsesEcho })[RESPONSES_ECHO];
  return echo ?? DEFAULT_ECHO;
}

/** The frame of one event: `event: <type>` and its JSON, which repeats the type. */
export const frame = (data: Json & { type: string }): string =>
  `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

export const present = (value: unknown): boolean => value !== undefined && value !== null;

export function requiredString(value: unknown, path: string): string {
  if (typeof value !== 'string' || !value) throw new Error(`${path}: a non-empty string is required`);
  return value;
}
