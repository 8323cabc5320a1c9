import { SseSplitter } from '../../transport/sse.js';
import { chunksOfEvents, joinedOrNull, singleChoiceCompletion } from '../completion.js';
import type {
  AdapterContext,
  ChatChunk,
  ChatCompletion,
  ChatToolCall,
  ChatUsage,
  FinishReason,
  Json,
  StreamDecoder,
} from '../types.js';
import { finishFromStopReason, isRecord, num, usageFromAnthropic } from './common.js';

/** Anthropic answers, whole and streamed, in the canonical chat shape. */

// ---- answers ----

export function completionFromMessage(message: Json, context: AdapterContext): ChatCompletion {
  if (message.type === 'error' && isRecord(message.error)) {
    throw new Error(String(message.error.message ?? 'the upstream answered with an error'));
  }
  if (!Array.isArray(message.content)) throw new Error("the upstream's answer has no content list");
  const texts: string[] = [];
  const thoughts: string[] = [];
  const calls: ChatToolCall[] = [];
  for (const block of message.content) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'thinking' && typeof block.thinking === 'string') thoughts.push(block.thinking);
    else if (block.type === 'tool_use') {
      calls.push({
        id: String(block.id ?? ''),
        type: 'function',
        function: { name: String(block.name ?? ''), arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  return singleChoiceCompletion(
    context,
    typeof message.model === 'string' ? message.model : context.upstreamModel,
    { content: joinedOrNull(texts), thoughts, calls },
    finishFromStopReason(message.stop_reason),
    isRecord(message.usage) ? usageFromAnthropic(message.usage) : undefined,
  );
}

// ---- streams ----

function usageOf(start: Json, delta: Json): ChatUsage {
  // message_delta counts are cumulative; where it repeats an input count, it is the newer one.
  return usageFromAnthropic({ ...start, ...Object.fromEntries(Object.entries(delta).filter(([, v]) => v != null)) });
}

export function anthropicStreamDecoder(context: AdapterContext): StreamDecoder {
  const splitter = new SseSplitter();
  let model = context.upstreamModel;
  let started = false;
  let startUsage: Json = {};
  let deltaUsage: Json = {};
  let finish: FinishReason | null = null;
  let sawDelta = false;
  let stopped = false;
  let toolCount = 0;
  /** Anthropic block index → tool-call index, for tool_use blocks only. */
  const toolIndex = new Map<number, number>();

  const chunk = (
    delta: ChatChunk['choices'][number]['delta'],
    finishReason: FinishReason | null = null,
  ): ChatChunk => ({
    id: context.responseId,
    object: 'chat.completion.chunk',
    created: context.now,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const closing = (): ChatChunk[] => {
    const out = [chunk({}, finish ?? 'stop')];
    // No usage anywhere (some compatible proxies omit it): no usage chunk, the caller counts.
    if (Object.keys(startUsage).length === 0 && Object.keys(deltaUsage).length === 0) return out;
    out.push({
      id: context.responseId,
      object: 'chat.completion.chunk',
      created: context.now,
      model,
      choices: [],
      usage: usageOf(startUsage, deltaUsage),
    });
    return out;
  };
  const opening = (out: ChatChunk[]) => {
    if (started) return;
    started = true;
    out.push(chunk({ role: 'assistant', content: '' }));
  };

  const handle = (event: Json, out: ChatChunk[]) => {
    switch (event.type) {
      case 'message_start': {
        const message = isRecord(event.message) ? event.message : {};
        if (typeof message.model === 'string' && message.model) model = message.model;
        if (isRecord(message.usage)) startUsage = message.usage;
        opening(out);
        break;
      }
      case 'content_block_start': {
        opening(out);
        const block = isRecord(event.content_block) ? event.content_block : {};
        const index = num(event.index);
        if (block.type === 'text' && typeof block.text === 'string' && block.text) {
          out.push(chunk({ content: block.text }));
        } else if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking) {
          out.push(chunk({ reasoning_content: block.thinking }));
        } else if (block.type === 'tool_use') {
          const call = toolCount;
          toolCount += 1;
          toolIndex.set(index, call);
          const input = isRecord(block.input) && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '';
          out.push(
            chunk({
              tool_calls: [
                {
                  index: call,
                  id: String(block.id ?? ''),
                  type: 'function',
                  function: { name: String(block.name ?? ''), arguments: input },
                },
              ],
            }),
          );
        }
        break;
      }
      case 'content_block_delta': {
        opening(out);
        const delta = isRecord(event.delta) ? event.delta : {};
        if (delta.type === 'text_delta' && typeof delta.text === 'string') {
          if (delta.text) out.push(chunk({ content: delta.text }));
        } else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') {
          if (delta.thinking) out.push(chunk({ reasoning_content: delta.thinking }));
        } else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          const call = toolIndex.get(num(event.index));
          if (call !== undefined && delta.partial_json) {
            out.push(chunk({ tool_calls: [{ index: call, function: { arguments: delta.partial_json } }] }));
          }
        }
        // signature_delta and citations_delta have no OpenAI equivalent.
        break;
      }
      case 'message_delta': {
        sawDelta = true;
        const delta = isRecord(event.delta) ? event.delta : {};
        if (delta.stop_reason !== undefined && delta.stop_reason !== null) {
          finish = finishFromStopReason(delta.stop_reason);
        }
        if (isRecord(event.usage)) deltaUsage = { ...deltaUsage, ...event.usage };
        break;
      }
      case 'message_stop':
        if (stopped) break;
        opening(out);
        stopped = true;
        out.push(...closing());
        break;
      case 'error': {
        const error = isRecord(event.error) ? event.error : {};
        const message = typeof error.message === 'string' ? error.message : 'the upstream stream failed';
        const failure = new Error(typeof error.type === 'string' ? `${error.type}: ${message}` : message);
        throw Object.assign(failure, { type: error.type });
      }
      default:
        // ping, content_block_stop and event types added later carry nothing to translate.
        break;
    }
  };

  const chunksOf = (events: string[]): ChatChunk[] => chunksOfEvents(events, handle);

  return {
    push: (bytes) => chunksOf(splitter.push(bytes)),
    end() {
      const out = chunksOf(splitter.finish());
      if (stopped) return out;
      if (!sawDelta) throw new Error('the upstream stream ended before the message was complete');
      // message_delta came, message_stop did not: the answer is whole, only the last event is missing.
      opening(out);
      stopped = true;
      out.push(...closing());
      return out;
    },
  };
}
