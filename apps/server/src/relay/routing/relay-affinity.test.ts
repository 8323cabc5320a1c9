import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from '../../../test/mocks/openai-upstream.js';
import { lastConsumeLog, type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';

/**
 * Cache affinity through the SDKs: two channels of equal weight serve one model; each conversation
 * stays on the channel that first answered it, moves when that channel fails, and stays where it
 * moved once the failed channel is back.
 */
const GROUP = 'sticky';
const MODEL = 'sticky-model';
const TURNS = 8;

type Turn = { role: 'user' | 'assistant'; content: string };

describe('cache affinity', () => {
  let r: RelayTestContext;
  const mocks: MockUpstream[] = [];
  let cookie: string;
  let openai: OpenAI;
  let claude: Anthropic;

  const servedBy = (reply: string) => mocks.findIndex((mock) => mock.behaviour.reply === reply);
  const mockOf = (index: number) => mocks[index] as MockUpstream;

  /** One more turn of an OpenAI conversation; the index of the mock that answered. */
  async function chatTurn(system: string, turns: Turn[], extra: Partial<OpenAI.ChatCompletionCreateParams> = {}) {
    turns.push({ role: 'user', content: `question ${turns.length}` });
    const answer = await openai.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'system', content: system }, ...turns],
      ...extra,
      stream: false,
    });
    const reply = answer.choices[0]?.message.content ?? '';
    turns.push({ role: 'assistant', content: reply });
    return servedBy(reply);
  }

  async function conversation(system: string, count: number, turns: Turn[] = []): Promise<number[]> {
    const served: number[] = [];
    for (let turn = 0; turn < count; turn++) served.push(await chatTurn(system, turns));
    return served;
  }

  beforeAll(async () => {
    r = await startRelayTest();
    for (const name of ['one', 'two']) mocks.push(await startMockUpstream({ reply: `from channel ${name}` }));
    expect((await r.admin('POST', '/api/user_group/', { symbol: GROUP, name: GROUP })).status).toBe(200);
    for (const [index, mock] of mocks.entries()) {
      await r.addChannel({ name: `sticky ${index}`, base_url: mock.url, models: MODEL, group: GROUP, weight: 1 });
    }
    await r.setPrice(MODEL, 1, 1);
    const user = await r.t.createUser('stickyuser');
    cookie = user.cookie;
    await r.admin('POST', `/api/user/quota/${user.id}`, { quota: 10_000_000 });
    expect((await r.admin('PUT', '/api/user/', { id: user.id, group: GROUP })).status).toBe(200);
    const key = await r.newKey(cookie);
    openai = new OpenAI({ apiKey: key, baseURL: r.baseURL, maxRetries: 0 });
    claude = new Anthropic({ apiKey: key, baseURL: r.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
  });
  afterAll(async () => {
    await r?.close();
    for (const mock of mocks) await mock.close();
  });
  afterEach(() => {
    for (const mock of mocks) mock.behaviour.failWith = undefined;
  });

  it('keeps each conversation on one channel, by its system prompt and first message', async () => {
    const first = await conversation('You are assistant A.', TURNS);
    const second = await conversation('You are assistant B.', TURNS);
    expect(new Set(first).size).toBe(1);
    expect(new Set(second).size).toBe(1);
    expect(first[0]).toBeGreaterThanOrEqual(0);
  });

  it('moves a conversation when its channel fails, and keeps it there once the channel is back', async () => {
    const turns: Turn[] = [];
    const [pinned = -1] = await conversation('You are assistant C.', 2, turns);
    mockOf(pinned).behaviour.failWith = { status: 500, message: 'upstream exploded' };
    const moved = await chatTurn('You are assistant C.', turns);
    expect(moved).toBe(1 - pinned);
    mockOf(pinned).behaviour.failWith = undefined;
    const calls = mockOf(pinned).received.length;
    expect(new Set(await conversation('You are assistant C.', TURNS, turns))).toEqual(new Set([1 - pinned]));
    expect(mockOf(pinned).received.length).toBe(calls);
  });

  it('follows the client’s hint: prompt_cache_key, the X-Session-Id header', async () => {
    const served = new Set<number>();
    for (let turn = 0; turn < TURNS; turn++) {
      // A different system prompt each time: only the hint names the conversation.
      served.add(await chatTurn(`prompt ${turn}`, [], { prompt_cache_key: 'conversation-42' }));
    }
    expect(served.size).toBe(1);
    const byHeader = new Set<string>();
    for (let turn = 0; turn < TURNS; turn++) {
      const answer = await openai.chat.completions.create(
        { model: MODEL, messages: [{ role: 'user', content: `header ${turn}` }] },
        { headers: { 'X-Session-Id': 'session-7' } },
      );
      byHeader.add(answer.choices[0]?.message.content ?? '');
    }
    expect(byHeader.size).toBe(1);
  });

  it('pins an Anthropic client by metadata.user_id, and re-pins it after a failure', async () => {
    const ask = async (content: string) => {
      const message = await claude.messages.create({
        model: MODEL,
        max_tokens: 16,
        metadata: { user_id: 'claude-user-1' },
        messages: [{ role: 'user', content }],
      });
      const block = message.content[0];
      return servedBy(block?.type === 'text' ? block.text : '');
    };
    const served = new Set<number>();
    for (let turn = 0; turn < TURNS; turn++) served.add(await ask(`turn ${turn}`));
    expect(served.size).toBe(1);
    const [pinned = -1] = served;
    mockOf(pinned).behaviour.failWith = { status: 500, message: 'upstream exploded' };
    expect(await ask('after the failure')).toBe(1 - pinned);
    mockOf(pinned).behaviour.failWith = undefined;
    const after = new Set<number>();
    for (let turn = 0; turn < TURNS; turn++) after.add(await ask(`back ${turn}`));
    expect(after).toEqual(new Set([1 - pinned]));
  });

  it('spreads requests again when the group turns affinity off', async () => {
    const group = await r.admin('GET', '/api/user_group/?name=sticky');
    const id = (group.body.data as { data: Array<{ id: number }> }).data[0]?.id;
    const updated = await r.admin('PUT', '/api/user_group/', {
      id,
      name: GROUP,
      ratio: 1,
      api_rate: 600,
      cache_affinity: false,
    });
    expect(updated.status).toBe(200);
    try {
      // 40 turns of one conversation on two channels of equal weight: all on one has odds of 2 in 2^40.
      expect(new Set(await conversation('You are assistant D.', 40)).size).toBe(2);
    } finally {
      await r.admin('PUT', '/api/user_group/', { id, name: GROUP, ratio: 1, api_rate: 600, cache_affinity: true });
    }
  });

  it('logs the cached prompt tokens the upstream reports, per channel', async () => {
    for (const mock of mocks)
      mock.behaviour.usage = { prompt_tokens: 40, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 32 } };
    try {
      await conversation('You are assistant E.', 1);
      const row = await lastConsumeLog(r);
      expect(JSON.parse(row.metadata)).toMatchObject({ cached_tokens: 32 });
      expect(row.channel_id).toBeGreaterThan(1);
    } finally {
      for (const mock of mocks) mock.behaviour.usage = { prompt_tokens: 12, completion_tokens: 7 };
    }
  });
});
