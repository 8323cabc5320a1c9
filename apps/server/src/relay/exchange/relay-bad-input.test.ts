import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD } from '../../../test/app.js';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';

/**
 * Bad input gets a 4xx naming the problem in OpenAI's envelope, and costs nothing: no upstream
 * call, no quota, no consume log.
 */

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };

describe('bad input on the OpenAI endpoints', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayTest();
  });
  afterAll(() => r?.close());

  const consumeLogs = async () => {
    await r.t.app.relay.flush();
    const row = await r.t.database.db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('type', '=', 2)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  };

  /** Posts `body` and checks it was refused at no cost; answers the error object. */
  async function refused(path: string, body: string, contentType = 'application/json') {
    const before = { quota: await storedQuota(r), calls: r.upstream.received.length, logs: await consumeLogs() };
    const response = await fetch(`${r.baseURL}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': contentType },
      body,
    });
    const answer = (await response.json()) as { error: { message: string; type: string; param: string | null } };
    expect({ path, body, calls: r.upstream.received.length - before.calls }).toEqual({ path, body, calls: 0 });
    expect(await storedQuota(r)).toBe(before.quota);
    expect(await consumeLogs()).toBe(before.logs);
    return { status: response.status, error: answer.error };
  }

  it.each([
    ['/chat/completions', { model: 'gpt-4o-mini', messages: 'hi' }, 'messages'],
    ['/chat/completions', { model: 'gpt-4o-mini' }, 'messages'],
    ['/chat/completions', { model: 'gpt-4o-mini', messages: [] }, 'messages'],
    ['/chat/completions', { model: 'gpt-4o-mini', messages: ['hi'] }, 'messages[0]'],
    ['/chat/completions', { ...chat, n: -1 }, 'n'],
    ['/chat/completions', { ...chat, max_tokens: 'a lot' }, 'max_tokens'],
    ['/chat/completions', { ...chat, temperature: 'warm' }, 'temperature'],
    ['/chat/completions', { ...chat, tools: { name: 'x' } }, 'tools'],
    ['/chat/completions', { ...chat, stream: true, stream_options: 'usage' }, 'stream_options'],
    ['/completions', { model: 'gpt-3.5-turbo-instruct' }, 'prompt'],
    ['/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 5 }, 'prompt'],
    ['/embeddings', { model: 'text-embedding-3-small' }, 'input'],
    ['/embeddings', { model: 'text-embedding-3-small', input: { text: 'a' } }, 'input'],
    ['/moderations', { model: 'omni-moderation-latest', input: 42 }, 'input'],
    ['/chat/completions', { ...chat, model: `gpt-${'x'.repeat(300)}` }, 'model'],
  ])('refuses %s %j naming %s', async (path, body, param) => {
    const { status, error } = await refused(path, JSON.stringify(body));
    expect(status).toBe(400);
    expect(error).toMatchObject({ type: 'invalid_request_error', param });
    expect(error.message).toMatch(new RegExp(`^${param.replace(/[[\]]/g, '\\$&')}: `));
  });

  it('refuses a JSON body sent as text/plain with 415 naming the content type', async () => {
    // As application/json the same request is served, nulls in optional fields included.
    const body = JSON.stringify({ ...chat, n: null, max_tokens: null, temperature: 0.2, tools: null });
    const served = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json; charset=utf-8' },
      body,
    });
    expect(served.status).toBe(200);
    const { status, error } = await refused('/chat/completions', body, 'text/plain');
    expect(status).toBe(415);
    expect(error.message).toContain('application/json');
  });

  it('answers an unknown model with 404 model_not_found, through the SDK', async () => {
    const before = await storedQuota(r);
    const failure = await r.client.chat.completions
      .create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
    expect(failure).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect((failure as Error).message).toContain('does not exist or is not available to this API key');
    expect(await storedQuota(r)).toBe(before);
  });

  it('tells an administrator that no enabled channel serves the model, and what to do', async () => {
    const rootKey = await r.newKey(await r.t.login('root', ROOT_PASSWORD));
    const asRoot = new OpenAI({ apiKey: rootKey, baseURL: r.baseURL, maxRetries: 0 });
    const failure = await asRoot.chat.completions
      .create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
    expect(failure).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect((failure as Error).message).toContain(
      'model no-such-model is not served by any enabled channel in group default: add a channel that lists it',
    );
  });
});
