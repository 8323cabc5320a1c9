import { EventStreamCodec, type Message, type MessageHeaders } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/core/serde';
import type { Json } from '../types.js';
import { firstCharacters, upstreamObject } from '../values.js';

/**
 * The `application/vnd.amazon.eventstream` framing of Bedrock's streams. Each message is
 * `total length (4) | headers length (4) | prelude CRC (4) | headers | payload | message CRC (4)`,
 * big-endian. The splitter here only finds message boundaries in bytes that may arrive cut
 * anywhere; `@smithy/core`'s codec (the AWS SDK's) checks both CRCs and parses the headers.
 */

const PRELUDE_BYTES = 12;
const MIN_MESSAGE_BYTES = 16;
/** Bedrock's payloads are a few KB; anything past this is a broken stream, not a message. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** One message of a stream: an event, an exception (modelled error) or an error (unmodelled). */
export interface StreamMessage {
  kind: 'event' | 'exception' | 'error';
  /** `:event-type` of an event (`chunk`, `contentBlockDelta`…), `:exception-type`, or `:error-code`. */
  type: string;
  payload: Uint8Array;
  /** `:error-message` of an error message. */
  errorMessage?: string;
}

function headerString(headers: MessageHeaders, name: string): string | undefined {
  const header = headers[name];
  return header && header.type === 'string' ? header.value : undefined;
}

export function classify(message: Message): StreamMessage {
  const messageType = headerString(message.headers, ':message-type') ?? 'event';
  if (messageType === 'exception') {
    return {
      kind: 'exception',
      type: headerString(message.headers, ':exception-type') ?? 'exception',
      payload: message.body,
    };
  }
  if (messageType === 'error') {
    const errorMessage = headerString(message.headers, ':error-message');
    return {
      kind: 'error',
      type: headerString(message.headers, ':error-code') ?? 'error',
      payload: message.body,
      ...(errorMessage !== undefined ? { errorMessage } : {}),
    };
  }
  return { kind: 'event', type: headerString(message.headers, ':event-type') ?? '', payload: message.body };
}

/** Bytes in any slicing → whole messages; holds only the message being received. */
export class EventStreamSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  push(bytes: Uint8Array): StreamMessage[] {
    if (bytes.length > 0) {
      this.pending.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      this.pendingBytes += bytes.length;
    }
    const out: StreamMessage[] = [];
    for (;;) {
      if (this.pendingBytes < PRELUDE_BYTES) break;
      const total = this.head(4).readUInt32BE(0);
      if (total < MIN_MESSAGE_BYTES || total > MAX_MESSAGE_BYTES) {
        throw new Error(`the upstream's event stream is broken: a message claims ${total} bytes`);
      }
      // Pieces are joined only once the whole message is there, never once per piece.
      if (this.pendingBytes < total) break;
      const joined = this.head(total);
      // A copy of its own, so a message's payload never pins the bytes around it.
      const frame = new Uint8Array(joined.subarray(0, total));
      this.pending = total < joined.length ? [joined.subarray(total)] : [];
      this.pendingBytes -= total;
      let message: Message;
      try {
        message = codec.decode(frame);
      } catch (error) {
        throw new Error(
          `the upstream's event stream is broken: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      out.push(classify(message));
    }
    return out;
  }

  /** The upstream closed: bytes of an unfinished message mean it was cut off. */
  finish(): void {
    if (this.pendingBytes > 0) {
      throw new Error(`the upstream's event stream ended in the middle of a message (${this.pendingBytes} bytes)`);
    }
  }

  /** The first pending piece, after joining as many pieces as it takes to hold `bytes` bytes. */
  private head(bytes: number): Buffer {
    let count = 0;
    let length = 0;
    while (length < bytes && count < this.pending.length) {
      length += this.pending[count]?.length ?? 0;
      count += 1;
    }
    if (count > 1) this.pending.splice(0, count, Buffer.concat(this.pending.slice(0, count), length));
    return this.pending[0] ?? Buffer.alloc(0);
  }
}

/** A message's JSON payload; an object, else an Error naming the event. */
export function payloadJson(message: StreamMessage): Json {
  const text = Buffer.from(message.payload).toString('utf8');
  return text === '' ? {} : upstreamObject(text, `${message.type || 'stream'} event`, firstCharacters);
}

/** The Error an exception or error message stands for: `throttlingException: Too many requests…`. */
export function streamFailure(message: StreamMessage): Error {
  let text = message.errorMessage;
  if (text === undefined) {
    const raw = Buffer.from(message.payload).toString('utf8');
    try {
      const parsed = JSON.parse(raw) as Json;
      const found = parsed.message ?? parsed.Message;
      text = typeof found === 'string' ? found : raw;
    } catch {
      text = raw;
    }
  }
  const failure = new Error(`${message.type}: ${text.trim() || 'the upstream stream failed'}`);
  return Object.assign(failure, { type: message.type });
}

/** Encodes one message (for tests and the mock upstream). */
export function encodeMessage(headers: Record<string, string>, payload: Uint8Array | string): Uint8Array {
  const body = typeof payload === 'string' ? fromUtf8(payload) : payload;
  const tagged: MessageHeaders = {};
  for (const [name, value] of Object.entries(headers)) tagged[name] = { type: 'string', value };
  return codec.encode({ headers: tagged, body });
}

/** An event message as Bedrock sends them: JSON payload, `application/json` content type. */
export function encodeEvent(eventType: string, payload: Json): Uint8Array {
  return encodeMessage(
    { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' },
    JSON.stringify(payload),
  );
}

export function encodeException(exceptionType: string, message: string): Uint8Array {
  return encodeMessage(
    { ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' },
    JSON.stringify({ message }),
  );
}
