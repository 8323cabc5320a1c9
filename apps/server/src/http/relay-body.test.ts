import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readRelayBody, STREAM_PARSE_ABOVE_BYTES } from './relay-body.js';

/**
 * A large body is parsed a slice per turn of the event loop, so other requests are served between
 * its slices. Counted in turns, not milliseconds: a ticker that re-arms itself with setImmediate
 * runs once per turn, and a parse that held the loop from start to end would let it run not once.
 */

/** A request whose whole body arrives in one read, the worst case for the loop. */
function requestWith(body: Buffer): IncomingMessage {
  const stream = new PassThrough();
  Object.assign(stream, {
    headers: { 'content-length': String(body.length), 'content-type': 'application/json' },
    complete: true,
  });
  setImmediate(() => stream.end(body));
  return stream as unknown as IncomingMessage;
}

const response = { setHeader() {} } as unknown as ServerResponse;

/** Reads `body` and counts the turns the loop made from its arrival to the parsed value. */
function readCountingTurns(body: Buffer): Promise<{ error: unknown; value: unknown; turns: number }> {
  return new Promise((resolve) => {
    const raw = requestWith(body);
    let turns = 0;
    let counting = false;
    const tick = () => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    raw.once('data', () => {
      counting = true;
      setImmediate(tick);
    });
    readRelayBody(raw, response, { form: false, limit: 64 * 1024 * 1024, address: '127.0.0.1' }, (error, value) => {
      counting = false;
      resolve({ error, value, turns });
    });
  });
}

describe('reading a relay body', () => {
  it('parses a large body over many turns of the loop, with the same result as JSON.parse', async () => {
    const value = {
      model: 'gpt-4o-mini',
      messages: Array.from({ length: 800 }, (_, index) => ({
        role: 'user',
        content: `第${index}段 ${'word '.repeat(500)}`,
      })),
    };
    const body = Buffer.from(JSON.stringify(value));
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const read = await readCountingTurns(body);
    expect(read.error).toBeNull();
    expect(read.value).toEqual(value);
    // A slice is 8 KiB: the loop turned between (nearly) every two of them.
    expect(read.turns).toBeGreaterThan(body.length / (16 * 1024));
  });

  it('parses a small body at once', async () => {
    const value = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };
    const read = await readCountingTurns(Buffer.from(JSON.stringify(value)));
    expect(read.value).toEqual(value);
    expect(read.turns).toBeLessThan(2);
  });

  it('refuses prototype poisoning and deep nesting in a large body, as in a small one', async () => {
    const pad = 'x'.repeat(STREAM_PARSE_ABOVE_BYTES);
    const poisoned = await readCountingTurns(Buffer.from(`{"pad":"${pad}","a":{"__proto__":{"admin":true}}}`));
    expect(String(poisoned.error)).toContain('forbidden prototype property');
    const deep = await readCountingTurns(Buffer.from(`{"pad":"${pad}","a":${'['.repeat(100)}${']'.repeat(100)}}`));
    expect(String(deep.error)).toContain('nested too deeply');
    const broken = await readCountingTurns(Buffer.from(`{"pad":"${pad}",`));
    expect(String(broken.error)).toContain('not valid JSON');
  });
});
