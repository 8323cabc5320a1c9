import { finishFromStopReason, isRecord, num, usageWithCache } from '../anthropic/common.js';
import { joinedOrNull, singleChoiceCompletion } from '../completion.js';
import type { AdapterContext, ChatCompletion, ChatToolCall, ChatUsage, FinishReason, Json } from '../types.js';

/** A Converse answer in the canonical chat shape. */

/**
 * Converse `stopReason` → OpenAI `finish_reason`: Anthropic's reasons (end_turn, max_tokens,
 * tool_use, …) plus Bedrock's guardrails and content filters.
 */
export function finishFromConverse(reason: unknown): FinishReason {
  if (reason === 'guardrail_intervened' || reason === 'content_filtered') return 'content_filter';
  return finishFromStopReason(reason);
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
  return singleChoiceCompletion(
    context,
    context.upstreamModel,
    { content: joinedOrNull(texts), thoughts, calls },
    finishFromConverse(answer.stopReason),
    isRecord(answer.usage) ? usageFromConverse(answer.usage) : undefined,
  );
}
