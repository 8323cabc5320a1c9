import { readFileSync } from 'node:fs';
import type { AdapterContext, ChatChunk, Json, StreamDecoder } from '../../../src/relay/providers/types.js';
import { dataEvents } from '../../sse.js';

/** Test-only helpers shared by the Gemini adapter's test files. */

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}

export function fixtureJson(name: string): Json {
  return JSON.parse(fixture(name).toString('utf8')) as Json;
}

export function context(overrides: Partial<AdapterContext> = {}): AdapterContext {
  return {
    key: 'AIzaSyTestKey0000000000000000000000000',
    baseUrl: 'https://generativelanguage.googleapis.com',
    upstreamModel: 'gemini-2.5-flash',
    other: '',
    plugin: {},
    headers: {},
    stream: false,
    now: 1_750_000_000,
    responseId: 'chatcmpl-test1',
    ...overrides,
  };
}

/** Feeds bytes to a decoder in pieces of `size` bytes (cutting through UTF-8 characters), then ends it. */
export function decodeAll(decoder: StreamDecoder, bytes: Buffer, size = bytes.length): ChatChunk[] {
  const chunks: ChatChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    chunks.push(...decoder.push(bytes.subarray(offset, offset + size)));
  }
  chunks.push(...decoder.end());
  return chunks;
}

/** The `data:` payloads of an SSE text, parsed (test/sse.ts). */
export const sseEvents = dataEvents;

/** What goes on the wire: symbol-keyed in-memory extras dropped. */
export function wire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** `contents[content].parts[part]` of a Gemini body, or undefined. */
export function partAt(contents: unknown, content: number, part: number): Json | undefined {
  const entry = Array.isArray(contents) ? (contents[content] as Json | undefined) : undefined;
  const parts = entry && Array.isArray(entry.parts) ? (entry.parts as Json[]) : [];
  return parts[part];
}
