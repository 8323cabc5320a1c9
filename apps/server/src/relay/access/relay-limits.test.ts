import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] };

describe("a key's own limits on the relay", () => {
  let r: RelayTestContext;
  let cookie: string;

  beforeAll(async () => {
    r = await startRelayTest();
    cookie = await r.t.login('relayuser', 'password-123');
  });
  afterAll(() => r?.close());

  const post = (key: string, body: object) =>
    fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('refuses a request beyond the key’s concurrency with 429 and Retry-After, and frees the slot after', async () => {
    const key = await r.newKey(cookie, { setting: { limits: { concurrency: 1 } } });
    r.upstream.behaviour.chunks = 4;
    r.upstream.behaviour.chunkDelayMs = 150;
    const streaming = await post(key, { ...chat, stream: true });
    expect(streaming.status).toBe(200);
    const refused = await post(key, chat);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('1 requests at a time');
    await streaming.text();
    await expect.poll(async () => (await post(key, chat)).status).toBe(200);
  });

  it('refuses a request beyond the key’s requests per minute', async () => {
    const key = await r.newKey(cookie, { setting: { limits: { rpm: 2 } } });
    r.upstream.behaviour.chunkDelayMs = 0;
    expect((await post(key, chat)).status).toBe(200);
    expect((await post(key, chat)).status).toBe(200);
    const refused = await post(key, chat);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
