import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { type ClientRequest, request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consumeRows, type RawRelay, startRawRelay } from '../../../test/providers/raw/raw-relay.js';
import { RAW_LOG_PREFIX } from './relay.js';

/**
 * Bodies go through as they arrive, both ways: an upload reaches the upstream while the client is
 * still sending it (the gateway does not hold it first), and a streamed answer reaches the client
 * while the upstream is still writing it. Both are checked by state, each wait bounded.
 */

/** Resolves true once `check` holds after a `poke`, false if it still does not after `limitMs`. */
function condition(check: () => boolean, limitMs = 15_000) {
  let wake: (() => void) | undefined;
  const reached = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(check()), limitMs);
    wake = () => {
      if (!check()) return;
      clearTimeout(timer);
      resolve(true);
    };
  });
  return { reached, poke: () => wake?.() };
}

function answerOf(outgoing: ClientRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    outgoing.once('response', (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (part: string) => {
        body += part;
      });
      incoming.once('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
    });
    outgoing.once('error', reject);
  });
}

describe('the raw pass-through streams', () => {
  let raw: RawRelay;

  beforeAll(async () => {
    raw = await startRawRelay();
  }, 60_000);
  afterAll(async () => {
    await raw?.close();
  });
  beforeEach(() => raw.mock.reset());

  it('a 50 MB upload to the upstream while the client is still sending it, byte for byte', async () => {
    const fileSize = 50 * 1024 * 1024;
    const chunkSize = 1024 * 1024;
    const boundary = 'raw-pass-7f3a9c';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jsonl"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const total = head.length + fileSize + tail.length;

    let upstreamBytes = 0;
    const upstreamStarted = condition(() => upstreamBytes > 0);
    raw.mock.behaviour.onBodyBytes = (received) => {
      upstreamBytes = received;
      upstreamStarted.poke();
    };
    const url = new URL(`${raw.r.baseURL}/files`);
    const outgoing = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        authorization: `Bearer ${raw.rootKey}#${raw.channels.openai}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(total),
      },
    });
    const answered = answerOf(outgoing);
    const sent = createHash('sha256');
    const write = async (bytes: Buffer) => {
      sent.update(bytes);
      if (!outgoing.write(bytes)) await once(outgoing, 'drain');
    };
    await write(head);
    let startedEarly = false;
    let unsentWhenStarted = 0;
    for (let index = 0; index < fileSize / chunkSize; index++) {
      await write(Buffer.alloc(chunkSize, index % 251));
      if (index === 9) {
        // 10 MB sent, 40 MB to go: a gateway that reads the whole body first has sent nothing yet.
        startedEarly = await upstreamStarted.reached;
        unsentWhenStarted = total - head.length - (index + 1) * chunkSize;
      }
    }
    await write(tail);
    outgoing.end();
    const answer = await answered;

    expect(startedEarly).toBe(true);
    expect(unsentWhenStarted).toBeGreaterThan(30 * chunkSize);
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ object: 'file', bytes: fileSize, filename: 'big.jsonl' });
    const received = raw.mock.received.at(-1);
    expect(received?.bytes).toBe(total);
    expect(received?.sha256).toBe(sent.digest('hex'));
    expect((await consumeRows(raw.r, raw.rootUserId)).at(-1)).toMatchObject({
      content: `${RAW_LOG_PREFIX}/v1/files`,
      quota: 0,
      channel_id: raw.channels.openai,
    });
  }, 120_000);

  it('no further once the client goes away mid-upload: the upstream request is stopped', async () => {
    const broken = raw.mock.brokenBodies();
    let upstreamBytes = 0;
    const upstreamStarted = condition(() => upstreamBytes > 0);
    raw.mock.behaviour.onBodyBytes = (received) => {
      upstreamBytes = received;
      upstreamStarted.poke();
    };
    const url = new URL(`${raw.r.baseURL}/files`);
    const outgoing = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        authorization: `Bearer ${raw.rootKey}#${raw.channels.openai}`,
        'content-type': 'multipart/form-data; boundary=b',
        'content-length': String(20 * 1024 * 1024),
      },
    });
    outgoing.on('error', () => {});
    outgoing.write(Buffer.alloc(256 * 1024, 1));
    expect(await upstreamStarted.reached).toBe(true);
    outgoing.destroy();
    const deadline = Date.now() + 15_000;
    while (raw.mock.brokenBodies() === broken && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 20));
    expect(raw.mock.brokenBodies()).toBe(broken + 1);
    // The gateway goes on serving.
    expect((await raw.client(raw.channels.openai).files.list()).data).toBeInstanceOf(Array);
  });

  it('server-sent events to the client while the upstream is still writing them', async () => {
    let release: (() => void) | undefined;
    raw.mock.behaviour.holdRun = new Promise<void>((resolve) => {
      release = resolve;
    });
    let deltas = 0;
    const firstDelta = condition(() => deltas > 0);
    const stream = raw.client(raw.channels.openai).beta.threads.runs.stream('thread_held', { assistant_id: 'asst_1' });
    stream.on('textDelta', () => {
      deltas++;
      firstDelta.poke();
    });
    const finished = stream.finalRun();
    // The upstream holds the rest of the run until the client has had its first delta.
    const sawDeltaWhileHeld = await firstDelta.reached;
    release?.();
    expect(sawDeltaWhileHeld).toBe(true);
    expect(await finished).toMatchObject({ status: 'completed' });
    expect(deltas).toBe(3);
  });
});
