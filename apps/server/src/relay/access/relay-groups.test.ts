import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from '../../../test/mocks/openai-upstream.js';
import { lastConsumeLog, type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';

// gpt-4o-mini is priced 1 / 2 and the mock reports 12 prompt + 7 completion tokens; the cheap group
// bills half of that.
const COST = 12 * 1 + 7 * 2;

describe('the group a request is routed and billed in', () => {
  let r: RelayTestContext;
  let cheap: MockUpstream;
  let cookie: string;
  const clientFor = (apiKey: string) => new OpenAI({ apiKey, baseURL: r.baseURL, maxRetries: 0 });
  const ask = (client: OpenAI, model = 'gpt-4o-mini') =>
    client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

  beforeAll(async () => {
    r = await startRelayTest();
    cheap = await startMockUpstream({ reply: 'from the cheap group' });
    const group = await r.admin('POST', '/api/user_group/', {
      symbol: 'cheap',
      name: 'Cheap',
      ratio: 0.5,
      api_rate: 0,
      public: true,
    });
    expect(group.status).toBe(200);
    // The cheap group alone serves gpt-4o (priced like gpt-4o-mini here).
    await r.addChannel({ name: 'cheap', base_url: cheap.url, models: 'gpt-4o-mini,gpt-4o', group: 'cheap' });
    await r.setPrice('gpt-4o', 1, 2);
    cookie = await r.t.login('relayuser', 'password-123');
  });
  afterAll(async () => {
    await r?.close();
    await cheap?.close();
  });

  it('uses the owner’s group for a key without groups', async () => {
    const before = await storedQuota(r);
    const answer = await ask(clientFor(await r.newKey(cookie, { name: 'plain' })));
    expect(answer.choices[0]?.message.content).toBe('Hello from the mock upstream.');
    expect(before - (await storedQuota(r))).toBe(COST);
    expect(JSON.parse((await lastConsumeLog(r)).metadata)).toMatchObject({ group_name: 'default', group_ratio: 1 });
  });

  it('uses the key’s backup group when the key names no group of its own, at that group’s ratio', async () => {
    const client = clientFor(await r.newKey(cookie, { name: 'backup only', group: '', backup_group: 'cheap' }));
    const before = await storedQuota(r);
    expect((await ask(client)).choices[0]?.message.content).toBe('from the cheap group');
    expect(before - (await storedQuota(r))).toBe(COST / 2);
    const metadata = JSON.parse((await lastConsumeLog(r)).metadata);
    expect(metadata).toMatchObject({ group_name: 'cheap', group_ratio: 0.5 });
    expect(metadata.is_backup_group).toBeUndefined();
    // The model list is that group's.
    const models = (await client.models.list()).data.map((model) => model.id);
    expect(models).toContain('gpt-4o');
  });

  it('falls back to the backup group for a model the key’s group does not serve, and marks the log', async () => {
    const client = clientFor(
      await r.newKey(cookie, { name: 'with fallback', group: 'default', backup_group: 'cheap' }),
    );
    expect((await ask(client)).choices[0]?.message.content).toBe('Hello from the mock upstream.');
    const before = await storedQuota(r);
    expect((await ask(client, 'gpt-4o')).choices[0]?.message.content).toBe('from the cheap group');
    expect(before - (await storedQuota(r))).toBe(COST / 2);
    expect(JSON.parse((await lastConsumeLog(r)).metadata)).toMatchObject({
      group_name: 'cheap',
      group_ratio: 0.5,
      is_backup_group: true,
      backup_group_name: 'cheap',
    });
    // Without a backup group the same model is not this key's to use.
    const failure = await ask(clientFor(await r.newKey(cookie, { name: 'no fallback' })), 'gpt-4o').catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OpenAI.APIError);
  });

  it('retries a failed request in the backup group when its own group has no other channel', async () => {
    const client = clientFor(await r.newKey(cookie, { name: 'retrying', group: 'default', backup_group: 'cheap' }));
    await r.t.services.options.update('RetryTimes', '1');
    r.upstream.behaviour = { ...r.upstream.behaviour, failWith: { status: 500, message: 'overloaded' } };
    try {
      const before = await storedQuota(r);
      expect((await ask(client)).choices[0]?.message.content).toBe('from the cheap group');
      expect(before - (await storedQuota(r))).toBe(COST / 2);
      expect(JSON.parse((await lastConsumeLog(r)).metadata)).toMatchObject({
        group_name: 'cheap',
        group_ratio: 0.5,
        is_backup_group: true,
      });
    } finally {
      r.upstream.behaviour = { ...r.upstream.behaviour, failWith: undefined };
      await r.t.services.options.update('RetryTimes', '0');
    }
  });

  it('does not fall back to a backup group an administrator disabled', async () => {
    const client = clientFor(
      await r.newKey(cookie, { name: 'stale fallback', group: 'default', backup_group: 'cheap' }),
    );
    const groups = await r.admin('GET', '/api/user_group/');
    const cheapGroup = (groups.body.data as { data: Array<{ id: number; symbol: string }> }).data.find(
      (entry) => entry.symbol === 'cheap',
    );
    expect((await r.admin('PUT', `/api/user_group/enable/${cheapGroup?.id}`, { enable: false })).status).toBe(200);
    const before = await storedQuota(r);
    const calls = cheap.received.length;
    const failure = await ask(client, 'gpt-4o').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
    expect(cheap.received.length).toBe(calls);
    expect(await storedQuota(r)).toBe(before);
  });
});
