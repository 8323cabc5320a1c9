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

  it('finds a CRLF separator cut anywhere, and several events in one chunk', () => {
    const stream = 'data: 1\r\n\r\ndata: 2\r\n\r\ndata: 3\r\n\r\n';
    for (let cut = 1; cut < stream.length; cut++) {
      const splitter = new SseSplitter();
      const events = [...splitter.push(bytes(stream.slice(0, cut))), ...splitter.push(bytes(stream.slice(cut)))];
      expect(events, `cut at ${cut}`).toEqual(['data: 1', 'data: 2', 'data: 3']);
      expect(splitter.isEmpty()).toBe(true);
    }
  });

  it('gives back an event the upstream did not end with a blank line', () => {
    const splitter = new SseSplitter();
    expect(splitter.push(bytes('data: a\n\ndata: b\n'))).toEqual(['data: a']);
    expect(splitter.isEmpty()).toBe(false);
    expect(splitter.finish()).toEqual(['data: b']);
  });

  it('refuses an event that grows past the limit instead of buffering it, and holds nothing after', () => {
    const splitter = new SseSplitter(16);
    expect(() => splitter.push(bytes(`data: ${'x'.repeat(32)}`))).toThrow('larger than the limit');
    expect(splitter.isEmpty()).toBe(true);
  });

  it('splits every mix of line ends and cuts as the separator /\\r?\\n\\r?\\n/ does', () => {
    // The reference: the whole text split by the expression; what is after the last separator is held.
    const reference = (text: string) => text.split(/\r?\n\r?\n/).slice(0, -1);
    const pieces = ['a', '\r', '\n', 'b'];
    for (let pattern = 0; pattern < 4 ** 7; pattern++) {
      let text = '';
      for (let digit = pattern; text.length < 7; digit >>= 2) text += pieces[digit & 3];
      const cut = pattern % 8;
      const splitter = new SseSplitter();
      const events = [...splitter.push(bytes(text.slice(0, cut))), ...splitter.push(bytes(text.slice(cut)))];
      expect(events, JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('decodes bad bytes, byte-order marks and split characters as one TextDecoder does, however cut', () => {
    const samples = [
      [0xef, 0xbb, 0xbf, ...bytes('data: a\n\n')],
      [...bytes('data: x'), 0xef, 0xbb, 0xbf, ...bytes('\n\n')],
      [...bytes('data: '), 0xc3, 0x28, 0xe2, 0x82, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0xed, 0xa0, 0x80, ...bytes('\n\n')],
      [...bytes('data: 你好 😀\n\ndata: b'), 0xe4, ...bytes('\n\n')],
    ];
    for (const sample of samples) {
      const expected = new TextDecoder().decode(Uint8Array.from(sample)).split('\n\n').slice(0, -1);
      for (let first = 0; first <= sample.length; first++) {
        for (const second of [first, Math.min(sample.length, first + 1), Math.min(sample.length, first + 3)]) {
          const splitter = new SseSplitter();
          const parts = [sample.slice(0, first), sample.slice(first, second), sample.slice(second)];
          const events = parts.flatMap((part) => splitter.push(Buffer.from(part)));
          expect(events, `${sample} cut at ${first}, ${second}`).toEqual(expected);
        }
      }
    }
  });

  it('reads data lines and ignores comments', () => {
    expect(eventData('event: message\ndata: {"x":1}')).toBe('{"x":1}');
    expect(eventData(': keep-alive')).toBeUndefined();
    expect(eventData('data: a\ndata: b')).toBe('a\nb');
    // One line, read without splitting: with or without the space, and empty.
    expect(eventData('data: {"x":1}')).toBe('{"x":1}');
    expect(eventData('data:{"x":1}')).toBe('{"x":1}');
    expect(eventData('data:')).toBe('');
    expect(eventData('datum: 1')).toBeUndefined();
  });
});
