import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from '../../../test/mocks/openai-upstream.js';
import { lastConsumeLog, type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';

/**
 * Model fallbacks through the SDKs: the requested model's only channel answers 500, the group's
 * (or the key's) fallback model is served by another channel, billed at its own price and logged
 * under its name with the requested one in the metadata.
 */
const GROUP = 'fallbackers';
const REQUESTED = 'big-model';
const SPARE = 'spare-model';
const OTHER = 'other-model';
const messages = [{ role: 'user' as const, content: 'hi' }];

describe('model fallbacks', () => {
  let r: RelayTestContext;
  let primary: MockUpstream;
  let spare: MockUpstream;
  let spareChannel: number;
  let userId: number;
  let cookie: string;
  let openai: OpenAI;
  let claude: Anthropic;

  const fail = () => {
    primary.behaviour.failWith = { status: 500, message: 'upstream exploded' };
  };
  const consumeRow = async () => {
    const row = await lastConsumeLog(r);
    return { ...row, metadata: JSON.parse(row.metadata) as Record<string, unknown> };
  };
  const clientsOf = (key: string) => {
    const origin = r.baseURL.replace(/\/v1$/, '');
    return {
      openai: new OpenAI({ apiKey: key, baseURL: r.baseURL, maxRetries: 0 }),
      claude: new Anthropic({ apiKey: key, baseURL: origin, maxRetries: 0 }),
    };
  };

  beforeAll(async () => {
    r = await startRelayTest();
    primary = await startMockUpstream({ reply: 'from the primary' });
    spare = await startMockUpstream({ reply: 'from the fallback', apiKey: 'sk-spare' });
    const group = await r.admin('POST', '/api/user_group/', {
      symbol: GROUP,
      name: GROUP,
      fallbacks: { [REQUESTED]: [SPARE] },
    });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    await r.addChannel({ name: 'primary', base_url: primary.url, models: REQUESTED, group: GROUP });
    spareChannel = await r.addChannel({
      name: 'spare',
      base_url: spare.url,
      key: 'sk-spare',
      models: `${SPARE},${OTHER}`,
      group: GROUP,
    });
    await r.setPrice(REQUESTED, 1, 2);
    await r.setPrice(SPARE, 3, 6);
    await r.setPrice(OTHER, 5, 5);
    const user = await r.t.createUser('fallbackuser');
    userId = user.id;
    cookie = user.cookie;
    await r.admin('POST', `/api/user/quota/${userId}`, { quota: 10_000_000 });
    expect((await r.admin('PUT', '/api/user/', { id: userId, group: GROUP })).status).toBe(200);
    ({ openai, claude } = clientsOf(await r.newKey(cookie)));
  });
  afterAll(async () => {
    await r?.close();
    await primary?.close();
    await spare?.close();
  });
  afterEach(() => {
    primary.behaviour.failWith = undefined;
  });

  it('serves the group’s fallback when the requested model’s channels fail, billed and logged as the fallback', async () => {
    const direct = await openai.chat.completions.create({ model: SPARE, messages });
    expect(direct.model).toBe(SPARE);
    const spareCharge = (await consumeRow()).quota;
    await openai.chat.completions.create({ model: REQUESTED, messages });
    const requestedCharge = (await consumeRow()).quota;
    expect(spareCharge).not.toBe(requestedCharge);

    fail();
    const before = await storedQuota(r, userId);
    const answer = await openai.chat.completions.create({ model: REQUESTED, messages });
    expect(answer.model).toBe(SPARE);
    expect(answer.choices[0]?.message.content).toBe('from the fallback');
    const row = await consumeRow();
    expect(row.model_name).toBe(SPARE);
    expect(row.channel_id).toBe(spareChannel);
    expect(row.metadata.requested_model).toBe(REQUESTED);
    expect(row.quota).toBe(spareCharge);
    expect(before - (await storedQuota(r, userId))).toBe(spareCharge);
  });

  it('names the fallback in every chunk of a stream', async () => {
    fail();
    const stream = await openai.chat.completions.create({ model: REQUESTED, messages, stream: true });
    const models = new Set<string>();
    let text = '';
    for await (const chunk of stream) {
      models.add(chunk.model);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect([...models]).toEqual([SPARE]);
    expect(text).toBe('from the fallback');
    expect((await consumeRow()).metadata.requested_model).toBe(REQUESTED);
  });

  it('answers an Anthropic client with the fallback’s model, whole and streamed', async () => {
    fail();
    const message = await claude.messages.create({ model: REQUESTED, max_tokens: 32, messages });
    expect(message.model).toBe(SPARE);
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'from the fallback' });
    const row = await consumeRow();
    expect([row.model_name, row.metadata.requested_model]).toEqual([SPARE, REQUESTED]);

    const stream = claude.messages.stream({ model: REQUESTED, max_tokens: 32, messages });
    const final = await stream.finalMessage();
    expect(final.model).toBe(SPARE);
  });

  it('takes the key’s list over the group’s for a model the key names', async () => {
    fail();
    const key = await r.newKey(cookie, { name: 'own fallbacks', setting: { fallbacks: { [REQUESTED]: [OTHER] } } });
    const answer = await clientsOf(key).openai.chat.completions.create({ model: REQUESTED, messages });
    expect(answer.model).toBe(OTHER);
    expect((await consumeRow()).model_name).toBe(OTHER);
  });

  it('skips a fallback the key’s model allow-list does not name', async () => {
    fail();
    const limits = { limit_model_setting: { enabled: true, models: [REQUESTED] } };
    const key = await r.newKey(cookie, { name: 'allow-listed', setting: { limits } });
    const calls = spare.received.length;
    await expect(clientsOf(key).openai.chat.completions.create({ model: REQUESTED, messages })).rejects.toMatchObject({
      status: 502,
    });
    expect(spare.received.length).toBe(calls);
  });

  it('does not fall back after a client error (400) the fallback would refuse alike', async () => {
    primary.behaviour.failWith = { status: 400, message: 'messages: too long', type: 'invalid_request_error' };
    const calls = spare.received.length;
    await expect(openai.chat.completions.create({ model: REQUESTED, messages })).rejects.toMatchObject({ status: 400 });
    expect(spare.received.length).toBe(calls);
  });

  it('refuses fallbacks with a cycle, a self-reference or too many entries, naming the field', async () => {
    const group = await r.admin('POST', '/api/user_group/', {
      symbol: 'cyclic',
      name: 'cyclic',
      fallbacks: { a: ['b'], b: ['a'] },
    });
    expect(group.status).toBe(400);
    expect(group.body.message).toContain('fallbacks');
    expect(group.body.message).toContain('cycle');
    const cases: Array<[unknown, string]> = [
      [{ a: ['a'] }, 'a cannot be its own fallback'],
      [{ a: ['b', 'c', 'd', 'e', 'f', 'g'] }, 'at most 5 fallbacks'],
      [{ a: 'b' }, 'must be a list'],
    ];
    for (const [fallbacks, message] of cases) {
      const response = await r.t.app.inject({
        method: 'POST',
        url: '/api/token/',
        headers: { cookie },
        payload: { name: 'bad fallbacks', setting: { fallbacks } },
      });
      expect(response.statusCode).toBe(400);
      const text = (response.json() as { message: string }).message;
      expect(text).toContain('fallbacks');
      expect(text).toContain(message);
    }
  });
});
