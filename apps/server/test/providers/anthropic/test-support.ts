import { readFileSync } from 'node:fs';
import type {
  AdapterContext,
  ChatChunk,
  ChatUsage,
  FinishReason,
  Json,
  StreamDecoder,
} from '../../../src/relay/providers/types.js';
import { type NamedEvent, namedEvents } from '../../sse.js';

/** Test helpers: fixtures, SSE parsing and strict accumulators for both stream formats. */

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}

export function fixtureJson(name: string): Json {
  return JSON.parse(fixture(name).toString('utf8')) as Json;
}

export function context(overrides: Partial<AdapterContext> = {}): AdapterContext {
  return {
    key: 'sk-ant-api03-test',
    baseUrl: 'https://api.anthropic.com',
    upstreamModel: 'claude-sonnet-4-5',
    other: '',
    plugin: {},
    headers: {},
    stream: false,
    now: 1_700_000_000,
    responseId: 'chatcmpl-test123',
    ...overrides,
  };
}

export type SseEvent = NamedEvent;
/** Complete `event:`/`data:` frames → events (test/sse.ts). */
export const parseSse = namedEvents;

/** Feeds bytes to a decoder in slices of `size` bytes (the last slice may be shorter). */
export function decodeInSlices(decoder: StreamDecoder, bytes: Buffer, size: number): ChatChunk[] {
  const chunks: ChatChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
  }
  chunks.push(...decoder.end());
  return chunks;
}

export interface OpenAiAnswer {
  role: string | undefined;
  content: string;
  reasoning: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finish: FinishReason | null;
  usage: ChatUsage | undefined;
}

/** Gathers OpenAI chunks as an OpenAI client does, checking that tool-call indices are dense. */
export function accumulateChunks(chunks: ChatChunk[]): OpenAiAnswer {
  const answer: OpenAiAnswer = {
    role: undefined,
    content: '',
    reasoning: '',
    toolCalls: [],
    finish: null,
    usage: undefined,
  };
  for (const chunk of chunks) {
    if (chunk.object !== 'chat.completion.chunk') throw new Error('not a chunk');
    if (chunk.usage) answer.usage = chunk.usage;
    for (const choice of chunk.choices) {
      const delta = choice.delta;
      if (delta.role) answer.role = delta.role;
      if (delta.content) answer.content += delta.content;
      if (delta.reasoning_content) answer.reasoning += delta.reasoning_content;
      for (const call of delta.tool_calls ?? []) {
        let entry = answer.toolCalls[call.index];
        if (!entry) {
          if (call.index !== answer.toolCalls.length) throw new Error(`tool call index ${call.index} skips ahead`);
          if (!call.id || !call.function.name) throw new Error('a new tool call needs an id and a name');
          entry = { id: call.id, name: call.function.name, arguments: '' };
          answer.toolCalls.push(entry);
        }
        entry.arguments += call.function.arguments ?? '';
      }
      if (choice.finish_reason) answer.finish = choice.finish_reason;
    }
  }
  return answer;
}

/**
 * Builds the final message from Anthropic events the way the Anthropic SDK's MessageStream does,
 * but strictly: events out of order, deltas to closed or mismatched blocks, or a missing
 * message_stop throw.
 */
export function accumulateAnthropic(events: SseEvent[]): Json {
  let message: (Json & { content: Json[]; usage: Json }) | undefined;
  let openIndex: number | undefined;
  let json = '';
  let stopped = false;
  for (const { event, data } of events) {
    if (data.type !== event) throw new Error(`event name ${event} differs from data type ${String(data.type)}`);
    if (stopped) throw new Error(`${event} after message_stop`);
    if (event === 'ping') continue;
    if (event === 'error') throw new Error(`stream error: ${JSON.stringify(data.error)}`);
    if (event !== 'message_start' && !message) throw new Error(`${event} before message_start`);
    switch (event) {
      case 'message_start': {
        if (message) throw new Error('second message_start');
        message = structuredClone(data.message) as Json & { content: Json[]; usage: Json };
        if (!Array.isArray(message.content) || message.content.length !== 0) throw new Error('content not empty');
        break;
      }
      case 'content_block_start': {
        if (openIndex !== undefined) throw new Error(`block ${openIndex} still open`);
        if (data.index !== message?.content.length) throw new Error(`block index ${String(data.index)} out of order`);
        message?.content.push(structuredClone(data.content_block) as Json);
        openIndex = data.index as number;
        json = '';
        break;
      }
      case 'content_block_delta': {
        if (openIndex === undefined || data.index !== openIndex)
          throw new Error(`delta for block ${String(data.index)} which is not open`);
        const block = message?.content[openIndex] as Json;
        const delta = data.delta as Json;
        const expected: Record<string, string> = {
          text_delta: 'text',
          input_json_delta: 'tool_use',
          thinking_delta: 'thinking',
          signature_delta: 'thinking',
        };
        if (expected[String(delta.type)] !== block.type)
          throw new Error(`${String(delta.type)} in a ${String(block.type)} block`);
        if (delta.type === 'text_delta') block.text = `${String(block.text)}${String(delta.text)}`;
        if (delta.type === 'thinking_delta') block.thinking = `${String(block.thinking)}${String(delta.thinking)}`;
        if (delta.type === 'signature_delta') block.signature = delta.signature;
        if (delta.type === 'input_json_delta') json += String(delta.partial_json);
        break;
      }
      case 'content_block_stop': {
        if (openIndex === undefined || data.index !== openIndex)
          throw new Error(`stop for block ${String(data.index)} which is not open`);
        const block = message?.content[openIndex] as Json;
        if (block.type === 'tool_use') block.input = json ? JSON.parse(json) : {};
        openIndex = undefined;
        break;
      }
      case 'message_delta': {
        const delta = data.delta as Json;
        if (message) {
          message.stop_reason = delta.stop_reason;
          message.stop_sequence = delta.stop_sequence;
          for (const [key, value] of Object.entries((data.usage as Json | undefined) ?? {})) {
            if (value !== null && value !== undefined) message.usage[key] = value;
          }
        }
        break;
      }
      case 'message_stop':
        if (openIndex !== undefined) throw new Error(`message_stop with block ${openIndex} open`);
        stopped = true;
        break;
      default:
        throw new Error(`unknown event ${event}`);
    }
  }
  if (!stopped || !message) throw new Error('no message_stop');
  return message;
}
