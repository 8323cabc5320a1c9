import { eventData } from '../transport/sse.js';
import type { AdapterContext, ChatChunk, ChatCompletion, Json } from './types.js';
import { firstCharacters, isRecord, upstreamJson } from './values.js';

/**
 * What the adapters of vendors with one answer per request (Anthropic, Bedrock Converse, Cohere)
 * share once they have read the vendor's own blocks: the canonical completion, and the reading of
 * a stream's events into chunks.
 */

type Choice = ChatCompletion['choices'][number];

/** One assistant message as an adapter gathered it from a vendor's whole answer. */
export interface AssistantParts {
  /** The visible text; null when there is none (a tool call alone). */
  content: string | null;
  /** Reasoning, in order. */
  thoughts: string[];
  calls: NonNullable<Choice['message']['tool_calls']>;
}

/** The text of `texts` joined, or null when there was none. */
export const joinedOrNull = (texts: string[]): string | null => (texts.length > 0 ? texts.join('') : null);

/** The canonical completion with the one choice such an answer carries. */
export function singleChoiceCompletion(
  context: AdapterContext,
  model: string,
  parts: AssistantParts,
  finish: Choice['finish_reason'],
  usage: ChatCompletion['usage'],
): ChatCompletion {
  const { thoughts, calls } = parts;
  const completion: ChatCompletion = {
    id: context.responseId,
    object: 'chat.completion',
    created: context.now,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: parts.content,
          ...(thoughts.length > 0 ? { reasoning_content: thoughts.join('') } : {}),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        finish_reason: finish,
      },
    ],
  };
  if (usage) completion.usage = usage;
  return completion;
}

/**
 * Hands the JSON data of each server-sent event to `handle`, which adds the chunks it makes to
 * `out`. Events without data, and a `[DONE]` some proxies append, carry nothing.
 */
export function chunksOfEvents(events: string[], handle: (event: Json, out: ChatChunk[]) => void): ChatChunk[] {
  const out: ChatChunk[] = [];
  for (const text of events) {
    const data = eventData(text);
    if (data === undefined || data === '' || data === '[DONE]') continue;
    const event = upstreamJson(data, 'stream event', firstCharacters);
    if (isRecord(event)) handle(event, out);
  }
  return out;
}

type Delta = ChatChunk['choices'][number]['delta'];

/**
 * The chunks of a one-choice stream: a delta (with the finish reason on the last), and the
 * usage chunk that closes it. Made once per stream.
 */
export function oneChoiceChunks(context: AdapterContext, model: string) {
  const { responseId: id, now: created } = context;
  return {
    chunk: (delta: Delta, finish: Choice['finish_reason'] | null = null): ChatChunk => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    }),
    usageChunk: (usage: NonNullable<ChatChunk['usage']>): ChatChunk => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [],
      usage,
    }),
  };
}
