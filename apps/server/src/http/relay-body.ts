import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as secureJsonParse } from 'secure-json-parse';
import { AppError } from '../platform/errors.js';
import type { BodyBudget } from './body-budget.js';
import { assertJsonDepth } from './json-depth.js';
import { createJsonStream, type JsonStream } from './json-stream.js';

/**
 * Reads one relay request's body (relay-front.ts): within its limit, within the sender's share of
 * the bytes being received at once (body-budget.ts), and for a route that authenticates nobody
 * within a short time. Small bodies, nearly all of them, are parsed whole with JSON.parse as
 * before; a large one is parsed chunk by chunk as it arrives (json-stream.ts), so parsing it never
 * holds the event loop for long.
 */

/** Above this a JSON body is parsed as it arrives; below it one JSON.parse is quicker and short enough. */
export const STREAM_PARSE_ABOVE_BYTES = 256 * 1024;
/** What the streaming parser takes in one turn of the event loop: well under a millisecond warm. */
const PARSE_SLICE_BYTES = 8 * 1024;

/** A smaller limit set by admission for this caller, with the answer to give past it (an unfunded caller). */
export interface BodyCap {
  bytes: number;
  error: AppError;
}

export interface BodyPlan {
  /** Kept as raw bytes (a multipart form); else parsed as JSON. */
  form: boolean;
  /** 413 past this many bytes. */
  limit: number;
  cap?: BodyCap | undefined;
  /** The whole body must arrive within this time (routes that authenticate nobody), else 408. */
  timeoutMs?: number | undefined;
  budget?: BodyBudget | undefined;
  address: string;
  user?: number | undefined;
}

export type BodyDone = (error: unknown, body?: unknown) => void;

const tooLarge = () => new AppError('payload_too_large', 'request body is larger than the server accepts');

function parseWhole(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  assertJsonDepth(text);
  return secureJsonParse(text, { protoAction: 'error', constructorAction: 'error' });
}

/** Reads the body and calls `done` once; a client that leaves before its end gets nothing. */
export function readRelayBody(raw: IncomingMessage, response: ServerResponse, plan: BodyPlan, done: BodyDone): void {
  const declared = Number(raw.headers['content-length'] ?? Number.NaN);
  const early = declared > plan.limit ? tooLarge() : plan.cap && declared > plan.cap.bytes ? plan.cap.error : undefined;
  if (early) {
    done(early);
    return;
  }
  // A declared length is taken whole before anything is read; a chunked body as it comes.
  const reader = new BodyReader(raw as ReadRequest, response, plan, done, !(declared >= 0));
  const refused = reader.chunked ? undefined : reader.take(declared);
  if (refused) {
    done(refused);
    return;
  }
  if (!plan.form && declared > STREAM_PARSE_ABOVE_BYTES) reader.startStream();
  if (plan.timeoutMs !== undefined) reader.timer = setTimeout(timeUp, plan.timeoutMs, reader);
  (raw as ReadRequest)[READER] = reader;
  raw.on('data', onData);
  raw.on('end', onEnd);
  raw.on('close', onClose);
}

/**
 * Where each request's reader is found by the listeners below. They are functions of this module,
 * not closures made per request: a request's reading state is one object, and V8 optimises the
 * listeners once rather than per closure (BENCHMARKS.md, issue 37).
 */
const READER = Symbol('relay body reader');
type ReadRequest = IncomingMessage & { [READER]?: BodyReader | undefined };

function onData(this: ReadRequest, chunk: Buffer): void {
  this[READER]?.data(chunk);
}
function onEnd(this: ReadRequest): void {
  this[READER]?.end();
}
function onClose(this: ReadRequest): void {
  this[READER]?.close();
}
function timeUp(reader: BodyReader): void {
  const seconds = (reader.plan.timeoutMs ?? 0) / 1000;
  reader.stop(new AppError('bad_request', `the request body did not arrive within ${seconds} s`, { status: 408 }));
}
function pump(reader: BodyReader): void {
  reader.pump();
}

/** One request's body as it arrives: the bytes taken from the budget, the chunks, the parser. */
class BodyReader {
  /** Bytes taken from the sender's share of the budget, given back at the end. */
  private held = 0;
  private size = 0;
  private readonly chunks: Buffer[] = [];
  private stream: JsonStream | undefined;
  timer: NodeJS.Timeout | undefined;
  private settled = false;
  // A socket read can be 64 KiB or more: the parser takes a slice per turn of the event loop, the
  // request paused meanwhile; what still arrives is queued.
  private readonly queue: Buffer[] = [];
  private pumping = false;
  // The request can end while slices are still queued: the body is finished after the last one.
  private ended = false;

  constructor(
    private readonly raw: ReadRequest,
    private readonly response: ServerResponse,
    readonly plan: BodyPlan,
    private readonly done: BodyDone,
    readonly chunked: boolean,
  ) {}

  take(bytes: number): AppError | undefined {
    const { budget, address, user } = this.plan;
    const refused = budget?.take(address, user, bytes);
    if (refused) this.response.setHeader('retry-after', '1');
    else this.held += bytes;
    return refused;
  }

  private giveBack(): void {
    const { budget, address, user } = this.plan;
    budget?.give(address, user, this.held);
    this.held = 0;
  }

  startStream(): void {
    const stream = createJsonStream();
    for (const chunk of this.chunks) stream.write(chunk);
    this.chunks.length = 0;
    this.stream = stream;
  }

  private detach(): void {
    const raw = this.raw;
    raw.off('data', onData);
    raw.off('end', onEnd);
    raw.off('close', onClose);
    raw[READER] = undefined;
    if (this.timer) clearTimeout(this.timer);
  }

  stop(error: unknown, body?: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.detach();
    this.giveBack();
    this.done(error, body);
  }

  data(chunk: Buffer): void {
    const { plan } = this;
    this.size += chunk.length;
    const refused =
      this.size > plan.limit
        ? tooLarge()
        : plan.cap && this.size > plan.cap.bytes
          ? plan.cap.error
          : this.chunked
            ? this.take(chunk.length)
            : undefined;
    if (refused) {
      this.stop(refused);
      return;
    }
    if (this.stream) this.parseInSlices(chunk);
    else {
      this.chunks.push(chunk);
      if (!plan.form && this.size > STREAM_PARSE_ABOVE_BYTES) this.startStream();
    }
  }

  private parseInSlices(chunk: Buffer): void {
    this.queue.push(chunk);
    if (this.pumping) return;
    this.pumping = true;
    this.raw.pause();
    this.pump();
  }

  pump(): void {
    // Refused or abandoned meanwhile: the rest is not parsed.
    if (this.settled) return;
    const { queue } = this;
    const chunk = queue[0] as Buffer;
    (this.stream as JsonStream).write(chunk.subarray(0, PARSE_SLICE_BYTES));
    if (chunk.length > PARSE_SLICE_BYTES) queue[0] = chunk.subarray(PARSE_SLICE_BYTES);
    else queue.shift();
    if (queue.length > 0) {
      setImmediate(pump, this);
      return;
    }
    this.pumping = false;
    if (this.ended) this.end();
    else this.raw.resume();
  }

  end(): void {
    if (this.pumping) {
      this.ended = true;
      return;
    }
    let body: unknown;
    try {
      if (this.stream) body = this.stream.end();
      else {
        const { chunks } = this;
        const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.size);
        body = this.plan.form ? bytes : parseWhole(bytes);
      }
    } catch (error) {
      this.stop(error);
      return;
    }
    this.stop(null, body);
  }

  // Left before the end: nothing is answered, the bytes are given back.
  close(): void {
    if (this.raw.complete) return;
    this.settled = true;
    this.detach();
    this.giveBack();
  }
}
