import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';

/** Streamed chat against upstreams that misbehave: the wrong kind of answer, no end marker, a cut. */

type Mode = 'json-error' | 'html' | 'no-done' | 'done' | 'cut';
let mode: Mode = 'done';

const chunk = (content: string) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-raw',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'raw-model',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  })}\n\n`;

const upstream = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    if (mode === 'json-error') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"the vendor refused","type":"invalid_request_error"}}');
      return;
    }
    if (mode === 'html') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body>Bad gateway</body></html>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(chunk('Hello there'));
    if (mode === 'cut') setTimeout(() => response.socket?.destroy(), 20);
    else response.end(mode === 'done' ? 'data: [DONE]\n\n' : undefined);
  });
});

describe('streams from upstreams that misbehave', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayTest();
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;
    await r.addChannel({ name: 'raw', base_url: `http://127.0.0.1:${port}`, models: 'raw-model', key: 'k' });
    await r.setPrice('raw-model', 1, 1);
  });
  afterAll(async () => {
    await r?.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const body = JSON.stringify({ model: 'raw-model', messages: [{ role: 'user', content: 'hi' }], stream: true });
  const post = () =>
    fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body,
    });

  it.each(['json-error', 'html'] as const)('answers a %s body in place of a stream with 502, free', async (kind) => {
    mode = kind;
    const before = await storedQuota(r);
    const failure = await r.client.chat.completions
      .create({ model: 'raw-model', messages: [{ role: 'user', content: 'hi' }], stream: true })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    if (kind === 'json-error') expect((failure as Error).message).toContain('the vendor refused');
    expect(await storedQuota(r)).toBe(before);
  });

  it('ends a finished stream with one data: [DONE], also when the upstream left it out', async () => {
    mode = 'no-done';
    const missing = await (await post()).text();
    expect(missing).toBe(`${chunk('Hello there')}data: [DONE]\n\n`);
    mode = 'done';
    const present = await (await post()).text();
    expect(present).toBe(`${chunk('Hello there')}data: [DONE]\n\n`);
    // A stream the upstream cut did not end: an error event, no [DONE], and what was produced is billed.
    mode = 'cut';
    const before = await storedQuota(r);
    const cut = await (await post()).text();
    expect(cut.startsWith(chunk('Hello there'))).toBe(true);
    expect(cut).toMatch(/data: \{"error":\{"message":".+","type":"upstream_error"\}\}\n\n$/);
    expect(cut).not.toContain('[DONE]');
    expect(await storedQuota(r)).toBeLessThan(before);
  });

  it('with NoChargeForEmptyAnswers, charges nothing for a stream the upstream cut after it began', async () => {
    mode = 'cut';
    await r.t.services.options.update('NoChargeForEmptyAnswers', 'true');
    try {
      const before = await storedQuota(r);
      const cut = await (await post()).text();
      expect(cut.startsWith(chunk('Hello there'))).toBe(true);
      expect(await storedQuota(r)).toBe(before);
      // A whole stream is still charged.
      mode = 'done';
      await (await post()).text();
      expect(await storedQuota(r)).toBeLessThan(before);
    } finally {
      await r.t.services.options.update('NoChargeForEmptyAnswers', 'false');
    }
  });
});
