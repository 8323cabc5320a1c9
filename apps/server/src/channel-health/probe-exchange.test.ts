import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type NativeUpstreams, startNativeUpstreams } from '../../test/mocks/native-upstreams.js';
import { CLAUDE, GEMINI } from '../../test/native-relay.js';
import { type RelayTestContext, startRelayTest } from '../../test/relay-setup.js';
import { providerType } from '../domain/channel-types/registry.js';

// A channel test of a type with its own format goes through the relay's exchange: the request is
// the adapter's, and the error answer is read in the vendor's format, keywords included.
describe('testing channels of a vendor format', () => {
  let r: RelayTestContext;
  let native: NativeUpstreams;
  const ids: Record<'claude' | 'gemini', number> = { claude: 0, gemini: 0 };
  beforeAll(async () => {
    r = await startRelayTest();
    native = await startNativeUpstreams();
    const { anthropicKey, geminiKey } = native.behaviour;
    ids.claude = await r.addChannel({
      name: 'claude',
      type: providerType('anthropic'),
      key: anthropicKey,
      base_url: native.url,
      models: CLAUDE,
    });
    ids.gemini = await r.addChannel({
      name: 'gemini',
      type: providerType('gemini'),
      key: geminiKey,
      base_url: native.url,
      models: GEMINI,
    });
  });
  afterAll(async () => {
    await r?.close();
    await native?.close();
  });
  beforeEach(() => native.reset());

  const test = async (id: number, model: string) => {
    const answer = await r.admin('GET', `/api/channel/test/${id}?model=${model}`);
    return { status: answer.status, ...answer.body };
  };
  const statusOf = async (id: number) =>
    ((await r.admin('GET', `/api/channel/${id}`)).body.data as { status: number }).status;

  it('sends each adapter its own request and passes on a good answer', async () => {
    expect(await test(ids.claude, CLAUDE)).toMatchObject({ status: 200, success: true });
    const sent = native.received.at(-1);
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.body).toMatchObject({ model: CLAUDE, max_tokens: expect.any(Number), messages: [{ role: 'user' }] });
    expect(sent?.body.stream).not.toBe(true);
    expect(await test(ids.gemini, GEMINI)).toMatchObject({ status: 200, success: true });
    expect(native.received.at(-1)?.path).toMatch(new RegExp(`/models/${GEMINI}:generateContent`));
  });

  it('reads the vendor’s error and disables on a trusted keyword only when auto-disable is on', async () => {
    await r.t.services.options.update('DisableChannelKeywords', 'organization has been disabled');
    native.behaviour.failWith = {
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'This organization has been disabled.' },
      },
    };
    await r.t.services.options.update('AutomaticDisableChannelEnabled', 'false');
    const kept = await test(ids.claude, CLAUDE);
    expect(kept).toMatchObject({ status: 502, success: false });
    expect(kept.message).toContain('This organization has been disabled.');
    expect(kept.message).not.toContain(native.behaviour.anthropicKey);
    expect(await statusOf(ids.claude)).toBe(1);
    await r.t.services.options.update('AutomaticDisableChannelEnabled', 'true');
    await test(ids.claude, CLAUDE);
    expect(await statusOf(ids.claude)).toBe(3);
  });

  it('refuses models other than chat for such channels', async () => {
    const embeddings = await test(ids.gemini, 'text-embedding-004');
    expect(embeddings.status).toBe(400);
    expect(embeddings.message).toMatch(/chat models only/);
  });
});
