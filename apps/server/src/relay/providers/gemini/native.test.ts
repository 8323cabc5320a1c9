import { describe, expect, it } from 'vitest';
import { fixture, fixtureJson, sseEvents } from '../../../../test/providers/gemini/test-support.js';
import type { Json } from '../types.js';
import { geminiUsage, meterGeminiStream } from './native.js';

/** The final counts of stream-text.sse, its modality details included. */
const streamTextUsage = {
  prompt_tokens: 8,
  completion_tokens: 19,
  total_tokens: 27,
  prompt_tokens_details: { text_tokens: 8 },
  completion_tokens_details: { text_tokens: 19 },
};

describe('geminiUsage', () => {
  it('reads usageMetadata of a whole answer', () => {
    expect(geminiUsage(fixtureJson('response-thinking.json'))).toEqual({
      prompt_tokens: 15,
      completion_tokens: 997,
      total_tokens: 1012,
      prompt_tokens_details: { text_tokens: 15 },
      completion_tokens_details: { reasoning_tokens: 945 },
    });
    expect(geminiUsage(fixtureJson('response-cached.json'))?.prompt_tokens_details).toEqual({
      cached_tokens: 65536,
      text_tokens: 69120,
    });
    expect(geminiUsage({ candidates: [] })).toBeUndefined();
  });

  it('reads the last counts of a stream answer read whole (a JSON list)', () => {
    const events = sseEvents(fixture('stream-text.sse').toString());
    expect(geminiUsage(events as unknown as Json)).toEqual(streamTextUsage);
  });
});

describe('meterGeminiStream', () => {
  const expectedText = (events: Json[]) => {
    let text = '';
    for (const event of events) {
      for (const candidate of (event.candidates as Json[] | undefined) ?? []) {
        for (const part of ((candidate.content as Json | undefined)?.parts as Json[] | undefined) ?? []) {
          if (typeof part.text === 'string') text += part.text;
          if (part.functionCall) text += JSON.stringify((part.functionCall as Json).args);
        }
      }
    }
    return text;
  };

  it('reads the last usageMetadata of an SSE stream split at every byte', () => {
    const bytes = fixture('stream-thinking-function-call.sse');
    let text = '';
    const meter = meterGeminiStream((piece) => {
      text += piece;
    });
    for (let offset = 0; offset < bytes.length; offset += 1) meter.push(bytes.subarray(offset, offset + 1));
    expect(meter.usage()).toEqual({
      prompt_tokens: 71,
      completion_tokens: 110,
      total_tokens: 181,
      prompt_tokens_details: { cached_tokens: 32 },
      completion_tokens_details: { reasoning_tokens: 68 },
    });
    expect(meter.finished()).toBe(true);
    expect(text).toBe(expectedText(sseEvents(bytes.toString())));
    expect(text.length).toBeGreaterThan(100);
  });

  it('reads the JSON-array form (no alt=sse), split inside characters and strings', () => {
    const events = sseEvents(fixture('stream-text.sse').toString());
    const body = Buffer.from(`\n[${events.map((event) => JSON.stringify(event, null, 2)).join(',\r\n')}]`);
    let text = '';
    const meter = meterGeminiStream((piece) => {
      text += piece;
    });
    for (let offset = 0; offset < body.length; offset += 3) meter.push(body.subarray(offset, offset + 3));
    expect(meter.usage()).toEqual(streamTextUsage);
    expect(meter.finished()).toBe(true);
    expect(text).toBe(expectedText(events));
  });

  it('skips malformed events and reports what it saw of a cut stream, as unfinished', () => {
    let text = '';
    const meter = meterGeminiStream((piece) => {
      text += piece;
    });
    meter.push(Buffer.from('data: {not json}\n\n'));
    meter.push(Buffer.from('data: {"candidates":[{"content":{"parts":[{"text":"Once"}]}}],'));
    meter.push(Buffer.from('"usageMetadata":{"promptTokenCount":4,"totalTokenCount":4}}\n\n'));
    meter.push(Buffer.from('data: {"candidates":[{"content":{"parts":[{"text":"cut he'));
    expect(meter.usage()).toEqual({ prompt_tokens: 4, completion_tokens: 0, total_tokens: 4 });
    expect(meter.finished()).toBe(false);
    expect(text).toBe('Once');
    expect(meterGeminiStream().usage()).toBeUndefined();
  });
});
