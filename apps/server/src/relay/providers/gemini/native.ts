import { eventData, SseSplitter } from '../../transport/sse.js';
import type { ChatUsage, Json, NativeStreamMeter, TextSink } from '../types.js';
import { isRecord, MAX_GEMINI_EVENT_CHARS, usageFromGemini } from './common.js';

/**
 * Metering for the pass-through route (Gemini client → Gemini upstream): the bodies go to the
 * client unchanged, these helpers only read usage from them.
 */

/** The usage of a whole `GenerateContentResponse` (its `usageMetadata`), or undefined. */
export function geminiUsage(body: Json): ChatUsage | undefined {
  // A non-SSE stream answer read whole is a list of responses: the last carries the final counts.
  const value: unknown = body;
  if (Array.isArray(value)) {
    for (let index = value.length - 1; index >= 0; index -= 1) {
      const usage = isRecord(value[index]) ? usageFromGemini(value[index].usageMetadata) : undefined;
      if (usage) return usage;
    }
    return undefined;
  }
  return isRecord(value) ? usageFromGemini(value.usageMetadata) : undefined;
}

/** Elements of a streamed top-level JSON array (`streamGenerateContent` without `alt=sse`). */
class JsonArraySplitter {
  private readonly decoder = new TextDecoder();
  private depth = 0;
  private inString = false;
  private escaped = false;
  private element = '';
  private overflow = false;

  constructor(private readonly maxElementChars: number) {}

  push(bytes: Uint8Array): string[] {
    return this.scan(this.decoder.decode(bytes, { stream: true }));
  }

  finish(): string[] {
    return this.scan(this.decoder.decode());
  }

  private scan(text: string): string[] {
    const elements: string[] = [];
    let start = this.depth >= 2 ? 0 : -1;
    for (let index = 0; index < text.length; index += 1) {
      const char = text[index];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (char === '\\') this.escaped = true;
        else if (char === '"') this.inString = false;
        continue;
      }
      if (char === '"') this.inString = true;
      else if (char === '{' || char === '[') {
        this.depth += 1;
        if (this.depth === 2) start = index;
      } else if (char === '}' || char === ']') {
        this.depth -= 1;
        if (this.depth === 1 && start >= 0) {
          this.take(text.slice(start, index + 1));
          if (!this.overflow) elements.push(this.element);
          this.element = '';
          this.overflow = false;
          start = -1;
        }
      }
    }
    if (this.depth >= 2 && start >= 0) this.take(text.slice(start));
    return elements;
  }

  private take(piece: string): void {
    if (this.overflow) return;
    if (this.element.length + piece.length > this.maxElementChars) {
      // Too big to be worth reading: skip this element (metering never fails a stream).
      this.element = '';
      this.overflow = true;
      return;
    }
    this.element += piece;
  }
}

/**
 * Reads usage from a passing Gemini stream: every event carries `usageMetadata` with the counts so
 * far, so the last one seen is the answer's. Reads `alt=sse` streams and, when the first byte is
 * `[`, the JSON-array form. Only the current unfinished event is held. A malformed event is
 * skipped, never thrown: metering must not break a stream the client is receiving.
 */
export function meterGeminiStream(onText: TextSink = () => {}): NativeStreamMeter {
  let mode: 'sse' | 'array' | undefined;
  let sse = new SseSplitter(MAX_GEMINI_EVENT_CHARS);
  const array = new JsonArraySplitter(MAX_GEMINI_EVENT_CHARS);
  let last: Json | undefined;
  let finished = false;

  const read = (payload: string) => {
    let response: unknown;
    try {
      response = JSON.parse(payload);
    } catch {
      return;
    }
    if (!isRecord(response)) return;
    if (isRecord(response.usageMetadata)) last = response.usageMetadata;
    const candidates = Array.isArray(response.candidates) ? response.candidates : [];
    for (const candidate of candidates) {
      if (isRecord(candidate) && typeof candidate.finishReason === 'string' && candidate.finishReason) finished = true;
      const content = isRecord(candidate) && isRecord(candidate.content) ? candidate.content : undefined;
      const parts = content && Array.isArray(content.parts) ? content.parts : [];
      for (const part of parts) {
        if (!isRecord(part)) continue;
        if (typeof part.text === 'string' && part.text) onText(part.text);
        if (isRecord(part.functionCall)) onText(JSON.stringify(part.functionCall.args ?? {}));
      }
    }
  };
  const readEvents = (events: string[]) => {
    for (const event of events) {
      const data = eventData(event);
      if (data) read(data);
    }
  };

  return {
    push(bytes) {
      if (!mode) {
        const first = /\S/.exec(bytes.toString('latin1'))?.[0];
        if (first === undefined) return;
        mode = first === '[' ? 'array' : 'sse';
      }
      if (mode === 'array') {
        for (const element of array.push(bytes)) read(element);
        return;
      }
      try {
        readEvents(sse.push(bytes));
      } catch {
        // An oversized event: forget it and go on with a fresh splitter.
        sse = new SseSplitter(MAX_GEMINI_EVENT_CHARS);
      }
    },
    usage() {
      if (mode === 'array') for (const element of array.finish()) read(element);
      else if (mode === 'sse') readEvents(sse.finish());
      return usageFromGemini(last);
    },
    // The event in which a candidate says why it stopped carries the final counts; earlier ones count the prompt only.
    finished: () => finished,
  };
}
