import { parseArguments } from '../block-messages.js';
import type { ChatCompletion, Json } from '../types.js';
import { messageIdOf, stopReasonFromFinish, usageToAnthropic } from './common.js';

/** The canonical whole answer → an Anthropic `message`. */

export function anthropicFromChat(completion: ChatCompletion, requestedModel: string): Json {
  const choice = completion.choices?.[0];
  const message = choice?.message;
  const content: Json[] = [];
  if (message?.reasoning_content)
    content.push({ type: 'thinking', thinking: message.reasoning_content, signature: '' });
  const text = message?.content || message?.refusal;
  if (text) content.push({ type: 'text', text });
  const calls = message?.tool_calls ?? [];
  for (const call of calls) {
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: parseArguments(call.function.arguments),
    });
  }
  return {
    id: messageIdOf(completion.id),
    type: 'message',
    role: 'assistant',
    model: requestedModel,
    content,
    stop_reason: stopReasonFromFinish(choice?.finish_reason, calls.length > 0),
    stop_sequence: null,
    usage: usageToAnthropic(completion.usage),
  };
}
