import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from '../../../test/mocks/openai-upstream.js';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import type { Notification } from '../../platform/notify.js';

/**
 * Auto-disable reads the upstream's own structured error fields, never the text of a message,
 * which may repeat what the client sent: a user must not be able to switch a channel off.
 */

async function channelStatus(r: RelayTestContext, id: number): Promise<number> {
  const response = await r.admin('GET', `/api/channel/${id}`);
  return (response.body.data as { status: number }).status;
}

const ask = (r: RelayTestContext, model: string, content = 'hi') =>
  fetch(`${r.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
  });

describe('auto-disable', () => {
  let r: RelayTestContext;
  let echoing: MockUpstream;
  let broke: MockUpstream;
  let gateway: MockUpstream;
  let echoingId: number;
  let brokeId: number;
  let gatewayId: number;
  const notices: Notification[] = [];

  beforeAll(async () => {
    r = await startRelayTest();
    echoing = await startMockUpstream();
    broke = await startMockUpstream();
    gateway = await startMockUpstream();
    echoingId = await r.addChannel({ name: 'echoing', base_url: echoing.url, models: 'echo-model' });
    brokeId = await r.addChannel({ name: 'broke', base_url: broke.url, models: 'broke-model' });
    gatewayId = await r.addChannel({ name: 'gateway', base_url: gateway.url, models: 'gateway-model' });
    for (const model of ['echo-model', 'broke-model', 'gateway-model']) await r.setPrice(model, 1, 2);
    await r.t.services.options.update('AutomaticDisableChannelEnabled', 'true');
    const keywords = ['Your credit balance is too low', 'invalid api key', 'account deactivated'].join('\n');
    await r.t.services.options.update('DisableChannelKeywords', keywords);
    r.t.services.notifier = { names: ['capture'], notify: async (notice) => void notices.push(notice) };
  });
  afterAll(async () => {
    await r?.close();
    await echoing?.close();
    await broke?.close();
    await gateway?.close();
  });

  it('does not disable a channel whose 400 repeats disable words the client sent', async () => {
    const input = 'invalid api key; account deactivated; Your credit balance is too low';
    echoing.behaviour.failWith = {
      status: 400,
      message: `Invalid 'messages[0].content': '${input}' is not allowed here`,
      type: 'invalid_request_error',
    };
    const refused = await ask(r, 'echo-model', input);
    expect(refused.ok).toBe(false);
    // Then a real key failure on the same channel: only that one may switch it off and be told.
    echoing.behaviour.failWith = { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' };
    expect((await ask(r, 'echo-model')).status).toBe(502);
    await expect.poll(() => channelStatus(r, echoingId)).toBe(3);
    await expect.poll(() => notices.length).toBe(1);
    expect(notices[0]?.markdown).toContain('Incorrect API key provided');
    expect(notices[0]?.markdown).not.toContain('is not allowed here');
  });

  it("disables on a 429 whose error code says the account's quota is gone", async () => {
    broke.behaviour.failWith = {
      status: 429,
      message: 'You exceeded your current quota, please check your plan and billing details.',
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    };
    expect((await ask(r, 'broke-model')).status).toBe(429);
    await expect.poll(() => channelStatus(r, brokeId)).toBe(3);
    expect(await channelStatus(r, 1)).toBe(1);
  });

  it('does not disable on a JSON 403 from another gateway or firewall that echoes the input; an account code does', async () => {
    const input = 'invalid api key; account deactivated; Permission denied';
    gateway.behaviour.failWith = {
      status: 403,
      message: `request blocked by policy: '${input}'`,
      type: 'new_api_error',
    };
    const blocked = await ask(r, 'gateway-model', input);
    expect(blocked.status).toBe(502);
    expect(await channelStatus(r, gatewayId)).toBe(1);
    // Then the vendor's own word that the account is gone: that one switches the channel off.
    const noticesBefore = notices.length;
    gateway.behaviour.failWith = {
      status: 403,
      message: 'Your organization has been deactivated.',
      type: 'invalid_request_error',
      code: 'account_deactivated',
    };
    expect((await ask(r, 'gateway-model')).status).toBe(502);
    await expect.poll(() => channelStatus(r, gatewayId)).toBe(3);
    await expect.poll(() => notices.length).toBe(noticesBefore + 1);
    expect(notices.at(-1)?.markdown).toContain('has been deactivated');
    expect(notices.some((notice) => notice.markdown.includes('request blocked by policy'))).toBe(false);
  });

  it("disables on a DisableChannelKeywords entry in the vendor's structured error that the client did not send", async () => {
    const worded = await startMockUpstream();
    try {
      const wordedId = await r.addChannel({ name: 'worded', base_url: worded.url, models: 'worded-model' });
      await r.setPrice('worded-model', 1, 2);
      worded.behaviour.failWith = {
        status: 500,
        message: 'Sorry: account deactivated by the vendor',
        type: 'server_error',
      };
      expect((await ask(r, 'worded-model')).status).toBe(502);
      await expect.poll(() => channelStatus(r, wordedId)).toBe(3);
      expect(notices.at(-1)?.markdown).toContain('account deactivated by the vendor');
    } finally {
      await worded.close();
    }
  });
});
