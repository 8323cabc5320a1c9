import type { ChatChunk, ChatChunkToolCall, ChatUsage, FinishReason, Json, StreamEncoder } from '../types.js';
import { messageIdOf, stopReasonFromFinish, usageToAnthropic } from './common.js';

/** Canonical chunks → Anthropic Messages stream events. */

const frame = (type: string, data: Json): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** Text held back while a tool block is open, at most this many characters before it is flushed. */
const HOLD_LIMIT = 64 * 1024;

type OpenBlock = { kind: 'text' | 'thinking'; index: number } | { kind: 'tool'; index: number; call: number };

/**
 * Blocks are opened and closed in order: a kind change closes the open block. Tool calls are taken
 * as OpenAI streams them, one after the other; text that arrives while a tool block is open is
 * held back (bounded) and sent as its own block after the tool block closes. Argument fragments of
 * a tool call whose block was already closed (parallel calls interleaved) cannot be placed and are
 * dropped: neither OpenAI nor the hub's own decoders interleave them.
 */
export function anthropicStreamEncoder(requestedModel: string): StreamEncoder {
  let started = false;
  let nextIndex = 0;
  let open: OpenBlock | undefined;
  const closedCalls = new Set<number>();
  let held: Array<{ kind: 'text' | 'thinking'; text: string }> = [];
  let heldSize = 0;
  let finish: FinishReason | null = null;
  let usage: ChatUsage | undefined;
  let sawToolCalls = false;
  let messageId = 'msg_stream';

  const start = (id: string | undefined): string => {
    started = true;
    if (id) messageId = messageIdOf(id);
    return frame('message_start', {
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model: requestedModel,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
      },
    });
  };

  const close = (): string => {
    if (!open) return '';
    const text = frame('content_block_stop', { index: open.index });
    if (open.kind === 'tool') closedCalls.add(open.call);
    open = undefined;
    return text;
  };

  const flushHeld = (): string => {
    const items = held;
    held = [];
    heldSize = 0;
    let out = '';
    for (const item of items) out += textDelta(item.kind, item.text);
    return out;
  };

  const textDelta = (kind: 'text' | 'thinking', text: string): string => {
    if (open?.kind === 'tool') {
      held.push({ kind, text });
      heldSize += text.length;
      if (heldSize <= HOLD_LIMIT) return '';
      return close() + flushHeld();
    }
    let out = '';
    if (open?.kind !== kind) {
      out += close();
      open = { kind, index: nextIndex++ };
      const block = kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
      out += frame('content_block_start', { index: open.index, content_block: block });
    }
    const delta = kind === 'text' ? { type: 'text_delta', text } : { type: 'thinking_delta', thinking: text };
    return out + frame('content_block_delta', { index: open.index, delta });
  };

  const toolDelta = (call: ChatChunkToolCall): string => {
    const position = typeof call.index === 'number' ? call.index : 0;
    const args = call.function?.arguments ?? '';
    let out = '';
    let block = open;
    if (block?.kind !== 'tool' || block.call !== position) {
      if (closedCalls.has(position)) return '';
      sawToolCalls = true;
      out += close() + flushHeld() + close();
      block = { kind: 'tool', index: nextIndex++, call: position };
      open = block;
      const id = call.id || `toolu_${messageId.replace(/^msg_/, '')}_${position}`;
      out += frame('content_block_start', {
        index: block.index,
        content_block: { type: 'tool_use', id, name: call.function?.name ?? '', input: {} },
      });
    }
    if (args) {
      out += frame('content_block_delta', {
        index: block.index,
        delta: { type: 'input_json_delta', partial_json: args },
      });
    }
    return out;
  };

  return {
    push(chunk: ChatChunk): string {
      let out = started ? '' : start(chunk.id);
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.find((item) => item.index === 0) ?? chunk.choices?.[0];
      if (!choice) return out;
      const delta = choice.delta ?? {};
      if (delta.reasoning_content) out += textDelta('thinking', delta.reasoning_content);
      if (delta.content) out += textDelta('text', delta.content);
      if (delta.refusal) out += textDelta('text', delta.refusal);
      for (const call of delta.tool_calls ?? []) out += toolDelta(call);
      if (choice.finish_reason) finish = choice.finish_reason;
      return out;
    },
    end(finalUsage: ChatUsage | undefined): string {
      let out = started ? '' : start(undefined);
      out += close() + flushHeld() + close();
      out += frame('message_delta', {
        delta: { stop_reason: stopReasonFromFinish(finish, sawToolCalls), stop_sequence: null },
        usage: usageToAnthropic(finalUsage ?? usage),
      });
      return out + frame('message_stop', {});
    },
  };
}
