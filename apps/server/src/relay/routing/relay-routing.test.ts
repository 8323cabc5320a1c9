import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD } from '../../../test/app.js';
import { type MockUpstream, startMockUpstream } from '../../../test/mocks/openai-upstream.js';
import { type RelayTestContext, startRelayTest, storedQuota } from '../../../test/relay-setup.js';
import type { Notification } from '../../platform/notify.js';

const ask = (r: RelayTestContext) =>
  r.client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });

async function channelStatus(r: RelayTestContext, id: number): Promise<number> {
  const response = await r.admin('GET', `/api/channel/${id}`);
  return (response.body.data as { status: number }).status;
}

describe('retries, cooldown and auto-disable', () => {
  let r: RelayTestContext;
  let backup: MockUpstream;
  let backupId: number;
  const firstId = 1;

  beforeAll(async () => {
    r = await startRelayTest();
    backup = await startMockUpstream({ reply: 'from the backup' });
    // Lower priority: only used when the first channel fails or is excluded.
    backupId = await r.addChannel({ name: 'backup', base_url: backup.url, priority: 0 });
  });
  afterAll(async () => {
    await r?.close();
    await backup?.close();
  });
  afterEach(async () => {
    r.upstream.behaviour.failWith = undefined;
    for (const option of ['RetryTimes', 'AutomaticDisableChannelEnabled'] as const) {
      await r.t.services.options.update(option, option === 'RetryTimes' ? '0' : 'false');
    }
  });

  it('uses the highest priority channel while it works', async () => {
    const completion = await ask(r);
    expect(completion.choices[0]?.message.content).toBe('Hello from the mock upstream.');
  });

  it('answers the upstream failure when retries are off, and refunds the reservation', async () => {
    r.upstream.behaviour.failWith = { status: 500, message: 'upstream exploded' };
    const before = await storedQuota(r);
    await expect(ask(r)).rejects.toMatchObject({ status: 502 });
    expect(await storedQuota(r)).toBe(before);
  });

  it('never hands the caller the channel key an upstream quotes in its error', async () => {
    const key = r.upstream.behaviour.apiKey;
    r.upstream.behaviour.failWith = { status: 500, message: `key ${key} is suspended`, type: 'server_error' };
    const answer = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await answer.text();
    expect(answer.status).toBe(502);
    expect(text).toContain('is suspended');
    expect(text).not.toContain(key);
  });

  it('retries a 5xx on the next channel within RetryTimes', async () => {
    await r.t.services.options.update('RetryTimes', '1');
    r.upstream.behaviour.failWith = { status: 500, message: 'upstream exploded' };
    const completion = await ask(r);
    expect(completion.choices[0]?.message.content).toBe('from the backup');
  });

  it('does not retry a client error (400) on another channel', async () => {
    await r.t.services.options.update('RetryTimes', '1');
    r.upstream.behaviour.failWith = { status: 400, message: 'messages: too long', type: 'invalid_request_error' };
    const calls = backup.received.length;
    await expect(ask(r)).rejects.toMatchObject({ status: 400 });
    expect(backup.received.length).toBe(calls);
  });

  it('cools a channel down after a 429 so the next request goes elsewhere', async () => {
    await r.t.services.options.update('RetryTimes', '1');
    r.upstream.behaviour.failWith = { status: 429, message: 'Rate limit reached' };
    expect((await ask(r)).choices[0]?.message.content).toBe('from the backup');
    r.upstream.behaviour.failWith = undefined;
    const calls = r.upstream.received.length;
    expect((await ask(r)).choices[0]?.message.content).toBe('from the backup');
    expect(r.upstream.received.length).toBe(calls);
  });

  it('disables a channel whose key the upstream rejects, when auto-disable is on', async () => {
    await r.t.services.options.update('AutomaticDisableChannelEnabled', 'true');
    await r.t.services.options.update('RetryTimes', '1');
    const notices: Notification[] = [];
    r.t.services.notifier = { names: ['capture'], notify: async (notice) => void notices.push(notice) };
    const id = await r.addChannel({ name: 'bad key', key: 'sk-wrong', priority: 10 });
    expect((await ask(r)).choices[0]?.message.content).toBeTruthy();
    await expect.poll(() => channelStatus(r, id)).toBe(3);
    // The operator hears of it, with the channel and the upstream's reason; never the key.
    await expect.poll(() => notices.length).toBe(1);
    expect(notices[0]?.title).toBe(`Channel disabled: bad key (#${id})`);
    expect(notices[0]?.markdown).toContain('Incorrect API key');
    expect(JSON.stringify(notices)).not.toContain('sk-wrong');
    expect(await channelStatus(r, firstId)).toBe(1);
    expect(await channelStatus(r, backupId)).toBe(1);
  });

  it('lets an admin pin a channel with sk-key#id, which is never retried elsewhere', async () => {
    await r.admin('POST', '/api/user/quota/1', { quota: 1_000_000 });
    const rootKey = await r.newKey(await r.t.login('root', 'root-password-123'));
    const pinned = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rootKey}#${backupId}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(pinned.status, await pinned.clone().text()).toBe(200);
    expect(
      ((await pinned.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content,
    ).toBe('from the backup');
    const notAdmin = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}#${backupId}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(notAdmin.status).toBe(403);
  });

  it('never turns a channel an administrator disabled meanwhile into an automatically disabled one', async () => {
    await r.t.services.options.update('AutomaticDisableChannelEnabled', 'true');
    await r.t.services.options.update('RetryTimes', '1');
    const channels = r.t.services.channels;
    const setStatus = channels.setStatus;
    // The disable runs after the answer: keep hold of it to know when it is done.
    let disabling: Promise<boolean> | undefined;
    channels.setStatus = (...args) => {
      disabling = setStatus.apply(channels, args);
      return disabling;
    };
    try {
      const id = await r.addChannel({ name: 'switched off', key: 'sk-refused', priority: 20 });
      // The administrator's switch lands in the database while the routers still hold the channel
      // (a request in flight, or a node that has not reloaded yet).
      await r.t.database.db.updateTable('channels').set({ status: 2 }).where('id', '=', id).execute();
      expect((await ask(r)).choices[0]?.message.content).toBeTruthy();
      await expect.poll(() => disabling).toBeDefined();
      await disabling;
      // Status 3 would let the channel test loop enable it again against the administrator's will.
      expect(await channelStatus(r, id)).toBe(2);
      await r.admin('PUT', '/api/channel/', { id, status: 2 });
    } finally {
      channels.setStatus = setStatus;
    }
  });
});

/** The retry window (`RetryTimeOut`) and an administrator's `sk-key#!<id>`, each on a fresh pair of channels. */
describe('the retry window and skipped channels', () => {
  let r: RelayTestContext;
  let backup: MockUpstream;
  const firstId = 1;

  beforeAll(async () => {
    r = await startRelayTest();
    backup = await startMockUpstream({ reply: 'from the backup' });
    await r.addChannel({ name: 'backup', base_url: backup.url, priority: 0 });
  });
  afterAll(async () => {
    await r?.close();
    await backup?.close();
  });
  afterEach(async () => {
    r.upstream.behaviour.failWith = undefined;
    r.upstream.behaviour.answerDelayMs = 0;
    backup.behaviour.failWith = undefined;
    await r.t.services.options.update('RetryTimeOut', '10');
  });

  it('retries a failure on another channel within RetryTimeOut, and not once the request is older', async () => {
    await r.t.services.options.update('RetryTimes', '1');
    // The first channel fails after 20 ms, so the request is always older than a 0 s window by then.
    r.upstream.behaviour.failWith = { status: 500, message: 'upstream exploded' };
    r.upstream.behaviour.answerDelayMs = 20;
    expect((await ask(r)).choices[0]?.message.content).toBe('from the backup');

    await r.t.services.options.update('RetryTimeOut', '0');
    const [firstCalls, backupCalls] = [r.upstream.received.length, backup.received.length];
    await expect(ask(r)).rejects.toMatchObject({
      status: 502,
      error: { message: expect.stringContaining('exploded') },
    });
    expect(r.upstream.received.length).toBe(firstCalls + 1);
    expect(backup.received.length).toBe(backupCalls);
  });

  it('never sends a request with sk-key#!<id> to that channel, not even on a retry', async () => {
    await r.admin('POST', '/api/user/quota/1', { quota: 1_000_000 });
    const rootKey = await r.newKey(await r.t.login('root', ROOT_PASSWORD));
    await r.t.services.options.update('RetryTimes', '2');
    const skipping = (key: string) =>
      fetch(`${r.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}#!${firstId}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      });
    const firstCalls = r.upstream.received.length;
    for (let sent = 0; sent < 3; sent++) {
      const answer = await skipping(rootKey);
      expect(answer.status, await answer.clone().text()).toBe(200);
      const body = (await answer.json()) as { choices: Array<{ message: { content: string } }> };
      expect(body.choices[0]?.message.content).toBe('from the backup');
    }
    // The only other channel fails: the retry has nowhere to go but the skipped one, and does not go there.
    backup.behaviour.failWith = { status: 500, message: 'backup exploded' };
    const failed = await skipping(rootKey);
    expect(failed.status).toBe(502);
    expect(await failed.text()).toContain('backup exploded');
    expect(r.upstream.received.length).toBe(firstCalls);
    // Without the directive the first channel serves again; a user who is not an admin may not skip.
    backup.behaviour.failWith = undefined;
    expect((await ask(r)).choices[0]?.message.content).toBe('Hello from the mock upstream.');
    expect((await skipping(r.apiKey)).status).toBe(403);
  });
});

describe('a client that disconnects mid-stream', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayTest();
  });
  afterAll(() => r?.close());

  it('stops the upstream and bills only what was produced', async () => {
    r.upstream.behaviour = { ...r.upstream.behaviour, reply: 'word '.repeat(400), chunks: 100, chunkDelayMs: 20 };
    const before = await storedQuota(r);
    const controller = new AbortController();
    const stream = await r.client.chat.completions.create(
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'long answer please' }], stream: true },
      { signal: controller.signal },
    );
    let received = 0;
    try {
      for await (const _chunk of stream) {
        received++;
        if (received === 3) controller.abort();
      }
    } catch {
      // The SDK may end the iteration or throw on abort; either way the client is gone.
    }
    expect(received).toBeLessThan(10);
    await expect.poll(() => r.upstream.abortedStreams).toBe(1);
    await expect
      .poll(async () => {
        await r.t.app.relay.flush();
        return (await r.t.database.db.selectFrom('logs').select('id').where('type', '=', 2).execute()).length;
      })
      .toBe(1);
    const log = await r.t.database.db.selectFrom('logs').selectAll().where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBeLessThan(400);
    expect(JSON.parse(log.metadata)).toMatchObject({ client_disconnected: true });
    expect(await storedQuota(r)).toBe(before - Number(log.quota));
  });
});
