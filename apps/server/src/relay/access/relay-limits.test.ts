import OpenAI, { RateLimitError } from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] };

describe("a key's own limits on the relay", () => {
  let r: RelayTestContext;
  let cookie: string;

  beforeAll(async () => {
    r = await startRelayTest();
    cookie = await r.t.login('relayuser', 'password-123');
  });
  afterEach(() => {
    vi.useRealTimers();
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
    // Below 60 a window per clock minute: held still, no minute turns between the requests.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    expect((await post(key, chat)).status).toBe(200);
    expect((await post(key, chat)).status).toBe(200);
    const refused = await post(key, chat);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

/**
 * A user group's `api_rate` (requests per minute per user, reference §2.2) through the OpenAI SDK.
 * Below 60 it is a window per clock minute, so the clock is held still while the requests go:
 * a minute turning mid-test would open a new window.
 */
describe("a user group's requests per minute on the relay", () => {
  const RPM = 3;
  let r: RelayTestContext;
  let teamClient: OpenAI;
  const ask = (client: OpenAI) =>
    client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });

  beforeAll(async () => {
    r = await startRelayTest();
    const groups = (await r.admin('GET', '/api/user_group/?size=100')).body.data as { data: Array<{ symbol: string }> };
    const defaultGroup = groups.data.find((group) => group.symbol === 'default');
    expect((await r.admin('PUT', '/api/user_group/', { ...defaultGroup, api_rate: RPM })).status).toBe(200);
    const team = { symbol: 'team', name: 'Team', ratio: 1, api_rate: 600, public: false };
    expect((await r.admin('POST', '/api/user_group/', team)).status).toBe(200);
    await r.addChannel({ name: 'team channel', group: 'team' });
    const { id, cookie } = await r.t.createUser('teammate');
    expect((await r.admin('PUT', '/api/user/', { id, group: 'team' })).status).toBe(200);
    await r.admin('POST', `/api/user/quota/${id}`, { quota: 1_000_000 });
    teamClient = new OpenAI({ apiKey: await r.newKey(cookie), baseURL: r.baseURL, maxRetries: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(() => r?.close());

  it('answers the request past the limit with 429 in OpenAI’s error shape; another group keeps its own limit', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    for (let sent = 0; sent < RPM; sent++) expect((await ask(r.client)).choices[0]?.message.content).toBeTruthy();
    const calls = r.upstream.received.length;
    const refused = await ask(r.client).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitError);
    const error = refused as RateLimitError;
    expect(error.status).toBe(429);
    expect(error.error).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      message: expect.stringContaining(`rate limit of ${RPM} requests per minute reached`),
    });
    expect(Number(error.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.upstream.received.length).toBe(calls);

    // The same minute, a user of a group allowing 600 a minute is not held to 3.
    for (let sent = 0; sent <= RPM; sent++) expect((await ask(teamClient)).choices[0]?.message.content).toBeTruthy();

    // The next minute opens a new window.
    vi.setSystemTime(Date.now() + 60_000);
    expect((await ask(r.client)).choices[0]?.message.content).toBeTruthy();
  });
});
