import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NativeUpstreams } from '../../../test/mocks/native-upstreams.js';
import { startHttpProxy, startSocksProxy, type TestProxy } from '../../../test/mocks/proxy-servers.js';
import { type NativeRelay, startNativeRelay } from '../../../test/native-relay.js';
import type { RelayTestContext } from '../../../test/relay-setup.js';
import { providerType } from '../../domain/channel-types/registry.js';

/**
 * A channel's `proxy` carries every call to its upstream, whatever the provider: an http proxy
 * through a CONNECT tunnel, a socks5 (or socks5h) one through a SOCKS5 tunnel that the proxy
 * resolves; `%s` in the proxy becomes the md5 of the channel's key, so each key can leave through
 * its own proxy session. A proxy that cannot be reached fails the call; it is never bypassed.
 */

const OPENAI = 'gpt-proxied';
const CLAUDE = 'claude-proxied';
const GEMINI = 'gemini-proxied';
const UNREACHABLE = 'gpt-unreachable-proxy';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const withUser = (proxy: TestProxy, user: string, scheme?: string) => {
  const url = new URL(proxy.url);
  return `${scheme ?? url.protocol.slice(0, -1)}://${user}:secret@${url.host}`;
};

describe('a channel proxy on the relay', () => {
  let relay: NativeRelay;
  let r: RelayTestContext;
  let native: NativeUpstreams;
  let http: TestProxy;
  let socks: TestProxy;

  beforeAll(async () => {
    relay = await startNativeRelay({ claude: { input: 1, output: 1 }, gemini: { input: 1, output: 1 } });
    ({ r, native } = relay);
    http = await startHttpProxy();
    socks = await startSocksProxy();
    // The relay's own retry would try the channel again; one try is what is counted here.
    await r.t.services.options.update('RetryTimes', '0');
    await r.addChannel({ name: 'openai proxied', models: OPENAI, proxy: withUser(http, 'openai-%s') });
    await r.addChannel({
      name: 'claude proxied',
      type: providerType('anthropic'),
      key: native.behaviour.anthropicKey,
      base_url: native.url,
      models: CLAUDE,
      proxy: withUser(http, 'claude'),
    });
    await r.addChannel({
      name: 'gemini proxied',
      type: providerType('gemini'),
      key: native.behaviour.geminiKey,
      // A host name the proxy resolves, as socks5h asks.
      base_url: native.url.replace('127.0.0.1', 'localhost'),
      models: GEMINI,
      proxy: withUser(socks, 'gemini', 'socks5h'),
    });
    await r.addChannel({ name: 'unreachable', models: UNREACHABLE, proxy: `http://127.0.0.1:${await closedPort()}` });
    for (const model of [OPENAI, CLAUDE, GEMINI, UNREACHABLE]) await r.setPrice(model, 1, 1);
  });
  afterAll(async () => {
    await relay?.close();
    await http?.close();
    await socks?.close();
  });
  afterEach(() => {
    native.reset();
    r.upstream.received.length = 0;
    http.tunnels.length = 0;
    socks.tunnels.length = 0;
  });

  const ask = (model: string) =>
    r.client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] });

  it("takes an OpenAI channel's calls through its http proxy, %s naming the key's md5", async () => {
    const answer = await ask(OPENAI);
    expect(answer.choices[0]?.message.content).toBe(r.upstream.behaviour.reply);
    const keyHash = createHash('md5').update(r.upstream.behaviour.apiKey).digest('hex');
    const upstream = new URL(r.upstream.url);
    expect(http.tunnels).toEqual([{ user: `openai-${keyHash}`, host: '127.0.0.1', port: Number(upstream.port) }]);
    expect(r.upstream.received).toHaveLength(1);
  });

  it("takes an Anthropic channel's calls through its proxy, translated or passed through", async () => {
    await ask(CLAUDE);
    await relay.claude.messages.create({ model: CLAUDE, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] });
    expect(native.received.map((request) => request.path)).toEqual(['/v1/messages', '/v1/messages']);
    expect(http.tunnels.length).toBeGreaterThanOrEqual(1);
    const port = Number(new URL(native.url).port);
    for (const tunnel of http.tunnels) expect(tunnel).toEqual({ user: 'claude', host: '127.0.0.1', port });
  });

  it("takes a Gemini channel's calls through its socks5h proxy, which resolves the host", async () => {
    await ask(GEMINI);
    const answer = await relay.gemini.models.generateContent({ model: GEMINI, contents: 'Hi' });
    expect(answer.text).toBe(native.behaviour.reply);
    expect(native.received).toHaveLength(2);
    expect(socks.tunnels.length).toBeGreaterThanOrEqual(1);
    const port = Number(new URL(native.url).port);
    for (const tunnel of socks.tunnels) expect(tunnel).toEqual({ user: 'gemini', host: 'localhost', port });
    expect(http.tunnels).toEqual([]);
  });

  it('fails the call when the proxy cannot be reached, never going around it', async () => {
    const refused = await ask(UNREACHABLE).catch((error: { status?: number }) => error);
    expect(refused).toMatchObject({ status: 502 });
    expect(r.upstream.received).toEqual([]);
  });
});
