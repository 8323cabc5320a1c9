import { FALLBACK_MODEL_PRICE, LogType } from '@one-hub/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects } from '../../../test/databases.js';
import { type MockUpstream, startMockUpstream } from '../../../test/mocks/openai-upstream.js';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';

/**
 * A model no price matches is billed at the fallback price (the default) or, with
 * `UnpricedModelPolicy` = refuse, refused with a 400 before anything is reserved or sent upstream.
 */

const UNPRICED = 'house-model-7b';
const REFUSAL_TEXT = `model '${UNPRICED}' has no price on this server; an administrator must set one`;
/** Error messages end with the request id. */
const REFUSAL = expect.stringContaining(REFUSAL_TEXT);

describe.each(availableDialects)('models without a price on %s', (dialect) => {
  let r: RelayTestContext;
  let channelId: number;

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${r.baseURL.replace(/\/v1$/, '')}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const chat = (model = UNPRICED, apiKey = r.apiKey) =>
    post(
      '/v1/chat/completions',
      { model, messages: [{ role: 'user', content: 'hi' }] },
      {
        authorization: `Bearer ${apiKey}`,
      },
    );
  const setPolicy = async (value: string) => r.admin('PUT', '/api/option/', { key: 'UnpricedModelPolicy', value });
  const consumeRows = async () => {
    await r.t.app.relay.flush();
    return r.t.database.db.selectFrom('logs').selectAll().where('type', '=', LogType.consume).execute();
  };

  beforeAll(async () => {
    r = await startRelayTest({ dialect });
    // The setup's channel serves the priced models; this one also serves the unpriced model.
    channelId = await r.addChannel({ name: 'house', models: `gpt-4o-mini,${UNPRICED},wild-one`, priority: 10 });
  });
  afterAll(() => r?.close());
  afterEach(async () => {
    await setPolicy('fallback');
    await r.t.app.relay.flush();
    await r.t.database.db.deleteFrom('logs').where('type', '=', LogType.consume).execute();
  });

  it('bills an unpriced model at the fallback price by default: 30 per token each way', async () => {
    expect(r.t.services.options.get('UnpricedModelPolicy')).toBe('fallback');
    const before = await storedQuota(r);
    const answer = await chat();
    expect(answer.status).toBe(200);
    const { prompt_tokens, completion_tokens } = r.upstream.behaviour.usage;
    const expected = prompt_tokens * FALLBACK_MODEL_PRICE.input + completion_tokens * FALLBACK_MODEL_PRICE.output;
    expect(expected).toBe((12 + 7) * 30);
    const rows = await consumeRows();
    expect(rows.map((row) => [row.model_name, Number(row.quota)])).toEqual([[UNPRICED, expected]]);
    expect(before - (await storedQuota(r))).toBe(expected);
  });

  it('refuses it with refuse: 400 naming the model, no upstream call, no charge, no log row', async () => {
    expect((await setPolicy('refuse')).status).toBe(200);
    const calls = r.upstream.received.length;
    const before = await storedQuota(r);
    const answer = await chat();
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: unknown }).error).toMatchObject({
      message: REFUSAL,
      type: 'invalid_request_error',
      param: 'model',
      code: 'model_not_priced',
    });
    expect(r.upstream.received.length).toBe(calls);
    expect(await storedQuota(r)).toBe(before);
    expect(await consumeRows()).toEqual([]);
  });

  it('refuses before reserving: a user with no balance still gets the 400, not the 429', async () => {
    await setPolicy('refuse');
    const { id, cookie } = await r.t.createUser('broke');
    const key = await r.newKey(cookie);
    expect(await storedQuota(r, id)).toBe(0);
    expect((await chat(UNPRICED, key)).status).toBe(400);
    // The same user on a priced model meets the reservation, which is what the refusal comes before.
    expect((await chat('gpt-4o-mini', key)).status).toBe(429);
  });

  it('refuses on the Claude and Gemini surfaces in their own error formats', async () => {
    await setPolicy('refuse');
    const calls = r.upstream.received.length;
    const claude = await post(
      '/claude/v1/messages',
      { model: UNPRICED, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
      { 'x-api-key': r.apiKey },
    );
    expect(claude.status).toBe(400);
    expect(await claude.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: REFUSAL },
    });
    const gemini = await post(
      `/gemini/v1beta/models/${UNPRICED}:generateContent`,
      { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      { 'x-goog-api-key': r.apiKey },
    );
    expect(gemini.status).toBe(400);
    expect(await gemini.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: REFUSAL } });
    expect(r.upstream.received.length).toBe(calls);
  });

  it('still serves priced models, wildcard prices included, with refuse', async () => {
    await setPolicy('refuse');
    await r.setPrice('wild-*', 1, 1);
    expect((await chat('gpt-4o-mini')).status).toBe(200);
    expect((await chat('wild-one')).status).toBe(200);
    expect((await consumeRows()).map((row) => row.model_name).sort()).toEqual(['gpt-4o-mini', 'wild-one']);
  });

  it('does not refuse an administrator testing the channel with an unpriced model', async () => {
    await setPolicy('refuse');
    const calls = r.upstream.received.length;
    const tested = await r.admin('GET', `/api/channel/test/${channelId}?model=${UNPRICED}`);
    expect(tested.body).toMatchObject({ success: true });
    expect(r.upstream.received.length).toBe(calls + 1);
  });
});

describe('a retry channel that maps the model to an unpriced one', () => {
  let r: RelayTestContext;
  let mapped: MockUpstream;

  beforeAll(async () => {
    r = await startRelayTest();
    mapped = await startMockUpstream({ reply: 'from the mapped channel' });
    await r.addChannel({
      name: 'mapped',
      base_url: mapped.url,
      models: 'gpt-4o-mini',
      model_mapping: JSON.stringify({ 'gpt-4o-mini': UNPRICED }),
      priority: 0,
    });
  });
  afterAll(async () => {
    await r?.close();
    await mapped?.close();
  });

  it('is skipped unsent with refuse, and used (billed at the fallback) without', async () => {
    r.upstream.behaviour.failWith = { status: 500, message: 'first channel broke' };
    await r.admin('PUT', '/api/option/', { key: 'UnpricedModelPolicy', value: 'refuse' });
    const refused = await r.client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: { status: number; message: string }) => error);
    expect(refused).toMatchObject({ status: 400 });
    expect((refused as { message: string }).message).toContain(`model '${UNPRICED}' has no price`);
    expect(mapped.received).toEqual([]);

    await r.admin('PUT', '/api/option/', { key: 'UnpricedModelPolicy', value: 'fallback' });
    const served = await r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(served.choices[0]?.message.content).toBe('from the mapped channel');
    expect(mapped.received).toHaveLength(1);
  });
});
