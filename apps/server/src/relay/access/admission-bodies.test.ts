import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partialPost, statusOf } from '../../../test/partial-request.js';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';

/**
 * What the headers can decide is decided before the body is read: a key whose owner cannot pay for
 * any request, or whose rate is used up, is refused without the server reading (or parsing) its
 * large body; one key cannot have more than its share of bodies in flight; and a large body from a
 * paying caller is parsed as it arrives, the event loop turning all along.
 */

const EIGHT_MB = 8 * 1024 * 1024;
const CHAT = '{"model":"gpt-4o-mini","messages":[';

describe('admission before the body', () => {
  let r: RelayTestContext;
  let base: string;
  let port: number;
  let brokeKey: string;
  let brokeUserId: number;
  beforeAll(async () => {
    // Short request timeouts: a server that waited for the body would answer 408, which is refused.
    r = await startRelayTest({ env: { REQUEST_TIMEOUT_MS: '5000', API_REQUEST_TIMEOUT_MS: '1000' } });
    base = r.baseURL.replace(/\/v1$/, '');
    port = Number(new URL(base).port);
    // Every model of the group is priced: a caller with no balance can pay for nothing.
    await r.setPrice('omni-moderation-latest', 0.1, 0);
    const broke = await r.t.createUser('broke');
    brokeUserId = broke.id;
    brokeKey = await r.newKey(broke.cookie);
  });
  afterAll(() => r?.close());

  it('refuses a large body from a key whose owner has no balance with 429 insufficient_quota, unread', async () => {
    for (const [path, headers] of [
      ['/v1/chat/completions', { authorization: `Bearer ${brokeKey}` }],
      ['/v1/embeddings', { authorization: `Bearer ${brokeKey}` }],
      ['/mj/submit/imagine', { 'mj-api-secret': brokeKey }],
    ] as const) {
      const answer = await partialPost(base, path, headers, EIGHT_MB, CHAT);
      expect(answer.status, path).toBe(429);
      expect(answer.body, path).toContain('insufficient_quota');
      expect(answer.headers.connection, path).toBe('close');
    }
  });

  it('still reads a small body from a key with no balance, and answers it as before', async () => {
    const response = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${brokeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(429);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('insufficient_quota');
  });

  it('serves a large body once the owner has topped up', async () => {
    const { cookie } = await r.t.createUser('topped');
    const key = await r.newKey(cookie);
    const user = await r.t.services.userRepository.findByUsername('topped');
    await r.admin('POST', `/api/user/quota/${user?.id}`, { quota: 1_000_000 });
    const response = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(64 * 1024) }] }),
    });
    expect(response.status).toBe(200);
    expect(brokeUserId).toBeGreaterThan(0);
  });

  it('refuses a large body from a key past its requests per minute with 429, unread, task submissions too', async () => {
    const { cookie } = await r.t.createUser('hasty');
    await r.admin('POST', `/api/user/quota/${(await r.t.services.userRepository.findByUsername('hasty'))?.id}`, {
      quota: 1_000_000,
    });
    const key = await r.newKey(cookie, { setting: { limits: { rpm: 1 } } });
    const first = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(first.status).toBe(200);
    // The relay's routes and the task submissions alike.
    for (const [path, headers] of [
      ['/v1/chat/completions', { authorization: `Bearer ${key}` }],
      ['/mj/submit/imagine', { 'mj-api-secret': key }],
      ['/suno/submit/music', { authorization: `Bearer ${key}` }],
      ['/kling/v1/videos/text2video', { authorization: `Bearer ${key}` }],
    ] as const) {
      const second = await partialPost(base, path, headers, EIGHT_MB, CHAT);
      expect(second.status, path).toBe(429);
      expect(second.body, path).toContain('requests per minute');
      expect(second.headers.connection, path).toBe('close');
      expect(second.headers['retry-after'], path).toBeDefined();
    }
  });

  it("refuses a body past the key's share of bytes in flight with 429, before reading it", async () => {
    const held: Socket[] = [];
    try {
      // Four bodies of the largest size, each sent in part and held open: the user's whole share.
      for (let index = 0; index < 4; index++) held.push(holdBody(port, r.apiKey, 10 * 1024 * 1024));
      await expect.poll(() => r.t.app.relayFront.bodyBytesInFlight('127.0.0.1', r.userId)).toBe(4 * 10 * 1024 * 1024);
      const over = await partialPost(base, '/v1/chat/completions', { authorization: `Bearer ${r.apiKey}` }, 1024, CHAT);
      expect(over.status).toBe(429);
      expect(over.body).toContain('too many request bodies are being received at once');
    } finally {
      for (const socket of held) socket.destroy();
    }
    // Bodies abandoned by their clients give their share back.
    await expect.poll(() => r.t.app.relayFront.bodyBytesInFlight('127.0.0.1')).toBe(0);
  });

  it('parses a large body as it arrives, reading the model named after 8 MB of messages', async () => {
    const messages = Array.from({ length: 3600 }, (_, index) => ({
      role: 'user',
      content: [{ type: 'text', text: `part ${index} ${'word '.repeat(500)}` }],
    }));
    // A model no channel serves, named last: the answer names it only if the whole body was parsed.
    // That each slice lets the loop turn is counted in http/relay-body.test.ts.
    const body = JSON.stringify({ messages, model: 'no-such-model' });
    expect(body.length).toBeGreaterThan(EIGHT_MB);
    const request = Buffer.from(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${r.apiKey}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    const answer = await exchange(port, request);
    expect(statusOf(answer)).toBe(404);
    expect(answer).toContain('no-such-model');
  });
});

/** Sends a request's headers and a few bytes of a body of `declared` bytes, and keeps the connection open. */
function holdBody(port: number, key: string, declared: number): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${key}\r\n` +
      `content-type: application/json\r\ncontent-length: ${declared}\r\n\r\n${CHAT}`,
  );
  return socket;
}

/** Writes a whole request on a new connection and resolves with the answer once the server closes it. */
function exchange(port: number, request: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    socket.on('data', (part: Buffer) => parts.push(part));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(parts).toString('utf8')));
    socket.write(request);
  });
}
