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
  const { budget, address, user } = plan;
  let held = 0;
  const take = (bytes: number): AppError | undefined => {
    const refused = budget?.take(address, user, bytes);
    if (refused) response.setHeader('retry-after', '1');
    else held += bytes;
    return refused;
  };
  const giveBack = () => {
    budget?.give(address, user, held);
    held = 0;
  };
  // A declared length is taken whole before anything is read; a chunked body as it comes.
  const chunked = !(declared >= 0);
  const refused = chunked ? undefined : take(declared);
  if (refused) {
    done(refused);
    return;
  }

  const chunks: Buffer[] = [];
  let size = 0;
  let stream: JsonStream | undefined;
  const startStream = () => {
    stream = createJsonStream();
    for (const chunk of chunks) stream.write(chunk);
    chunks.length = 0;
  };
  if (!plan.form && declared > STREAM_PARSE_ABOVE_BYTES) startStream();

  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  const stop = (error: unknown, body?: unknown) => {
    if (settled) return;
    settled = true;
    raw.off('data', onData);
    raw.off('end', onEnd);
    raw.off('close', onClose);
    if (timer) clearTimeout(timer);
    giveBack();
    done(error, body);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > plan.limit) return stop(tooLarge());
    if (plan.cap && size > plan.cap.bytes) return stop(plan.cap.error);
    if (chunked) {
      const over = take(chunk.length);
      if (over) return stop(over);
    }
    if (stream) parseInSlices(chunk);
    else {
      chunks.push(chunk);
      if (!plan.form && size > STREAM_PARSE_ABOVE_BYTES) startStream();
    }
  };
  // A socket read can be 64 KiB or more: the parser takes a slice per turn of the event loop, the
  // request paused meanwhile; what still arrives is queued.
  const queue: Buffer[] = [];
  let pumping = false;
  // The request can end while slices are still queued: the body is finished after the last one.
  let ended = false;
  const pump = () => {
    // Refused or abandoned meanwhile: the rest is not parsed.
    if (settled) return;
    const chunk = queue[0] as Buffer;
    (stream as JsonStream).write(chunk.subarray(0, PARSE_SLICE_BYTES));
    if (chunk.length > PARSE_SLICE_BYTES) queue[0] = chunk.subarray(PARSE_SLICE_BYTES);
    else queue.shift();
    if (queue.length > 0) {
      setImmediate(pump);
      return;
    }
    pumping = false;
    if (ended) onEnd();
    else raw.resume();
  };
  const parseInSlices = (chunk: Buffer) => {
    queue.push(chunk);
    if (pumping) return;
    pumping = true;
    raw.pause();
    pump();
  };
  const onEnd = () => {
    if (pumping) {
      ended = true;
      return;
    }
    let body: unknown;
    try {
      if (stream) body = stream.end();
      else {
        const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
        body = plan.form ? bytes : parseWhole(bytes);
      }
    } catch (error) {
      return stop(error);
    }
    stop(null, body);
  };
  // Left before the end: nothing is answered, the bytes are given back.
  const onClose = () => {
    if (raw.complete) return;
    settled = true;
    raw.off('data', onData);
    raw.off('end', onEnd);
    if (timer) clearTimeout(timer);
    giveBack();
  };
  if (plan.timeoutMs !== undefined) {
    const seconds = plan.timeoutMs / 1000;
    timer = setTimeout(() => {
      stop(new AppError('bad_request', `the request body did not arrive within ${seconds} s`, { status: 408 }));
    }, plan.timeoutMs);
  }
  raw.on('data', onData);
  raw.once('end', onEnd);
  raw.once('close', onClose);
}
