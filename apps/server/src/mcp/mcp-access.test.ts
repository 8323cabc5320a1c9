import { UserStatus } from '@one-hub/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback, startTestApp, type TestApp } from '../../test/app.js';
import { connectMcp, type McpTransportKind, type McpUser, setUserColumns, userWithToken } from '../../test/mcp.js';
import { partialPost } from '../../test/partial-request.js';
import { createLogger } from '../platform/logger.js';

const REFUSED = { success: false, message: 'the access token in the URL is not valid, or its user is disabled' };

/** Opens an SSE connection by hand and reads the endpoint event the SDK's server sends first. */
async function openSse(base: string, token: string): Promise<{ endpoint: string; close: () => void }> {
  const abort = new AbortController();
  const response = await fetch(`${base}/mcp/sse/${token}`, { signal: abort.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('\n\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before its endpoint event: ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  const endpoint = /^event: endpoint\ndata: (.+)$/m.exec(text)?.[1];
  if (!endpoint) throw new Error(`no endpoint event in ${text}`);
  return { endpoint, close: () => abort.abort() };
}

describe('who may use the MCP server', () => {
  let t: TestApp;
  let base: string;
  let alice: McpUser;
  let bob: McpUser;
  const lines: string[] = [];

  beforeAll(async () => {
    // Debug level: one line per request, with its URL, as an operator would turn on.
    t = await startTestApp({
      env: { MCP_ENABLE: 'true', LOG_LEVEL: 'debug' },
      logger: createLogger('debug', { write: (line: string) => void lines.push(line) }),
    });
    base = await listenOnLoopback(t);
    alice = await userWithToken(t, 'alice');
    bob = await userWithToken(t, 'bob');
  });
  afterAll(() => t?.close());

  it.each<McpTransportKind>(['streamable', 'sse'])('refuses an unknown access token with 401 over %s', async (kind) => {
    await expect(connectMcp(base, kind, 'not-a-real-access-token')).rejects.toMatchObject({ code: 401 });
  });

  it('refuses a wrong token before reading the body, and a disabled user as an unknown one', async () => {
    const answer = await partialPost(base, '/mcp/not-a-real-access-token', {}, 100_000, '{"jsonrpc":');
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toEqual(REFUSED);

    const carol = await userWithToken(t, 'carol');
    await expect(connectMcp(base, 'streamable', carol.token)).resolves.toBeDefined();
    await setUserColumns(t, carol.id, { status: UserStatus.disabled });
    for (const path of [`/mcp/${carol.token}`, `/mcp/sse/${carol.token}`, `/mcp/message/${carol.token}?sessionId=x`]) {
      const response = await fetch(`${base}${path}`, { method: path.includes('/sse/') ? 'GET' : 'POST' });
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual(REFUSED);
    }
  });

  it('reads at most the body limit of the management API (1 MiB) of a message', async () => {
    const answer = await partialPost(base, `/mcp/${alice.token}`, {}, 2 * 1024 * 1024, '{"jsonrpc":');
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).message).toBe(
      'request body is larger than the server accepts (at most 1048576 bytes here)',
    );
  });

  it('answers 405 to GET and DELETE on the stateless endpoint, and 404 to other paths under /mcp', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${base}/mcp/${alice.token}`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    const unknown = await fetch(`${base}/mcp/sse/${alice.token}/more`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ success: false, message: 'no such MCP path' });
  });

  it('routes SSE messages only to the session of the same user', async () => {
    const sse = await openSse(base, alice.token);
    try {
      expect(sse.endpoint).toMatch(new RegExp(`^/mcp/message/${alice.token}\\?sessionId=[0-9a-f-]{36}$`));
      const sessionId = new URL(sse.endpoint, base).searchParams.get('sessionId');
      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      const post = (token: string, query: string) =>
        fetch(`${base}/mcp/message/${token}${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(ping),
        });
      const missing = await post(alice.token, '');
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { field?: string }).field).toBe('sessionId');
      expect((await post(alice.token, '?sessionId=00000000-0000-0000-0000-000000000000')).status).toBe(404);
      expect((await post(bob.token, `?sessionId=${sessionId}`)).status).toBe(404);
      expect((await post(alice.token, `?sessionId=${sessionId}`)).status).toBe(202);
    } finally {
      sse.close();
    }
  });

  it('lets pages on other sites call it (CORS), as One Hub does', async () => {
    const response = await fetch(`${base}/mcp/${alice.token}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://inspector.example');
  });

  it('never writes an access token into the log, though every request line is logged', async () => {
    for (const kind of ['streamable', 'sse'] as const) await (await connectMcp(base, kind, alice.token)).close();
    const log = lines.join('\n');
    for (const path of ['/mcp/***', '/mcp/sse/***', '/mcp/message/***?sessionId=']) expect(log).toContain(path);
    for (const token of [alice.token, bob.token, 'not-a-real-access-token']) expect(log).not.toContain(token);
  });
});

describe('the MCP server switched off (MCP_ENABLE unset)', () => {
  let t: TestApp;
  let base: string;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    base = await listenOnLoopback(t);
    token = (await userWithToken(t, 'dave')).token;
  });
  afterAll(() => t?.close());

  it('answers 404 on every MCP path, even with a valid access token', async () => {
    for (const [method, path] of [
      ['POST', `/mcp/${token}`],
      ['GET', `/mcp/sse/${token}`],
      ['POST', `/mcp/message/${token}?sessionId=x`],
    ] as const) {
      const response = await fetch(`${base}${path}`, { method });
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ success: false, message: 'the MCP server is not enabled on this site' });
    }
    await expect(connectMcp(base, 'streamable', token)).rejects.toMatchObject({ code: 404 });
  });
});

describe('the MCP server at shutdown', () => {
  it('ends the open SSE connections, so closing the server does not wait on them', async () => {
    const t = await startTestApp({ env: { MCP_ENABLE: 'true' } });
    const base = await listenOnLoopback(t);
    const { token } = await userWithToken(t, 'erin');
    const sse = await openSse(base, token);
    try {
      await t.close();
      expect(t.app.server.listening).toBe(false);
    } finally {
      sse.close();
    }
  });
});
