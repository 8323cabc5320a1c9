import { SseSplitter } from '../../transport/sse.js';
import { chunksOfEvents, oneChoiceChunks } from '../completion.js';
import type { AdapterContext, ChatChunk, Json, StreamDecoder } from '../types.js';
import { finishFromCohere, isRecord, num, usageFromCohere } from './common.js';

/**
 * Cohere's chat stream (server-sent events, one JSON object a `data:` line, named by `type`) →
 * OpenAI chunks, as they come:
 *
 * - `message-start` → the role chunk; `content-delta` → `content` (text) or `reasoning_content`
 *   (thinking); `tool-plan-delta` → `content`, as the whole answer reads it.
 * - `tool-call-start` → a tool call with its id and name, `tool-call-delta` → its argument
 *   fragments, forwarded as they come. Cohere numbers tool calls by content index (which may
 *   start after a tool plan); OpenAI indices are dense from 0.
 * - `message-end` → the finish chunk, then the usage chunk; `finish_reason: ERROR` (with the
 *   `error` text Cohere gives) is raised as an error.
 * - `content-start` (normally empty), `content-end`, `tool-call-end`, `citation-*`, a trailing
 *   `[DONE]` and types added later carry nothing to translate.
 *
 * Only the unfinished event and a few counters are held, whatever the length of the answer.
 */
export function cohereStreamDecoder(context: AdapterContext): StreamDecoder {
  const splitter = new SseSplitter();
  const model = context.upstreamModel.replace(/#thinking$/, '');
  let started = false;
  let ended = false;
  let toolCount = 0;
  /** Cohere's tool-call index → the OpenAI one. */
  const toolIndex = new Map<number, number>();

  const { chunk, usageChunk } = oneChoiceChunks(context, model);
  const opening = (out: ChatChunk[]) => {
    if (started) return;
    started = true;
    out.push(chunk({ role: 'assistant', content: '' }));
  };
  const messageOf = (event: Json): Json => {
    const delta = isRecord(event.delta) ? event.delta : {};
    return isRecord(delta.message) ? delta.message : {};
  };

  const handle = (event: Json, out: ChatChunk[]) => {
    switch (event.type) {
      case 'message-start':
        opening(out);
        break;
      case 'content-start':
      case 'content-delta': {
        opening(out);
        const content = messageOf(event).content;
        if (!isRecord(content)) break;
        if (typeof content.text === 'string' && content.text) out.push(chunk({ content: content.text }));
        if (typeof content.thinking === 'string' && content.thinking) {
          out.push(chunk({ reasoning_content: content.thinking }));
        }
        break;
      }
      case 'tool-plan-delta': {
        opening(out);
        const plan = messageOf(event).tool_plan;
        if (typeof plan === 'string' && plan) out.push(chunk({ content: plan }));
        break;
      }
      case 'tool-call-start': {
        opening(out);
        const call = messageOf(event).tool_calls;
        if (!isRecord(call)) break;
        const fn = isRecord(call.function) ? call.function : {};
        const index = toolCount;
        toolCount += 1;
        toolIndex.set(num(event.index), index);
        out.push(
          chunk({
            tool_calls: [
              {
                index,
                id: typeof call.id === 'string' ? call.id : '',
                type: 'function',
                function: {
                  name: typeof fn.name === 'string' ? fn.name : '',
                  arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
                },
              },
            ],
          }),
        );
        break;
      }
      case 'tool-call-delta': {
        const call = messageOf(event).tool_calls;
        const fn = isRecord(call) && isRecord(call.function) ? call.function : {};
        const index = toolIndex.get(num(event.index));
        if (index !== undefined && typeof fn.arguments === 'string' && fn.arguments) {
          out.push(chunk({ tool_calls: [{ index, function: { arguments: fn.arguments } }] }));
        }
        break;
      }
      case 'message-end': {
        if (ended) break;
        opening(out);
        const delta = isRecord(event.delta) ? event.delta : {};
        if (delta.finish_reason === 'ERROR') {
          const reason = typeof delta.error === 'string' && delta.error ? delta.error : 'finish_reason ERROR';
          throw new Error(`the upstream failed while generating: ${reason}`);
        }
        ended = true;
        out.push(chunk({}, finishFromCohere(delta.finish_reason, toolCount > 0)));
        const usage = usageFromCohere(delta.usage);
        // No usage (some compatible deployments omit it): no usage chunk, the caller counts.
        if (usage) out.push(usageChunk(usage));
        break;
      }
      default:
        if (event.type === undefined && typeof event.message === 'string') {
          // An error object written into the stream instead of an event.
          throw new Error(`the upstream stream failed: ${event.message}`);
        }
        break;
    }
  };

  const chunksOf = (events: string[]): ChatChunk[] => chunksOfEvents(events, handle);

  return {
    push: (bytes) => chunksOf(splitter.push(bytes)),
    end() {
      const incomplete = new Error('the upstream stream ended before the message was complete');
      let out: ChatChunk[];
      try {
        // What is left is the last event without its blank line, or one cut off mid-way.
        out = chunksOf(splitter.finish());
      } catch (error) {
        throw ended ? error : incomplete;
      }
      if (!ended) throw incomplete;
      return out;
    },
  };
}
