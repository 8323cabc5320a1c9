import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import { createMemoryCache } from '../../platform/cache/index.js';

/**
 * ChatCacheEnabled through the OpenAI SDK: a user's repeated non-streamed chat is answered from
 * the cache without an upstream call and billed at ChatCacheRatio of the original; other requests,
 * other users, streams and keys that opt out always reach the upstream.
 */
describe('the chat cache', () => {
  let r: RelayTestContext;
  const messages = [{ role: 'user' as const, content: 'What is the capital of France?' }];

  const setOption = async (key: string, value: string) => {
    expect((await r.admin('PUT', '/api/option/', { key, value })).status).toBe(200);
  };
  const calls = () => r.upstream.received.filter((request) => request.path.endsWith('/chat/completions')).length;
  const ask = (client: OpenAI = r.client, content = messages) =>
    client.chat.completions.create({ model: 'gpt-4o-mini', messages: content, temperature: 0 });

  beforeAll(async () => {
    r = await startRelayTest();
  }, 60_000);
  afterAll(async () => {
    await r?.close();
  });

  it('calls the upstream every time while it is off', async () => {
    await ask();
    await ask();
    expect(calls()).toBe(2);
  });

  it('answers a repeat from the cache at the cache ratio, and a changed request from the upstream', async () => {
    await setOption('ChatCacheEnabled', 'true');
    await setOption('ChatCacheRatio', '0.5');
    r.upstream.received.length = 0;
    const first = await ask();
    const original = await lastConsumeLog(r);
    const repeat = await ask();
    expect(calls()).toBe(1);
    expect(repeat).toEqual(first);
    const cached = await lastConsumeLog(r);
    expect(cached.id).not.toBe(original.id);
    expect(JSON.parse(cached.metadata)).toMatchObject({ cache_hit: true });
    expect(JSON.parse(original.metadata).cache_hit).toBeUndefined();
    expect(cached.quota).toBe(Math.round(original.quota * 0.5));
    expect(cached.channel_id).toBe(0);
    expect([cached.prompt_tokens, cached.completion_tokens]).toEqual([
      original.prompt_tokens,
      original.completion_tokens,
    ]);

    await ask(r.client, [{ role: 'user', content: 'What is the capital of Italy?' }]);
    expect(calls()).toBe(2);
    // A stream is never cached nor answered from the cache.
    const stream = await r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages,
      temperature: 0,
      stream: true,
    });
    for await (const _chunk of stream) {
      // drained
    }
    expect(calls()).toBe(3);
  });

  it("never serves one user another's answer, and skips keys whose chat_cache is off", async () => {
    const { cookie } = await r.t.createUser('cacheother');
    const other = new OpenAI({ apiKey: await r.newKey(cookie), baseURL: r.baseURL, maxRetries: 0 });
    await r.admin('POST', `/api/user/quota/${(await r.t.services.userRepository.findByUsername('cacheother'))?.id}`, {
      quota: 1_000_000,
    });
    r.upstream.received.length = 0;
    await ask(other);
    expect(calls()).toBe(1);

    const ownerCookie = await r.t.login('relayuser', 'password-123');
    const optedOut = new OpenAI({
      apiKey: await r.newKey(ownerCookie, { name: 'no cache', setting: { chat_cache: false } }),
      baseURL: r.baseURL,
      maxRetries: 0,
    });
    await ask(optedOut);
    await ask(optedOut);
    expect(calls()).toBe(3);
    // The owner's default key still gets the cached answer.
    await ask();
    expect(calls()).toBe(3);
  });
});

/**
 * ChatCacheExpireMinute: an answer is served from the cache until that many minutes after it was
 * stored, then the same request goes upstream again. The shared cache runs on a clock the test moves.
 */
describe('the chat cache’s lifetime', () => {
  let r: RelayTestContext;
  let now = Date.now();
  const calls = () => r.upstream.received.filter((request) => request.path.endsWith('/chat/completions')).length;
  const ask = () =>
    r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'How old is Rome?' }],
    });

  beforeAll(async () => {
    r = await startRelayTest({ cache: createMemoryCache(() => now) });
    for (const [key, value] of [
      ['ChatCacheEnabled', 'true'],
      ['ChatCacheExpireMinute', '2'],
    ]) {
      expect((await r.admin('PUT', '/api/option/', { key, value })).status).toBe(200);
    }
  }, 60_000);
  afterAll(async () => {
    await r?.close();
  });

  it('answers a repeat from the cache within ChatCacheExpireMinute and from the upstream after it', async () => {
    const first = await ask();
    expect(calls()).toBe(1);
    now += 2 * 60_000 - 1_000;
    expect(await ask()).toEqual(first);
    expect(calls()).toBe(1);
    now += 2_000;
    await ask();
    expect(calls()).toBe(2);
    // That answer is stored afresh, for another two minutes.
    now += 60_000;
    await ask();
    expect(calls()).toBe(2);
  });
});
