import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NativeUpstreams, startNativeUpstreams } from '../../../test/mocks/native-upstreams.js';
import { type BedrockMock, startBedrockMock } from '../../../test/providers/bedrock/mock-upstream.js';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import { providerType } from '../../domain/channel-types/registry.js';
import { chatAdapterFor, registerChatAdapter } from '../providers/adapters.js';
import { bedrockAdapter } from '../providers/bedrock/adapter.js';

/**
 * Model names go into upstream URL paths with the channel's key attached (Gemini, Vertex, Azure,
 * Bedrock): a name that could change the path or the query is refused before any channel is chosen.
 */

const HOSTILE = ['gemini-pro/../../x', 'gemini-pro/./x', 'a%2Fb', 'm?key=x', 'gemini pro', 'gemini-pro//x'];

describe('model names that could reach an upstream path', () => {
  let r: RelayTestContext;
  let native: NativeUpstreams;
  let bedrock: BedrockMock;

  beforeAll(async () => {
    if (!chatAdapterFor(providerType('bedrock'))) registerChatAdapter(providerType('bedrock'), bedrockAdapter);
    r = await startRelayTest();
    native = await startNativeUpstreams();
    bedrock = await startBedrockMock();
    // Wildcards: without the check, every one of the names above would be routed to this channel.
    await r.addChannel({
      name: 'gemini',
      type: providerType('gemini'),
      key: native.behaviour.geminiKey,
      base_url: native.url,
      models: 'gemini-*,a*,m*',
    });
    const { region, apiKey } = bedrock.behaviour;
    await r.addChannel({
      name: 'bedrock',
      type: providerType('bedrock'),
      key: `${region}|${apiKey}`,
      base_url: bedrock.url,
      models: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
    });
    await r.setPrice('anthropic.claude-sonnet-4-5-20250929-v1:0', 1.5, 7.5);
  });
  afterAll(async () => {
    await r?.close();
    await native?.close();
    await bedrock?.close();
  });

  it('refuses them with a 400 naming model, and nothing reaches the upstream', async () => {
    for (const model of HOSTILE) {
      const answer = await fetch(`${r.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${r.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      });
      const body = (await answer.json()) as { error: { param: string } };
      expect(answer.status, model).toBe(400);
      expect(body.error.param).toBe('model');
    }
    expect(native.received).toEqual([]);
  });

  it('refuses them on the Gemini surface, where the model is in the path', async () => {
    for (const model of ['gemini-pro%2F..%2F..%2Fx', 'gemini-pro%252F..%252Fx', 'm%3Fkey%3Dx', 'a%25252Fb']) {
      const answer = await fetch(`${r.baseURL.replace(/\/v1$/, '')}/gemini/v1beta/models/${model}:generateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': r.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      });
      expect(answer.status, model).toBe(400);
      expect(await answer.text()).toContain('model');
    }
    expect(native.received).toEqual([]);
  });

  it('still serves a Bedrock model id with a colon, encoded into the path', async () => {
    const completion = await r.client.chat.completions.create({
      model: 'anthropic.claude-sonnet-4-5-20250929-v1:0',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Hello from the Bedrock mock.');
    expect(bedrock.received.at(-1)?.path).toContain('anthropic.claude-sonnet-4-5-20250929-v1%3A0');
  });
});
