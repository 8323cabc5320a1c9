import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countTextTokens } from '../../src/relay/billing/metering.js';
import { nativeClients } from '../native-relay.js';
import { lastConsumeLog, type RelayTestContext, startRelayTest, storedQuota } from '../relay-setup.js';
import {
  type Billing,
  billingOf,
  EXTRA_RATIOS,
  expectBilled as expectBilledFor,
  PRE_CONSUMED,
  PRICE,
} from './billing.js';
import { providers } from './providers.js';
import { PIECES, REPLY, RICH_USAGE, type ScenarioMock, split, startScenarioMock } from './scenario-mock.js';

/**
 * Billing of the Anthropic-SDK and Gemini-SDK clients against every upstream: passed through
 * when the channel speaks the client's format (Anthropic, Claude on Bedrock and Vertex for the
 * one; Gemini and Gemini on Vertex for the other), translated otherwise. Whole and streamed
 * answers bill the upstream's usage exactly, every extra-token kind at its ratio; a stream cut
 * mid-way bills what reached the client.
 */

const STREAMED = split(REPLY, PIECES)[0] ?? '';

describe.each(providers)('surface billing: $name (channel type $type)', (provider) => {
  const { model } = provider;
  const rich = billingOf(provider, RICH_USAGE);
  let r: RelayTestContext;
  let mock: ScenarioMock;
  let channelId = 0;
  let claude: Anthropic;
  let gemini: GoogleGenAI;

  beforeAll(async () => {
    const setup = await provider.setup();
    r = await startRelayTest();
    mock = await startScenarioMock(setup.responder);
    channelId = await r.addChannel({
      name: provider.name,
      type: provider.type,
      models: model,
      ...setup.channel(mock.url),
    });
    await r.setPrice(model, PRICE.input, PRICE.output, { extra_ratios: EXTRA_RATIOS });
    await r.t.services.options.update('RetryTimes', '0');
    ({ claude, gemini } = nativeClients(r));
  });
  afterAll(async () => {
    await r?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const expectBilled = (before: number, billing: Billing) => expectBilledFor(r, { model, channelId, before, billing });

  /** Billed for the piece that was streamed before the cut: its tokens, the prompt, no reservation kept. */
  const expectBilledForCut = async (before: number) => {
    const log = await lastConsumeLog(r);
    expect(log).toMatchObject({ model_name: model, channel_id: channelId });
    expect(log.completion_tokens).toBe(countTextTokens(STREAMED));
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(log.quota).toBe(Math.ceil(log.prompt_tokens * PRICE.input + log.completion_tokens * PRICE.output));
    expect(log.quota).toBeLessThan(PRE_CONSUMED);
    expect(await storedQuota(r)).toBe(before - log.quota);
  };

  const message = { model, max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello?' }] };
  /** A streamed case, unless the provider streams no chat (then skipped with its reason). */
  const noStream = provider.skip?.['text stream'];
  const streamed = (name: string, body: () => Promise<void>) =>
    noStream ? it.skip(`${name} — skipped: ${noStream}`, body) : it(name, body);

  it('anthropic sdk: usage_rich, whole', async () => {
    mock.scenario = 'usage_rich';
    const before = await storedQuota(r);
    const answer = await claude.messages.create(message);
    expect(answer.content[0]).toMatchObject({ type: 'text', text: REPLY });
    expect(answer.usage.output_tokens).toBe(rich.completion);
    await expectBilled(before, rich);
  });

  streamed('anthropic sdk: usage_rich, streamed', async () => {
    mock.scenario = 'usage_rich';
    const before = await storedQuota(r);
    const final = await claude.messages.stream(message).finalMessage();
    expect(final.usage.output_tokens).toBe(rich.completion);
    await expectBilled(before, rich);
  });

  streamed('anthropic sdk: a stream cut mid-way bills what was streamed', async () => {
    mock.scenario = 'cut';
    const before = await storedQuota(r);
    let text = '';
    const stream = claude.messages.stream(message);
    stream.on('text', (delta) => {
      text += delta;
    });
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(text).toBe(STREAMED);
    await expectBilledForCut(before);
  });

  it('gemini sdk: usage_rich, whole', async () => {
    mock.scenario = 'usage_rich';
    const before = await storedQuota(r);
    const answer = await gemini.models.generateContent({ model, contents: 'Hello?' });
    expect(answer.text).toBe(REPLY);
    await expectBilled(before, rich);
  });

  streamed('gemini sdk: usage_rich, streamed', async () => {
    mock.scenario = 'usage_rich';
    const before = await storedQuota(r);
    let text = '';
    for await (const chunk of await gemini.models.generateContentStream({ model, contents: 'Hello?' })) {
      text += chunk.text ?? '';
    }
    expect(text).toBe(REPLY);
    await expectBilled(before, rich);
  });

  streamed('gemini sdk: a stream cut mid-way bills what was streamed', async () => {
    mock.scenario = 'cut';
    const before = await storedQuota(r);
    let text = '';
    try {
      for await (const chunk of await gemini.models.generateContentStream({ model, contents: 'Hello?' })) {
        text += chunk.text ?? '';
      }
    } catch {
      // The break reaches the SDK as an error event (or a truncated stream): either is fine here.
    }
    expect(text).toBe(STREAMED);
    await expectBilledForCut(before);
  });
});
