import { describe, expect, it } from 'vitest';
import {
  classify,
  codec,
  EventStreamSplitter,
  encodeEvent,
  encodeException,
  encodeMessage,
  payloadJson,
  type StreamMessage,
  streamFailure,
} from './eventstream.js';

function collect(bytes: Buffer, size: number): StreamMessage[] {
  const splitter = new EventStreamSplitter();
  const out: StreamMessage[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(...splitter.push(bytes.subarray(at, at + size)));
  splitter.finish();
  return out;
}

const three = Buffer.concat([
  encodeEvent('messageStart', { role: 'assistant' }),
  encodeEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Grüße 👋' } }),
  encodeEvent('messageStop', { stopReason: 'end_turn' }),
]);

describe('event-stream framing', () => {
  it('lays a message out as prelude, headers, payload and CRCs', () => {
    const bytes = Buffer.from(encodeEvent('chunk', { bytes: 'e30=' }));
    const total = bytes.readUInt32BE(0);
    const headers = bytes.readUInt32BE(4);
    expect(total).toBe(bytes.length);
    expect(bytes.subarray(12 + headers, total - 4).toString()).toBe('{"bytes":"e30="}');
    const decoded = codec.decode(bytes);
    expect(decoded.headers[':event-type']).toEqual({ type: 'string', value: 'chunk' });
    expect(decoded.headers[':message-type']).toEqual({ type: 'string', value: 'event' });
  });

  it('finds every message whatever the slicing, down to single bytes', () => {
    for (const size of [1, 2, 3, 5, 7, 11, 16, 64, three.length]) {
      const messages = collect(three, size);
      expect(messages.map((message) => message.type)).toEqual(['messageStart', 'contentBlockDelta', 'messageStop']);
      expect(payloadJson(messages[1] as StreamMessage)).toEqual({
        contentBlockIndex: 0,
        delta: { text: 'Grüße 👋' },
      });
    }
  });

  it('cuts at every boundary of a two-message stream', () => {
    for (let cut = 1; cut < three.length; cut += 1) {
      const splitter = new EventStreamSplitter();
      const out = [...splitter.push(three.subarray(0, cut)), ...splitter.push(three.subarray(cut))];
      splitter.finish();
      expect(out).toHaveLength(3);
    }
  });

  it('joins a large message once, not once per piece', () => {
    const big = Buffer.from(
      encodeEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'x'.repeat(256 * 1024) } }),
    );
    const splitter = new EventStreamSplitter();
    const started = performance.now();
    const out: StreamMessage[] = [];
    for (let at = 0; at < big.length; at += 1) out.push(...splitter.push(big.subarray(at, at + 1)));
    expect(out).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('classifies exceptions and unmodelled errors', () => {
    const exception = classify(codec.decode(encodeException('throttlingException', 'Too many requests, please wait.')));
    expect(exception).toMatchObject({ kind: 'exception', type: 'throttlingException' });
    expect(streamFailure(exception).message).toBe('throttlingException: Too many requests, please wait.');
    const error = classify(
      codec.decode(
        encodeMessage({ ':message-type': 'error', ':error-code': 'InternalFailure', ':error-message': 'boom' }, ''),
      ),
    );
    expect(error).toMatchObject({ kind: 'error', type: 'InternalFailure', errorMessage: 'boom' });
    expect(streamFailure(error).message).toBe('InternalFailure: boom');
  });

  it('refuses a message whose CRC does not hold', () => {
    const bytes = Buffer.from(encodeEvent('messageStop', { stopReason: 'end_turn' }));
    const broken = Buffer.from(bytes);
    broken[broken.length - 6] = (broken[broken.length - 6] ?? 0) ^ 0xff;
    expect(() => new EventStreamSplitter().push(broken)).toThrow(/event stream is broken.*checksum/);
    const prelude = Buffer.from(bytes);
    prelude[9] = (prelude[9] ?? 0) ^ 0x01;
    expect(() => new EventStreamSplitter().push(prelude)).toThrow(/prelude checksum/);
  });

  it('refuses absurd lengths instead of waiting for them', () => {
    const head = Buffer.alloc(12);
    head.writeUInt32BE(0x7fffffff, 0);
    expect(() => new EventStreamSplitter().push(head)).toThrow(/claims 2147483647 bytes/);
    head.writeUInt32BE(5, 0);
    expect(() => new EventStreamSplitter().push(head)).toThrow(/claims 5 bytes/);
  });

  it('reports a stream cut inside a message when it ends', () => {
    const splitter = new EventStreamSplitter();
    expect(splitter.push(three.subarray(0, three.length - 3))).toHaveLength(2);
    expect(() => splitter.finish()).toThrow(/ended in the middle of a message \(\d+ bytes\)/);
  });

  it('names a payload that is not a JSON object', () => {
    const [notJson] = collect(Buffer.from(encodeMessage({ ':event-type': 'chunk' }, 'nope')), 4);
    expect(() => payloadJson(notJson as StreamMessage)).toThrow("the upstream's chunk event is not JSON: nope");
    const [list] = collect(Buffer.from(encodeMessage({ ':event-type': 'chunk' }, '[1]')), 4);
    expect(() => payloadJson(list as StreamMessage)).toThrow('not a JSON object');
  });
});
