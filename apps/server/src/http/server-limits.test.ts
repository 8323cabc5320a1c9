import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { rawExchange, statusOf } from '../../test/partial-request.js';
import { type RelayTestContext, startRelayTest } from '../../test/relay-setup.js';

/**
 * A client may not hold the server by sending slowly: headers, relay bodies and /api bodies each
 * have a time limit (short test values here), while answers, streamed ones included, are not cut.
 */
describe('request timeouts', () => {
  let r: RelayTestContext;
  let port: number;
  beforeAll(async () => {
    r = await startRelayTest({
      env: { REQUEST_TIMEOUT_MS: '800', API_REQUEST_TIMEOUT_MS: '300', HEADERS_TIMEOUT_MS: '300' },
    });
    port = (r.t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => r?.close());

  const head = (method: string, path: string, headers: Record<string, string | number>) =>
    `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`;

  it('cuts a relay request whose body stalls', async () => {
    const headers = { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json', 'content-length': 1000 };
    const answer = await rawExchange(port, `${head('POST', '/v1/chat/completions', headers)}{"model":`);
    expect([0, 408]).toContain(statusOf(answer));
  });

  it('cuts an /api request whose body stalls, with a 408', async () => {
    const headers = { 'content-type': 'application/json', 'content-length': 1000 };
    const answer = await rawExchange(port, `${head('POST', '/api/user/login', headers)}{"username":`);
    expect(statusOf(answer)).toBe(408);
    expect(answer).toContain('the request body did not arrive within 0.3 s');
  });

  it('cuts a client that stalls in the middle of its headers', async () => {
    const answer = await rawExchange(port, 'GET /api/status HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ');
    expect([0, 408]).toContain(statusOf(answer));
  });

  it('lets a streamed answer run longer than the request timeout', async () => {
    // 12 chunks 100 ms apart: the answer takes longer than the 800 ms the request may take.
    Object.assign(r.upstream.behaviour, { chunks: 12, chunkDelayMs: 100, reply: 'abcdefghijkl' });
    try {
      const stream = await r.client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'slowly' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('abcdefghijkl');
    } finally {
      Object.assign(r.upstream.behaviour, { chunkDelayMs: 0 });
    }
  });
});

describe('connections per client address', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({ env: { MAX_CONNECTIONS_PER_ADDRESS: '2' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  /** A kept-alive connection that has been served once, so the server counts it. */
  const servedConnection = () =>
    new Promise<ReturnType<typeof connect>>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.setEncoding('utf8');
      socket.once('data', () => resolve(socket));
      socket.once('error', reject);
      socket.write('GET /api/status HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    });

  it('closes a connection over the cap without answering it', async () => {
    const open = [await servedConnection(), await servedConnection()];
    try {
      const refused = await rawExchange(port, 'GET /api/status HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
      expect(refused).toBe('');
    } finally {
      for (const socket of open) socket.destroy();
    }
  });
});
