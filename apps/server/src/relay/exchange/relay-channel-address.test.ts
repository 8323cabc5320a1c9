import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';

/**
 * Where a channel's upstream lives is for administrators: an upstream that quotes its own address
 * in an error (a proxy naming the URL it failed to reach, a vendor naming its host) is masked
 * before the client reads it, as the channel's key is.
 */
describe("a channel's address in an upstream error", () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayTest();
  });
  afterAll(() => r?.close());

  it('reaches the client as neither its base URL nor its host name', async () => {
    const { host, hostname } = new URL(r.upstream.url);
    r.upstream.behaviour.failWith = {
      status: 500,
      message: `POST ${r.upstream.url}/v1/chat/completions failed: ${host} (${hostname.toUpperCase()}) is overloaded`,
    };
    const answer = await fetch(`${r.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(answer.status).toBe(502);
    const { error } = (await answer.json()) as { error: { message: string } };
    expect(error.message).toContain('is overloaded');
    expect(error.message).not.toContain(hostname);
    expect(error.message).not.toContain(String(new URL(r.upstream.url).port));
    expect(error.message).toContain('[upstream]/v1/chat/completions');
  });
});
