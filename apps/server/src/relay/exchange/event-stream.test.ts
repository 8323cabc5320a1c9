import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTextTokens } from '../billing/metering.js';
import { endpoints } from '../surfaces/openai.js';
import type { StreamedResponse } from '../transport/executor.js';
import { pumpToClient } from '../transport/respond.js';
import { eventStreamRelay } from './event-stream.js';
import type { MeteredStream, RelayInput } from './types.js';

/**
 * The event-stream relay sends a chunk of whole, unchanged events before reading it, and reads
 * first whatever may be rewritten. These cases check that both ways, through the pump, give the
 * client the right bytes and keep the right counts.
 */

const chat = endpoints.find((endpoint) => endpoint.path === '/v1/chat/completions');
const format = chat?.stream;

/** An upstream that delivers these chunks, in order, as undici would; `after` runs as each returns. */
function upstreamOf(chunks: Buffer[], after?: () => void): StreamedResponse {
  return {
    status: 200,
    headers: {},
    async pump(onChunk) {
      for (const chunk of chunks) {
        const held = onChunk(chunk);
        after?.();
        await held;
      }
    },
    readAll: async () => Buffer.concat(chunks),
    abort() {},
  };
}

let next: { chunks: Buffer[]; input: RelayInput; after?: (response: ServerResponse) => void } | undefined;
let relayed: MeteredStream | undefined;
let writtenAtSettlement: string | undefined;
/** The prompt count the relay falls back on when no usage came. */
const COUNTED_PROMPT = 7;
const server = createServer((request, response) => {
  const job = next;
  if (!job || !format) return void response.end();
  const reply = { raw: response, header: () => reply, hijack() {} };
  const after = job.after && (() => job.after?.(response));
  const relay = eventStreamRelay(format, job.input, () => COUNTED_PROMPT);
  relayed = relay;
  // What the client had been sent when the relay settles (the pump's `beforeEnd`).
  let written = '';
  const write = response.write.bind(response);
  response.write = ((chunk: string | Buffer, ...rest: never[]) => {
    written += chunk.toString();
    return write(chunk, ...rest);
  }) as typeof response.write;
  void pumpToClient(
    upstreamOf(job.chunks, after),
    reply,
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
    relay,
    Date.now(),
    async () => {
      writtenAtSettlement = written;
    },
  );
  request.resume();
});

async function relay(
  chunks: Array<string | Buffer>,
  askUsage = false,
  after?: (response: ServerResponse) => void,
): Promise<string> {
  const fields = askUsage ? { stream: true, stream_options: { include_usage: true } } : { stream: true };
  next = {
    chunks: chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)),
    input: { model: 'gpt-4o-mini', stream: true, fields } as RelayInput,
    after,
  };
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/`);
  return response.text();
}

const content = (text: string) => `data: {"choices":[{"index":0,"delta":{"content":"${text}"}}]}\n\n`;
const usage = (escapedKey = false) =>
  `data: {"choices":[],"${escapedKey ? '\\u0075sage' : 'usage'}":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}\n\n`;
const done = 'data: [DONE]\n\n';

describe('the event-stream relay', () => {
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('passes whole unchanged events through byte for byte, and still reads their usage', async () => {
    const sent = [content('Hel'), content('lo').replace('\n\n', '\r\n\r\n'), usage(), done];
    const received = await relay(sent, true);
    expect(received).toBe(sent.join(''));
    expect(relayed?.usage()).toMatchObject({ prompt_tokens: 3, completion_tokens: 2 });
  });

  it('holds the upstream [DONE] back until the request is settled, and sends it then', async () => {
    const sent = [content('Hel'), usage() + done];
    const received = await relay(sent, true);
    expect(received).toBe(sent.join(''));
    expect(writtenAtSettlement).toBe(content('Hel') + usage());
  });

  it('ends a stream the vendor ended without [DONE] with one, after the settlement', async () => {
    const received = await relay([content('Hel'), usage()], true);
    expect(received).toBe(`${content('Hel')}${usage()}${done}`);
    expect(writtenAtSettlement).not.toContain('[DONE]');
  });

  it('takes out the usage the client did not ask for, also when its event is split across chunks', async () => {
    const tail = usage();
    const received = await relay([content('Hel') + tail.slice(0, 20), tail.slice(20) + content('lo'), done]);
    expect(received).toBe(`${content('Hel')}${content('lo')}${done}`);
    expect(relayed?.usage()).toMatchObject({ completion_tokens: 2 });
  });

  it('takes it out when the key is spelled with escapes too', async () => {
    const received = await relay([content('Hi'), usage(true), done]);
    expect(received).toBe(`${content('Hi')}${done}`);
    expect(relayed?.usage()).toMatchObject({ prompt_tokens: 3 });
  });

  it('keeps a character split between two chunks whole', async () => {
    const bytes = Buffer.from(content('日本'));
    const cut = bytes.indexOf(Buffer.from('本')) + 1;
    const received = await relay([bytes.subarray(0, cut), Buffer.concat([bytes.subarray(cut), Buffer.from(done)])]);
    expect(received).toBe(`${content('日本')}${done}`);
    expect(relayed?.usage()).toEqual({ prompt_tokens: COUNTED_PROMPT, completion_tokens: countTextTokens('日本') });
  });

  it('counts the same text, scanned or parsed, for a stream that reports no usage', async () => {
    const events = [
      '{"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}],"usage":null}',
      '{"id":"c","choices":[{"index":0,"delta":{"content":"Hello wörld 😀"},"finish_reason":null}]}',
      '{"id":"c","choices":[{"index":0,"delta":{"content":"line\\nbreak \\"quoted\\" \\ud83d\\ude00"}}]}',
      '{"id":"c","choices":[{"index":0,"delta":{"reasoning_content":"think","refusal":"no"}}]}',
      '{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}',
      '{"id":"c","choices":[{"text":"legacy"},{"delta":{"content":" second"}}]}',
      '{"id":"c","choices":[],"usage":null}',
    ];
    const stream = events.map((data) => `data: ${data}\n\n`).join('');
    const text = events.map((data) => format?.textOf(JSON.parse(data)) ?? '').join('');
    const bytes = Buffer.from(stream);
    // Whole, then cut at a few places, one inside a character.
    for (const cut of [0, 40, bytes.indexOf(Buffer.from('ö')) + 1, bytes.length - 30]) {
      const chunks = cut === 0 ? [bytes] : [bytes.subarray(0, cut), bytes.subarray(cut)];
      expect(await relay([...chunks, Buffer.from(done)])).toBe(`${stream}${done}`);
      expect(relayed?.usage()).toEqual({ prompt_tokens: COUNTED_PROMPT, completion_tokens: countTextTokens(text) });
    }
  });

  it('does not send a character twice when a chunk ends just after its first byte', async () => {
    const wide = Buffer.from('日: a comment line\n\n');
    const first = Buffer.concat([Buffer.from(content('A')), wide.subarray(0, 1)]);
    const rest = Buffer.concat([wide.subarray(1), Buffer.from(usage() + done)]);
    expect(await relay([first, rest])).toBe(`${content('A')}${wide.toString()}${done}`);
  });

  it('hands the first chunk to the socket as it is written, not at the end of the tick', async () => {
    // Node's response.write corks the socket until the next tick; the reading and billing of the
    // first events must not hold the first bytes back. Later writes are gathered as usual.
    const corked: number[] = [];
    const sent = [content('Hel'), content('lo'), done];
    expect(await relay(sent, false, (response) => corked.push(response.socket?.writableCorked ?? -1))).toBe(
      sent.join(''),
    );
    expect(corked[0]).toBe(0);
  });
});
