import { describe, expect, it } from 'vitest';
import { eventData, SseSplitter } from './sse.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('SSE splitting', () => {
  it('emits events only when complete, across arbitrary chunk boundaries', () => {
    const splitter = new SseSplitter();
    expect(splitter.push(bytes('data: {"a"'))).toEqual([]);
    expect(splitter.push(bytes(':1}\n'))).toEqual([]);
    expect(splitter.push(bytes('\ndata: [DO'))).toEqual(['data: {"a":1}']);
    expect(splitter.push(bytes('NE]\r\n\r\n'))).toEqual(['data: [DONE]']);
    expect(splitter.finish()).toEqual([]);
  });

  it('decodes multi-byte characters split between chunks', () => {
    const splitter = new SseSplitter();
    const encoded = bytes('data: 你好\n\n');
    expect(splitter.push(encoded.slice(0, 8))).toEqual([]);
    expect(splitter.push(encoded.slice(8))).toEqual(['data: 你好']);
  });

  it('refuses an event that grows past the limit instead of buffering it', () => {
    const splitter = new SseSplitter(16);
    expect(() => splitter.push(bytes(`data: ${'x'.repeat(32)}`))).toThrow('larger than the limit');
  });

  it('reads data lines and ignores comments', () => {
    expect(eventData('event: message\ndata: {"x":1}')).toBe('{"x":1}');
    expect(eventData(': keep-alive')).toBeUndefined();
    expect(eventData('data: a\ndata: b')).toBe('a\nb');
  });
});
