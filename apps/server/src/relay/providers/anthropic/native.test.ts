import { describe, expect, it } from 'vitest';
import { fixture, fixtureJson } from '../../../../test/providers/anthropic/test-support.js';
import { anthropicUsage, meterAnthropicStream } from './native.js';

/** Meters a fixture fed in `size`-byte pieces; `text()` is the generated text it handed on. */
function meter(name: string, size: number) {
  let text = '';
  const meterer = meterAnthropicStream((piece) => {
    text += piece;
  });
  const bytes = fixture(name);
  for (let offset = 0; offset < bytes.length; offset += size) meterer.push(bytes.subarray(offset, offset + size));
  return Object.assign(meterer, { text: () => text });
}

describe('anthropicUsage', () => {
  it('reads the usage of a whole answer, cache reads and writes included in the prompt', () => {
    expect(anthropicUsage(fixtureJson('message-text.json'))).toEqual({
      prompt_tokens: 6197,
      completion_tokens: 503,
      total_tokens: 6700,
      prompt_tokens_details: { cached_tokens: 2051, cached_write_tokens: 2051, cached_read_tokens: 2051 },
    });
    expect(anthropicUsage(fixtureJson('message-tool-use.json'))).toMatchObject({
      prompt_tokens: 472,
      completion_tokens: 89,
    });
    expect(anthropicUsage({ type: 'message', content: [] })).toBeUndefined();
  });
});

describe('meterAnthropicStream', () => {
  it('reads input counts from message_start and output from message_delta, byte by byte', () => {
    const meterer = meter('stream-text.sse', 1);
    expect(meterer.usage()).toEqual({
      prompt_tokens: 25,
      completion_tokens: 15,
      total_tokens: 40,
      prompt_tokens_details: { cached_tokens: 0, cached_write_tokens: 0, cached_read_tokens: 0 },
    });
    expect(meterer.text()).toBe('Hello!');
    expect(meterer.finished()).toBe(true);
  });

  it('counts text, thinking and tool input characters', () => {
    const tools = meter('stream-tool-use.sse', 13);
    const text = "Okay, let's check the weather for San Francisco, CA:";
    const input = '{"location": "San Francisco, CA", "unit": "fahrenheit"}';
    expect(tools.text()).toBe(text + input);
    expect(tools.usage()).toMatchObject({ prompt_tokens: 472, completion_tokens: 89 });

    const thinking = meter('stream-thinking.sse', 3);
    const thought =
      'I need to find the GCD of 1071 and 462 using the Euclidean algorithm.\n\n1071 = 2 × 462 + 147' +
      '\n462 = 3 × 147 + 21\n147 = 7 × 21 + 0\n\nSo GCD(1071, 462) = 21';
    expect(thinking.text()).toBe(`${thought}The greatest common divisor of 1071 and 462 is **21**.`);
    expect(thinking.usage()).toMatchObject({ prompt_tokens: 58, completion_tokens: 212 });
  });

  it('reads cache counts, taking the cumulative ones message_delta repeats', () => {
    expect(meter('stream-parallel-tools-cached.sse', 50).usage()).toEqual({
      prompt_tokens: 31512,
      completion_tokens: 74,
      total_tokens: 31586,
      prompt_tokens_details: { cached_tokens: 30000, cached_write_tokens: 1500, cached_read_tokens: 30000 },
    });
  });

  it('has no usage before any usage event and never throws on malformed events', () => {
    const meterer = meterAnthropicStream();
    expect(meterer.usage()).toBeUndefined();
    meterer.push(Buffer.from('event: message_start\ndata: {not json\n\nevent: ping\ndata: {"type": "ping"}\n\n'));
    expect(meterer.usage()).toBeUndefined();
    expect(meterer.finished()).toBe(false);
  });

  it('reads usage of a stream cut before message_stop (an event left without its blank line)', () => {
    const text = fixture('stream-text.sse').toString('utf8');
    const meterer = meterAnthropicStream();
    meterer.push(Buffer.from(text.slice(0, text.indexOf('event: message_stop') - 1)));
    expect(meterer.usage()).toMatchObject({ prompt_tokens: 25, completion_tokens: 15 });
    expect(meterer.finished()).toBe(true);
  });

  it('marks a stream cut before message_delta unfinished: its output count is only the placeholder', () => {
    const text = fixture('stream-text.sse').toString('utf8');
    const meterer = meterAnthropicStream();
    meterer.push(Buffer.from(text.slice(0, text.indexOf('event: message_delta'))));
    expect(meterer.usage()).toMatchObject({ prompt_tokens: 25 });
    expect(meterer.finished()).toBe(false);
  });
});
