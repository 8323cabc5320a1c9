import { readFileSync } from 'node:fs';
import { openAiAdapter } from '../../../src/relay/providers/openai/adapter.js';
import type {
  AdapterContext,
  ChatChunk,
  ChatCompletion,
  Json,
  StreamEncoder,
} from '../../../src/relay/providers/types.js';
import { type NamedEvent, namedEvents } from '../../sse.js';

/** Test helpers: fixtures, the canonical chunks of a chat stream, and a strict Responses stream reader. */

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}

export function fixtureJson<T = Json>(name: string): T {
  return JSON.parse(fixture(name).toString('utf8')) as T;
}

export const completionFixture = (name: string): ChatCompletion => fixtureJson<ChatCompletion>(name);

const context: AdapterContext = {
  key: 'sk-test',
  baseUrl: 'https://api.openai.com',
  upstreamModel: 'gpt-4o-mini',
  other: '',
  plugin: {},
  headers: {},
  stream: true,
  now: 1_700_000_000,
  responseId: 'chatcmpl-test',
};

/** An OpenAI chat SSE fixture → canonical chunks, fed to the hub's own decoder in `size`-byte slices. */
export function chunksOf(name: string, size = Number.POSITIVE_INFINITY): ChatChunk[] {
  const bytes = fixture(name);
  const decoder = openAiAdapter.decodeStream(context);
  const chunks: ChatChunk[] = [];
  const step = Math.min(size, bytes.length);
  for (let offset = 0; offset < bytes.length; offset += step) {
    chunks.push(...decoder.push(bytes.subarray(offset, offset + step)));
  }
  chunks.push(...decoder.end());
  return chunks;
}

/** Every chunk through the encoder, then `end` with the last usage seen (as the relay does). */
export function encodeAll(encoder: StreamEncoder, chunks: ChatChunk[]): string {
  let text = '';
  let usage: ChatChunk['usage'];
  for (const chunk of chunks) {
    if (chunk.usage) usage = chunk.usage;
    text += encoder.push(chunk);
  }
  return text + encoder.end(usage ?? undefined);
}

export type StreamEvent = NamedEvent;

/** Complete `event:`/`data:` frames → events; anything else throws (test/sse.ts). */
export const parseEvents = namedEvents;

type OpenItem = { item: Json; open: boolean; parts: Array<{ open: boolean }> };

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Reads a Responses stream as a strict client would and returns the final response. Throws on:
 * an event name that differs from its `type`, sequence numbers that are not 0, 1, 2…, a first
 * event other than `response.created`, items added out of order, deltas to closed or
 * mismatched items/parts/indexes, `.done` texts that differ from the deltas, an item closed with
 * open parts, events after the terminal event, or a terminal output that differs from the items.
 */
export function readResponsesStream(events: StreamEvent[]): Json {
  const items: OpenItem[] = [];
  const texts = new Map<string, string>();
  let final: Json | undefined;
  let responseId: string | undefined;
  const key = (output: number, part: number) => `${output}:${part}`;

  const itemAt = (data: Json, kind: string): OpenItem => {
    const entry = items[data.output_index as number];
    if (!entry) throw new Error(`${String(data.type)}: no item at ${String(data.output_index)}`);
    if (!entry.open) throw new Error(`${String(data.type)}: item ${String(data.output_index)} is closed`);
    if (entry.item.type !== kind) throw new Error(`${String(data.type)} on a ${String(entry.item.type)} item`);
    if (data.item_id !== undefined && data.item_id !== entry.item.id) {
      throw new Error(`${String(data.type)}: item_id ${String(data.item_id)} is not ${String(entry.item.id)}`);
    }
    return entry;
  };
  const openPart = (entry: OpenItem, index: unknown, type: string): void => {
    const part = entry.parts[index as number];
    if (!part?.open) throw new Error(`${type}: part ${String(index)} is not open`);
  };

  events.forEach(({ event, data }, position) => {
    if (data.type !== event) throw new Error(`event ${event} carries type ${String(data.type)}`);
    if (data.sequence_number !== position) {
      throw new Error(`${event}: sequence_number ${String(data.sequence_number)}, expected ${position}`);
    }
    if (final) throw new Error(`${event} after the terminal event`);
    if (position === 0 && event !== 'response.created') throw new Error(`first event is ${event}`);
    switch (event) {
      case 'response.created':
      case 'response.in_progress': {
        const response = data.response as Json;
        if (response.status !== 'in_progress' || (response.output as unknown[]).length !== 0) {
          throw new Error(`${event}: not an empty in-progress response`);
        }
        if (responseId && response.id !== responseId) throw new Error(`${event}: the response id changed`);
        responseId = response.id as string;
        break;
      }
      case 'response.output_item.added': {
        if (data.output_index !== items.length) throw new Error(`item added at ${String(data.output_index)}`);
        const item = structuredClone(data.item) as Json;
        if (item.type === 'message' && (item.content as unknown[]).length !== 0) throw new Error('message not empty');
        if (item.type === 'reasoning' && (item.summary as unknown[]).length !== 0) throw new Error('summary not empty');
        if (item.type === 'function_call' && item.arguments !== '') throw new Error('arguments not empty');
        items.push({ item, open: true, parts: [] });
        break;
      }
      case 'response.content_part.added':
      case 'response.reasoning_summary_part.added': {
        const isSummary = event === 'response.reasoning_summary_part.added';
        const entry = itemAt(data, isSummary ? 'reasoning' : 'message');
        const index = (isSummary ? data.summary_index : data.content_index) as number;
        if (index !== entry.parts.length) throw new Error(`${event}: part index ${index}`);
        if (entry.parts.some((part) => part.open)) throw new Error(`${event}: another part is open`);
        entry.parts.push({ open: true });
        const list = (isSummary ? entry.item.summary : entry.item.content) as Json[];
        list.push(structuredClone(data.part) as Json);
        texts.set(key(data.output_index as number, index), '');
        break;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta':
      case 'response.reasoning_summary_text.delta': {
        const isSummary = event === 'response.reasoning_summary_text.delta';
        const entry = itemAt(data, isSummary ? 'reasoning' : 'message');
        const index = isSummary ? data.summary_index : data.content_index;
        openPart(entry, index, event);
        const part = ((isSummary ? entry.item.summary : entry.item.content) as Json[])[index as number] as Json;
        const expected = event === 'response.refusal.delta' ? 'refusal' : isSummary ? 'summary_text' : 'output_text';
        if (part.type !== expected) throw new Error(`${event} on a ${String(part.type)} part`);
        const k = key(data.output_index as number, index as number);
        texts.set(k, `${texts.get(k) ?? ''}${String(data.delta)}`);
        break;
      }
      case 'response.output_text.done':
      case 'response.refusal.done':
      case 'response.reasoning_summary_text.done': {
        const isSummary = event === 'response.reasoning_summary_text.done';
        const entry = itemAt(data, isSummary ? 'reasoning' : 'message');
        const index = isSummary ? data.summary_index : data.content_index;
        openPart(entry, index, event);
        const full = event === 'response.refusal.done' ? data.refusal : data.text;
        const k = key(data.output_index as number, index as number);
        if (full !== texts.get(k)) throw new Error(`${event}: ${JSON.stringify(full)} is not the deltas' text`);
        break;
      }
      case 'response.content_part.done':
      case 'response.reasoning_summary_part.done': {
        const isSummary = event === 'response.reasoning_summary_part.done';
        const entry = itemAt(data, isSummary ? 'reasoning' : 'message');
        const index = (isSummary ? data.summary_index : data.content_index) as number;
        openPart(entry, index, event);
        const part = data.part as Json;
        const full = part.type === 'refusal' ? part.refusal : part.text;
        if (full !== texts.get(key(data.output_index as number, index))) throw new Error(`${event}: text differs`);
        ((isSummary ? entry.item.summary : entry.item.content) as Json[])[index] = structuredClone(part);
        (entry.parts[index] as { open: boolean }).open = false;
        break;
      }
      case 'response.function_call_arguments.delta': {
        const entry = itemAt(data, 'function_call');
        entry.item.arguments = `${String(entry.item.arguments)}${String(data.delta)}`;
        break;
      }
      case 'response.function_call_arguments.done': {
        const entry = itemAt(data, 'function_call');
        if (data.arguments !== entry.item.arguments) throw new Error(`${event}: arguments differ from the deltas`);
        if (data.name !== entry.item.name) throw new Error(`${event}: name differs`);
        break;
      }
      case 'response.output_item.done': {
        const entry = items[data.output_index as number];
        if (!entry?.open) throw new Error(`${event}: item ${String(data.output_index)} is not open`);
        if (entry.parts.some((part) => part.open)) throw new Error(`${event}: a part is still open`);
        const done = data.item as Json;
        const { status: _a, ...mine } = entry.item;
        const { status, ...theirs } = done;
        if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
          throw new Error(`${event}: ${JSON.stringify(theirs)} differs from the streamed ${JSON.stringify(mine)}`);
        }
        if (done.type !== 'reasoning' && status !== 'completed' && status !== 'incomplete') {
          throw new Error(`${event}: status ${String(status)}`);
        }
        entry.item = structuredClone(done);
        entry.open = false;
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed': {
        const response = data.response as Json;
        if (response.id !== responseId) throw new Error(`${event}: the response id changed`);
        const expectedStatus = event.slice('response.'.length);
        if (response.status !== expectedStatus) throw new Error(`${event} with status ${String(response.status)}`);
        if (event !== 'response.failed') {
          if (items.some((entry) => entry.open)) throw new Error(`${event} with items still open`);
          const streamed = JSON.stringify(items.map((entry) => entry.item));
          if (JSON.stringify(response.output) !== streamed) {
            throw new Error(`${event}: output ${JSON.stringify(response.output)} differs from ${streamed}`);
          }
        }
        final = response;
        break;
      }
      default:
        throw new Error(`unexpected event ${event}`);
    }
  });
  if (!final) throw new Error(`no terminal event (${[...TERMINAL].join(', ')})`);
  return final;
}
