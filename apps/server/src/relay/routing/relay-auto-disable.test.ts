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
  let echoingId: number;
  let brokeId: number;
  const notices: Notification[] = [];

  beforeAll(async () => {
    r = await startRelayTest();
    echoing = await startMockUpstream();
    broke = await startMockUpstream();
    echoingId = await r.addChannel({ name: 'echoing', base_url: echoing.url, models: 'echo-model' });
    brokeId = await r.addChannel({ name: 'broke', base_url: broke.url, models: 'broke-model' });
    for (const model of ['echo-model', 'broke-model']) await r.setPrice(model, 1, 2);
    await r.t.services.options.update('AutomaticDisableChannelEnabled', 'true');
    const keywords = ['Your credit balance is too low', 'invalid api key', 'account deactivated'].join('\n');
    await r.t.services.options.update('DisableChannelKeywords', keywords);
    r.t.services.notifier = { names: ['capture'], notify: async (notice) => void notices.push(notice) };
  });
  afterAll(async () => {
    await r?.close();
    await echoing?.close();
    await broke?.close();
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
});
