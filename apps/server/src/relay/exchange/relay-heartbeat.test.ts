import OpenAI from 'openai';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';

// A key second lasts 5 ms here: a 30-second heartbeat timeout begins after 150 ms, pings every 20 ms.
const TIMING = { secondMs: 5, intervalMs: 20 };
const COST = 12 * 1 + 7 * 2;

describe('a key’s heartbeat while a slow model thinks', () => {
  let r: RelayTestContext;
  let apiKey: string;
  beforeAll(async () => {
    r = await startRelayTest({ heartbeat: TIMING });
    const cookie = await r.t.login('relayuser', 'password-123');
    apiKey = await r.newKey(cookie, {
      name: 'beating',
      setting: { heartbeat: { enabled: true, timeout_seconds: 30 } },
    });
  });
  afterAll(() => r?.close());
  beforeEach(() => {
    r.upstream.behaviour = { ...r.upstream.behaviour, answerDelayMs: 400, failWith: undefined };
  });

  const chat = (stream: boolean, key = apiKey) =>
    request(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'think hard' }], stream }),
    });

  it('sends the headers early and pings until a stream begins, then the stream as usual', async () => {
    const before = await storedQuota(r);
    const answer = await chat(true);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    const text = await answer.body.text();
    const beforeData = text.slice(0, text.indexOf('data:'));
    expect(beforeData).toMatch(/^(::PING\n\n)+$/);
    expect(text).toContain('Hello');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(before - (await storedQuota(r))).toBe(COST);
  });

  it('answers a whole body after blank lines that JSON parsers skip, through the openai SDK', async () => {
    const raw = await chat(false);
    const text = await raw.body.text();
    expect(text.startsWith('\n')).toBe(true);
    expect(JSON.parse(text).choices[0].message.content).toBe('Hello from the mock upstream.');
    const client = new OpenAI({ apiKey, baseURL: r.baseURL, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'think hard' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Hello from the mock upstream.');
    expect((await lastConsumeLog(r)).completion_tokens).toBe(7);
  });

  it('tells a failure after the early headers in the body, and charges nothing', async () => {
    r.upstream.behaviour = { ...r.upstream.behaviour, failWith: { status: 500, message: 'the model fell over' } };
    const before = await storedQuota(r);
    const whole = await chat(false);
    expect(whole.statusCode).toBe(200);
    expect(JSON.parse(await whole.body.text()).error.message).toContain('the model fell over');
    const stream = await chat(true);
    const events = await stream.body.text();
    expect(events).toContain('::PING');
    expect(events).toMatch(/data: \{"error":\{"message":"[^"]*the model fell over/);
    expect(await storedQuota(r)).toBe(before);
  });

  it('stays silent for a key without a heartbeat, and for an answer that comes in time', async () => {
    const plain = await chat(true, r.apiKey);
    expect((await plain.body.text()).startsWith('data:')).toBe(true);
    r.upstream.behaviour = { ...r.upstream.behaviour, answerDelayMs: 0 };
    const quick = await chat(true);
    expect((await quick.body.text()).startsWith('data:')).toBe(true);
  });
});
