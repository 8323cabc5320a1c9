import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayWithChannel } from '../../../test/relay-setup.js';

// The server's listener names every request once (http/request-id.ts); nothing in the relay writes
// the header again. These cases cover each way the relay answers: if any of them loses the id,
// or sends it twice, its case fails.
const ID = /^\d{14}[A-Za-z0-9]{12}$/;
const TIMING = { secondMs: 5, intervalMs: 20 };

interface Named {
  status: number;
  id: string;
  text: string;
}

describe('the request id on every kind of relay answer', () => {
  let r: RelayTestContext;
  let beatingKey: string;
  beforeAll(async () => {
    r = await startRelayWithChannel({ name: 'speech', models: 'tts-1' }, { 'tts-1': [7.5, 0] }, { heartbeat: TIMING });
    const cookie = await r.t.login('relayuser', 'password-123');
    beatingKey = await r.newKey(cookie, {
      name: 'beating',
      setting: { heartbeat: { enabled: true, timeout_seconds: 30 } },
    });
  });
  afterAll(() => r?.close());
  beforeEach(() => {
    r.upstream.behaviour = { ...r.upstream.behaviour, answerDelayMs: 0, failWith: undefined };
  });

  async function post(path: string, body: unknown, key = r.apiKey): Promise<Named> {
    const answer = await request(`${r.baseURL}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await answer.body.text();
    const id = answer.headers['x-request-id'];
    expect(typeof id === 'string' && ID.test(id), `${path}: ${String(id)}`).toBe(true);
    expect(answer.headers['x-oneapi-request-id']).toBe(id);
    return { status: answer.statusCode, id: String(id), text };
  }
  const chat = (stream: boolean, key?: string) =>
    post('/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream }, key);

  it('names whole answers and streams with the id the consume log keeps', async () => {
    const whole = await chat(false);
    expect(whole.status).toBe(200);
    expect(whole.id).toBe((await lastConsumeLog(r)).request_id);
    const stream = await chat(true);
    expect(stream.text).toContain('data: [DONE]');
    expect(stream.id).toBe((await lastConsumeLog(r)).request_id);
    expect(stream.id).not.toBe(whole.id);
  });

  it('names forwarded bytes (speech)', async () => {
    const speech = await post('/audio/speech', { model: 'tts-1', voice: 'alloy', input: 'hello' });
    expect(speech.status).toBe(200);
    expect(speech.id).toBe((await lastConsumeLog(r)).request_id);
  });

  it('names the relay’s own errors and relayed upstream failures', async () => {
    const malformed = await post('/chat/completions', '{"model":');
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain(malformed.id);
    const unknownModel = await post('/chat/completions', { model: 'no-such-model', messages: [] });
    expect(unknownModel.status).toBeGreaterThanOrEqual(400);
    r.upstream.behaviour = { ...r.upstream.behaviour, failWith: { status: 500, message: 'fell over' } };
    const failed = await chat(false);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.text).toContain('fell over');
  });

  it('names answers whose headers a heartbeat sent early, whole and streamed', async () => {
    r.upstream.behaviour = { ...r.upstream.behaviour, answerDelayMs: 400 };
    const whole = await chat(false, beatingKey);
    expect(whole.text.startsWith('\n')).toBe(true);
    const stream = await chat(true, beatingKey);
    expect(stream.text.startsWith('::PING')).toBe(true);
    expect(stream.id).toBe((await lastConsumeLog(r)).request_id);
  });
});
