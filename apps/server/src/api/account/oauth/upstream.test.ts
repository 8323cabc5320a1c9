import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson } from './upstream.js';

let server: Server;
let origin = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/huge') response.end(JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }));
    else if (request.url === '/page') response.end('<html>not json</html>');
    else response.end(JSON.stringify({ ok: true }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('callJson', () => {
  it('parses the JSON answer whatever the status', async () => {
    await expect(callJson(`${origin}/small`, {}, 'the test provider')).resolves.toEqual({
      status: 200,
      body: { ok: true },
    });
  });

  it('stops reading an answer over 1 MiB and says so', async () => {
    await expect(callJson(`${origin}/huge`, {}, 'the test provider')).rejects.toThrow(
      'the test provider could not be reached (response too large)',
    );
  });

  it('names a provider that answers with something other than JSON', async () => {
    await expect(callJson(`${origin}/page`, {}, 'the test provider')).rejects.toThrow('with a body that is not JSON');
  });
});
