import { isRecord, num } from '../anthropic/common.js';
import { oneChoiceChunks } from '../completion.js';
import type { AdapterContext, ChatChunk, ChatUsage, Json, StreamDecoder } from '../types.js';
import { finishFromConverse, usageFromConverse } from './converse-answer.js';
import { EventStreamSplitter, payloadJson, streamFailure } from './eventstream.js';

/**
 * ConverseStream events → OpenAI chunks: `messageStart` (role), `contentBlockStart` (a tool call's
 * id and name), `contentBlockDelta` (text, tool input JSON, reasoning text), `messageStop` (finish
 * reason) and `metadata` (usage, after the stop). Exception messages throw.
 */
export function converseStreamDecoder(context: AdapterContext): StreamDecoder {
  const splitter = new EventStreamSplitter();
  let started = false;
  let stopped = false;
  let pendingUsage: ChatUsage | undefined;
  let usageSent = false;
  let toolCount = 0;
  /** Converse block index → tool-call index. */
  const toolIndex = new Map<number, number>();

  const { chunk, usageChunk } = oneChoiceChunks(context, context.upstreamModel);
  const opening = (out: ChatChunk[]) => {
    if (started) return;
    started = true;
    out.push(chunk({ role: 'assistant', content: '' }));
  };
  const callFor = (block: number, out: ChatChunk[], use: Json): number => {
    let call = toolIndex.get(block);
    if (call === undefined) {
      call = toolCount;
      toolCount += 1;
      toolIndex.set(block, call);
      out.push(
        chunk({
          tool_calls: [
            {
              index: call,
              id: String(use.toolUseId ?? ''),
              type: 'function',
              function: { name: String(use.name ?? ''), arguments: '' },
            },
          ],
        }),
      );
    }
    return call;
  };

  const handle = (type: string, event: Json, out: ChatChunk[]) => {
    switch (type) {
      case 'messageStart':
        opening(out);
        break;
      case 'contentBlockStart': {
        opening(out);
        const start = isRecord(event.start) ? event.start : {};
        if (isRecord(start.toolUse)) callFor(num(event.contentBlockIndex), out, start.toolUse);
        break;
      }
      case 'contentBlockDelta': {
        opening(out);
        const delta = isRecord(event.delta) ? event.delta : {};
        if (typeof delta.text === 'string') {
          if (delta.text) out.push(chunk({ content: delta.text }));
        } else if (isRecord(delta.toolUse)) {
          const input = delta.toolUse.input;
          const call = toolIndex.get(num(event.contentBlockIndex));
          if (call !== undefined && typeof input === 'string' && input) {
            out.push(chunk({ tool_calls: [{ index: call, function: { arguments: input } }] }));
          }
        } else if (isRecord(delta.reasoningContent)) {
          const text = delta.reasoningContent.text;
          if (typeof text === 'string' && text) out.push(chunk({ reasoning_content: text }));
          // signature and redactedContent have no OpenAI equivalent.
        }
        break;
      }
      case 'messageStop':
        if (stopped) break;
        opening(out);
        stopped = true;
        out.push(chunk({}, finishFromConverse(event.stopReason)));
        if (pendingUsage && !usageSent) {
          usageSent = true;
          out.push(usageChunk(pendingUsage));
        }
        break;
      case 'metadata':
        if (!isRecord(event.usage) || usageSent) break;
        pendingUsage = usageFromConverse(event.usage);
        if (stopped) {
          usageSent = true;
          out.push(usageChunk(pendingUsage));
        }
        break;
      default:
        // contentBlockStop and event types added later carry nothing to translate.
        break;
    }
  };

  return {
    push(bytes) {
      const out: ChatChunk[] = [];
      for (const message of splitter.push(bytes)) {
        if (message.kind !== 'event') throw streamFailure(message);
        handle(message.type, payloadJson(message), out);
      }
      return out;
    },
    end() {
      splitter.finish();
      if (!stopped) throw new Error('the upstream stream ended before the message was complete');
      return [];
    },
  };
}
