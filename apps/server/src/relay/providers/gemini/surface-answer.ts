import { parseArguments } from '../block-messages.js';
import type { ChatCompletion, ChatUsage, FinishReason, Json } from '../types.js';
import { finishToGemini, num, signatureOf } from './common.js';

/** The canonical whole answer → a Gemini `GenerateContentResponse`; the parts streams share. */

export type Part = Json;

export function functionCallPart(call: { id?: string; name: string; arguments: string; signature?: string }): Part {
  const functionCall: Json = { name: call.name, args: parseArguments(call.arguments) };
  if (call.id) functionCall.id = call.id;
  const part: Part = { functionCall };
  if (call.signature) part.thoughtSignature = call.signature;
  return part;
}

/** OpenAI usage → Gemini `usageMetadata` (candidates exclude thoughts, which are counted apart). */
export function usageToGemini(usage: ChatUsage): Json {
  const thoughts = num(usage.completion_tokens_details?.reasoning_tokens);
  const meta: Json = {
    promptTokenCount: usage.prompt_tokens,
    candidatesTokenCount: Math.max(0, usage.completion_tokens - thoughts),
    totalTokenCount: usage.total_tokens || usage.prompt_tokens + usage.completion_tokens,
  };
  if (thoughts > 0) meta.thoughtsTokenCount = thoughts;
  const cached = num(usage.prompt_tokens_details?.cached_tokens);
  if (cached > 0) meta.cachedContentTokenCount = cached;
  return meta;
}

export function candidate(index: number, parts: Part[], reason: FinishReason | null | undefined): Json {
  const finishReason = finishToGemini(reason);
  const entry: Json = {};
  // A filtered candidate has no content on Gemini; any other always has at least one part.
  if (parts.length > 0 || finishReason !== 'SAFETY') {
    entry.content = { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] };
  }
  entry.finishReason = finishReason;
  entry.index = index;
  return entry;
}

export function chatToGemini(completion: ChatCompletion, requestedModel: string): Json {
  const choices = Array.isArray(completion.choices) ? completion.choices : [];
  const candidates = choices.map((choice) => {
    const message = choice.message ?? { role: 'assistant', content: null };
    const parts: Part[] = [];
    if (message.reasoning_content) parts.push({ text: message.reasoning_content, thought: true });
    if (message.content) parts.push({ text: message.content });
    else if (message.refusal) parts.push({ text: message.refusal });
    for (const call of message.tool_calls ?? []) {
      parts.push(
        functionCallPart({
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
          signature: signatureOf(call),
        }),
      );
    }
    return candidate(choice.index, parts, choice.finish_reason);
  });
  const response: Json = { candidates };
  if (completion.usage) response.usageMetadata = usageToGemini(completion.usage);
  response.modelVersion = requestedModel;
  if (completion.id) response.responseId = completion.id;
  return response;
}
