import { isRecord, num, usageWithCache } from '../anthropic/common.js';
import type { AdapterContext, ChatCompletion, ChatToolCall, ChatUsage, FinishReason, Json } from '../types.js';

/** A Converse answer in the canonical chat shape. */

/** Converse `stopReason` → OpenAI `finish_reason`. */
export function finishFromConverse(reason: unknown): FinishReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    default:
      // end_turn, stop_sequence, and reasons added later.
      return 'stop';
  }
}

/** Converse `usage` → OpenAI usage; `inputTokens` excludes the cached parts, the prompt includes them. */
export function usageFromConverse(usage: Json): ChatUsage {
  return usageWithCache({
    input: num(usage.inputTokens),
    output: num(usage.outputTokens),
    cacheRead: num(usage.cacheReadInputTokens),
    cacheWrite: num(usage.cacheWriteInputTokens),
  });
}

export function completionFromConverse(answer: Json, context: AdapterContext): ChatCompletion {
  const output = isRecord(answer.output) ? answer.output : undefined;
  const message = output && isRecord(output.message) ? output.message : undefined;
  if (!message || !Array.isArray(message.content)) {
    throw new Error("the upstream's answer has no output.message.content");
  }
  const texts: string[] = [];
  const thoughts: string[] = [];
  const calls: ChatToolCall[] = [];
  for (const block of message.content) {
    if (!isRecord(block)) continue;
    if (typeof block.text === 'string') texts.push(block.text);
    else if (isRecord(block.toolUse)) {
      const use = block.toolUse;
      calls.push({
        id: String(use.toolUseId ?? ''),
        type: 'function',
        function: { name: String(use.name ?? ''), arguments: JSON.stringify(use.input ?? {}) },
      });
    } else if (isRecord(block.reasoningContent) && isRecord(block.reasoningContent.reasoningText)) {
      const text = block.reasoningContent.reasoningText.text;
      if (typeof text === 'string') thoughts.push(text);
    }
    // redacted reasoning, citations, guard content: no OpenAI equivalent.
  }
  const completion: ChatCompletion = {
    id: context.responseId,
    object: 'chat.completion',
    created: context.now,
    model: context.upstreamModel,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: texts.length > 0 ? texts.join('') : null,
          ...(thoughts.length > 0 ? { reasoning_content: thoughts.join('') } : {}),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        finish_reason: finishFromConverse(answer.stopReason),
      },
    ],
  };
  if (isRecord(answer.usage)) completion.usage = usageFromConverse(answer.usage);
  return completion;
}
