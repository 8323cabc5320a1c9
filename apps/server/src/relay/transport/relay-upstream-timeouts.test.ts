import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedLoopbackPort, type HungUpstream, startHungUpstream } from '../../../test/mocks/hung-upstream.js';
import { lastConsumeLog, type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';

/**
 * Upstreams that hang or cannot be reached. The timeouts are shortened for the test; what is
 * checked is the outcome (which channel answered, what the client read), never how long it took.
 */

const TIMEOUTS = {
  UPSTREAM_CONNECT_TIMEOUT_MS: '2000',
  UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '1000',
  UPSTREAM_ANSWER_TIMEOUT_MS: '1000',
  UPSTREAM_IDLE_TIMEOUT_MS: '1000',
};

function post(r: RelayTestContext, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${r.baseURL}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const chat = (model: string, stream = false) => ({ model, stream, messages: [{ role: 'user', content: 'hi' }] });

describe('upstream timeouts and unreachable upstreams', () => {
  let r: RelayTestContext;
  let hung: HungUpstream;
  let stalling: HungUpstream;
  let closedPort: number;
  let hungId: number;
  let refusedId: number;

  beforeAll(async () => {
    r = await startRelayTest({ env: TIMEOUTS });
    hung = await startHungUpstream('silent');
    stalling = await startHungUpstream('stall');
    closedPort = await closedLoopbackPort();
    // Above the working channel (priority 5): tried first for gpt-4o-mini; alone for hung-model.
    hungId = await r.addChannel({ name: 'hung', base_url: hung.url, priority: 10, models: 'gpt-4o-mini,hung-model' });
    await r.addChannel({ name: 'stalling', base_url: stalling.url, models: 'stall-model' });
    refusedId = await r.addChannel({
      name: 'refused',
      base_url: `http://127.0.0.1:${closedPort}`,
      models: 'refused-model',
    });
    await r.addChannel({ name: 'nowhere', base_url: 'http://internal-llm.corp.invalid', models: 'nowhere-model' });
    for (const model of ['hung-model', 'stall-model', 'refused-model', 'nowhere-model']) await r.setPrice(model, 1, 2);
    await r.t.services.options.update('RetryCooldownSeconds', '0');
  });
  afterAll(async () => {
    await r?.close();
    await hung?.close();
    await stalling?.close();
  });
  afterEach(async () => {
    await r.t.services.options.update('RetryTimes', '0');
    await r.t.services.options.update('RetryCooldownSeconds', '0');
    await r.t.services.options.update('RetryTimeOut', '10');
  });

  it('retries a whole answer that never comes on the next channel', async () => {
    await r.t.services.options.update('RetryTimes', '1');
    const before = hung.received.length;
    const completion = await r.client.chat.completions.create(chat('gpt-4o-mini') as never);
    expect(completion.choices[0]?.message.content).toBe('Hello from the mock upstream.');
    expect(hung.received.length).toBe(before + 1);
  });

  it('retries a channel that timed out even once RetryTimeOut has passed: the time was that channel’s', async () => {
    await r.t.services.options.update('RetryTimes', '1');
    await r.t.services.options.update('RetryTimeOut', '0');
    const before = hung.received.length;
    const completion = await r.client.chat.completions.create(chat('gpt-4o-mini') as never);
    expect(completion.choices[0]?.message.content).toBe('Hello from the mock upstream.');
    expect(hung.received.length).toBe(before + 1);
  });

  it('retries a stream whose upstream never answers on the next channel', async () => {
    await r.t.services.options.update('RetryTimes', '1');
    const before = hung.received.length;
    const answer = await post(r, '/chat/completions', chat('gpt-4o-mini', true));
    const text = await answer.text();
    expect(answer.status).toBe(200);
    expect(text).toContain('data: [DONE]');
    expect(text).not.toContain('"error"');
    expect(hung.received.length).toBe(before + 1);
  });

  it('answers 504 in the surface format when the only channel never answers', async () => {
    const answer = await post(r, '/chat/completions', chat('hung-model'));
    const body = (await answer.json()) as { error: { message: string; code: string } };
    expect(answer.status).toBe(504);
    expect(body.error.code).toBe('upstream_timeout');
    expect(body.error.message).toContain(`request id: ${answer.headers.get('x-request-id')}`);
    expect(JSON.stringify(body)).not.toContain(hung.url.replace('http://', ''));

    const claude = await post(
      r,
      '/messages',
      { model: 'hung-model', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(claude.status).toBe(504);
    expect(await claude.json()).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('timed out') },
    });
  });

  it('rests a channel that timed out, so the next request goes elsewhere at once', async () => {
    await r.t.services.options.update('RetryTimes', '1');
    await r.t.services.options.update('RetryCooldownSeconds', '60');
    await r.client.chat.completions.create(chat('gpt-4o-mini') as never);
    const calls = hung.received.length;
    const completion = await r.client.chat.completions.create(chat('gpt-4o-mini') as never);
    expect(completion.choices[0]?.message.content).toBe('Hello from the mock upstream.');
    expect(hung.received.length).toBe(calls);
    // A timeout rests the channel; it does not disable it.
    const channel = await r.admin('GET', `/api/channel/${hungId}`);
    expect((channel.body.data as { status: number }).status).toBe(1);
  });

  it('ends a stream that goes quiet mid-way, and bills what got through', async () => {
    const answer = await post(r, '/chat/completions', chat('stall-model', true));
    const text = await answer.text();
    expect(answer.status).toBe(200);
    expect(text).toContain('The first words');
    expect(text).toContain('idle timeout');
    const row = await lastConsumeLog(r);
    expect(row.model_name).toBe('stall-model');
    expect(Number(row.completion_tokens)).toBeGreaterThan(0);
    expect(Number(row.quota)).toBeGreaterThan(0);
  });

  it("never shows the caller a channel's address it could not reach; the admin's channel test does", async () => {
    for (const model of ['refused-model', 'nowhere-model']) {
      const answer = await post(r, '/chat/completions', chat(model));
      const text = await answer.text();
      // 504 if this machine's resolver hangs on the unresolvable name instead of refusing it.
      expect(model === 'refused-model' ? [502] : [502, 504], text).toContain(answer.status);
      expect(text).toMatch(/upstream (unavailable|timed out)/);
      expect(text).toContain(`request id: ${answer.headers.get('x-request-id')}`);
      for (const secret of [
        '127.0.0.1',
        String(closedPort),
        'internal-llm',
        'corp.invalid',
        'ECONNREFUSED',
        'ENOTFOUND',
      ]) {
        expect(text, model).not.toContain(secret);
      }
    }
    const test = await r.admin('GET', `/api/channel/test/${refusedId}?model=refused-model`);
    expect(test.body.success).toBe(false);
    expect(test.body.message).toContain(`127.0.0.1:${closedPort}`);
  });
});
