import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerType } from '../../src/domain/channel-types/registry.js';
import { countTextTokens } from '../../src/relay/billing/metering.js';
import { nativeClients } from '../native-relay.js';
import { lastConsumeLog, type RelayTestContext, startRelayTest, storedQuota } from '../relay-setup.js';
import { anthropicChannel, anthropicResponder } from './anthropic.js';
import {
  type Billing,
  billingOf,
  EXTRA_RATIOS,
  expectBilled as expectBilledFor,
  PRE_CONSUMED,
  PRICE,
} from './billing.js';
import { openAiChannel, openAiResponder } from './openai.js';
import { providers } from './providers.js';
import {
  BACKUP_REPLY,
  type CaseName,
  PIECES,
  PLAIN_USAGE,
  type ProviderEntry,
  type ProviderSetup,
  REPLY,
  RICH_USAGE,
  type ScenarioMock,
  split,
  startScenarioMock,
  TOOL_ARGUMENTS,
} from './scenario-mock.js';

/**
 * The adapter contract (issue 6): every upstream runs the same cases against its scenario mock,
 * through a real relay, driven by the official SDKs. Plain and streamed chat, tools, images,
 * usage (cached, cache writes, reasoning, audio) down to the consume log and the billed quota,
 * and upstream failures mapped to the relay's decision: 401 disables the channel, 429 and 500
 * retry on a healthy channel of another type (429 also cools the channel down), a malformed body
 * is a 502 with the reservation refunded, a stream cut mid-way reaches the client as an error
 * after the text it had, billed for that text. Anthropic-SDK, Gemini-SDK and Responses passes
 * cover the other client formats against every upstream.
 *
 * One relay and one pair of mocks per provider; scenarios switch the mock, channels that a case
 * disabled or cooled down are replaced by a fresh one. A provider skips a case only with its
 * reason; a case that fails because of a known bug stays, as `it.fails`, with the evidence.
 */

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00, 0xff, 0xd9,
]).toString('base64');

const weather: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

interface Drained {
  text: string;
  /** Chunks that carried text. */
  deltas: number;
  name: string;
  args: string;
  finish: string | null | undefined;
  usage: OpenAI.CompletionUsage | null | undefined;
  error: unknown;
}

async function drain(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<Drained> {
  const seen: Drained = {
    text: '',
    deltas: 0,
    name: '',
    args: '',
    finish: undefined,
    usage: undefined,
    error: undefined,
  };
  try {
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) {
        seen.text += choice.delta.content;
        seen.deltas++;
      }
      for (const call of choice?.delta.tool_calls ?? []) {
        seen.name += call.function?.name ?? '';
        seen.args += call.function?.arguments ?? '';
      }
      seen.finish = choice?.finish_reason ?? seen.finish;
      if (chunk.usage) seen.usage = chunk.usage;
    }
  } catch (error) {
    seen.error = error;
  }
  return seen;
}

/** The healthy channel a failing one falls back to: of another type than the provider under test. */
function backupOf(provider: ProviderEntry): ProviderSetup & { type: number } {
  return provider.type === providerType('openai')
    ? { type: providerType('anthropic'), responder: anthropicResponder(), channel: (url) => anthropicChannel(url) }
    : { type: providerType('openai'), responder: openAiResponder(), channel: (url) => openAiChannel(url) };
}

describe.each(providers)('contract: $name (channel type $type)', (provider) => {
  const { model } = provider;
  const plain = billingOf(provider, PLAIN_USAGE);
  const rich = billingOf(provider, RICH_USAGE);
  let r: RelayTestContext;
  let setup: ProviderSetup;
  let mock: ScenarioMock;
  let backup: ScenarioMock;
  let primaryId = 0;
  let backupId = 0;
  let claude: Anthropic;
  let gemini: GoogleGenAI;
  /** What a whole (non-streamed) answer is asked for with upstream: a stream where the vendor has no other way. */
  const wholeCallStreams = provider.wholeAnswersStreamed !== undefined;
  /** Set by cases that disable or cool down the primary channel: it is replaced afterwards. */
  let spoiled = false;

  const addPrimary = async () => {
    primaryId = await r.addChannel({
      name: `${provider.name} (primary)`,
      type: provider.type,
      models: model,
      priority: 10,
      ...setup.channel(mock.url),
    });
  };
  const option = (key: string, value: string) => r.t.services.options.update(key, value);
  const channelStatus = async (id: number) => {
    const found = await r.admin('GET', `/api/channel/${id}`);
    return (found.body.data as { status: number }).status;
  };
  const newestLogId = async () => {
    await r.t.app.relay.flush();
    const row = await r.t.database.db
      .selectFrom('logs')
      .select('id')
      .where('type', '=', 2)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row?.id ?? 0;
  };
  const chat = (extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) =>
    r.client.chat.completions.create({
      model,
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'Hello?' },
      ],
      ...extra,
    });
  const chatStream = (extra: Partial<OpenAI.ChatCompletionCreateParamsStreaming> = {}) =>
    r.client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Hello?' }],
      stream: true,
      stream_options: { include_usage: true },
      ...extra,
    });
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined).catch((error: unknown) => error);

  /** The consume log and the user's balance show exactly `billing`, charged to `channelId`. */
  const expectBilled = (before: number, billing: Billing, channelId = primaryId) =>
    expectBilledFor(r, { model, channelId, before, billing });

  /** A case, unless the provider skips it (with its reason) or it fails on a known bug (kept as it.fails). */
  const contract = (name: CaseName, body: () => Promise<void>) => {
    const skip = provider.skip?.[name];
    const bug = provider.knownBugs?.[name];
    if (skip) it.skip(`${name} — skipped: ${skip}`, body);
    else if (bug) it.fails(`${name} — KNOWN BUG: ${bug}`, body);
    else it(name, body);
  };

  beforeAll(async () => {
    setup = await provider.setup();
    const fallback = backupOf(provider);
    r = await startRelayTest();
    mock = await startScenarioMock(setup.responder);
    backup = await startScenarioMock(fallback.responder, BACKUP_REPLY);
    await addPrimary();
    backupId = await r.addChannel({
      name: 'backup',
      type: fallback.type,
      models: model,
      priority: 0,
      ...fallback.channel(backup.url),
    });
    await r.setPrice(model, PRICE.input, PRICE.output, { extra_ratios: EXTRA_RATIOS });
    await option('AutomaticDisableChannelEnabled', 'true');
    await option('RetryCooldownSeconds', '60');
    ({ claude, gemini } = nativeClients(r));
  });
  afterAll(async () => {
    await r?.close();
    await mock?.close();
    await backup?.close();
  });
  beforeEach(async () => {
    mock.reset();
    backup.reset();
    await option('RetryTimes', '0');
  });
  afterEach(async () => {
    if (!spoiled) return;
    spoiled = false;
    await r.admin('DELETE', `/api/channel/${primaryId}`);
    await addPrimary();
  });

  // ---- answers ----

  contract('text', async () => {
    const before = await storedQuota(r);
    const completion = await chat();
    expect(completion.choices[0]?.message.content).toBe(REPLY);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: plain.prompt, completion_tokens: plain.completion });
    expect(mock.calls).toMatchObject([{ stream: wholeCallStreams, tools: [], images: 0 }]);
    await expectBilled(before, plain);
  });

  contract('text stream', async () => {
    const before = await storedQuota(r);
    const seen = await drain(await chatStream());
    expect(seen.error).toBeUndefined();
    expect(seen.text).toBe(REPLY);
    // Translated piece by piece, not gathered into one.
    expect(seen.deltas).toBe(PIECES);
    expect(seen.finish).toBe('stop');
    expect(seen.usage).toMatchObject({ prompt_tokens: plain.prompt, completion_tokens: plain.completion });
    expect(mock.calls).toMatchObject([{ stream: true }]);
    await expectBilled(before, plain);
  });

  contract('tool_call', async () => {
    mock.scenario = 'tool_call';
    const completion = await chat({ tools: [weather], tool_choice: 'auto' });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' && call.function.name).toBe('get_weather');
    expect(JSON.parse(call?.type === 'function' ? call.function.arguments : 'null')).toEqual(TOOL_ARGUMENTS);
    expect(call?.id).toBeTruthy();
    // The declaration arrived in the provider's own tool shape.
    expect(mock.calls).toMatchObject([{ tools: ['get_weather'] }]);
  });

  contract('tool_call stream', async () => {
    mock.scenario = 'tool_call';
    const seen = await drain(await chatStream({ tools: [weather] }));
    expect(seen.error).toBeUndefined();
    expect(seen.name).toBe('get_weather');
    expect(JSON.parse(seen.args)).toEqual(TOOL_ARGUMENTS);
    expect(seen.finish).toBe('tool_calls');
    expect(mock.calls).toMatchObject([{ stream: true, tools: ['get_weather'] }]);
  });

  contract('image_echo', async () => {
    mock.scenario = 'image_echo';
    const completion = await chat({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'How many images do you see?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${JPEG}` } },
          ],
        },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('images: 2');
    expect(mock.calls).toMatchObject([{ images: 2 }]);
  });

  // ---- usage ----

  contract('usage_rich', async () => {
    mock.scenario = 'usage_rich';
    const before = await storedQuota(r);
    const completion = await chat();
    expect(completion.choices[0]?.message.content).toBe(REPLY);
    expect(completion.usage).toMatchObject({ prompt_tokens: rich.prompt, completion_tokens: rich.completion });
    await expectBilled(before, rich);
  });

  contract('usage_rich stream', async () => {
    mock.scenario = 'usage_rich';
    const before = await storedQuota(r);
    const seen = await drain(await chatStream());
    expect(seen.error).toBeUndefined();
    expect(seen.text).toBe(REPLY);
    expect(seen.usage).toMatchObject({ prompt_tokens: rich.prompt, completion_tokens: rich.completion });
    await expectBilled(before, rich);
  });

  for (const [facet, flag] of Object.entries(provider.usage)) {
    if (flag !== true) it.skip(`usage_rich: ${facet} tokens — skipped: ${flag}`, () => {});
  }

  // ---- upstream failures and the relay's decision ----

  contract('error_401', async () => {
    spoiled = true;
    mock.scenario = 'error_401';
    const error = await failure(chat());
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(provider.authStatus);
    expect(mock.calls).toHaveLength(1);
    // Auto-disable is on: the channel's credentials are bad, so it is taken out (status 3).
    await expect.poll(() => channelStatus(primaryId), { timeout: 2000 }).toBe(3);
  });

  contract('error_429', async () => {
    spoiled = true;
    await option('RetryTimes', '1');
    mock.scenario = 'error_429';
    const before = await storedQuota(r);
    const retried = await chat();
    expect(retried.choices[0]?.message.content).toBe(BACKUP_REPLY);
    expect(mock.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(1);
    await expectBilled(before, plain, backupId);
    // Cooled down for this model: healthy again, it is still passed over.
    mock.scenario = 'text';
    const next = await chat();
    expect(next.choices[0]?.message.content).toBe(BACKUP_REPLY);
    expect(mock.calls).toHaveLength(1);
    expect(await channelStatus(primaryId)).toBe(1);
    // Without retries, on a fresh channel, the client sees the 429 itself.
    await r.admin('DELETE', `/api/channel/${primaryId}`);
    await addPrimary();
    await option('RetryTimes', '0');
    mock.scenario = 'error_429';
    const limited = await failure(chat());
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
  });

  contract('error_500', async () => {
    await option('RetryTimes', '1');
    mock.scenario = 'error_500';
    const retried = await chat();
    expect(retried.choices[0]?.message.content).toBe(BACKUP_REPLY);
    expect(mock.calls).toHaveLength(1);
    expect(backup.calls).toHaveLength(1);
    // Neither cooled down nor disabled: the next call goes to it again.
    mock.scenario = 'text';
    expect((await chat()).choices[0]?.message.content).toBe(REPLY);
    expect(mock.calls).toHaveLength(2);
    expect(await channelStatus(primaryId)).toBe(1);
    // Without retries the client sees the gateway's 502.
    await option('RetryTimes', '0');
    mock.scenario = 'error_500';
    const error = await failure(chat());
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
  });

  const malformedCase = (scenario: 'malformed' | 'malformed_shape') => async () => {
    const before = await storedQuota(r);
    const lastLog = await newestLogId();
    mock.scenario = scenario;
    const error = await failure(chat());
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect(mock.calls).toHaveLength(1);
    // The reservation went back whole: nothing billed, nothing logged.
    expect(await storedQuota(r)).toBe(before);
    expect(await newestLogId()).toBe(lastLog);
  };
  contract('malformed', malformedCase('malformed'));
  contract('malformed_shape', malformedCase('malformed_shape'));

  contract('cut', async () => {
    const before = await storedQuota(r);
    mock.scenario = 'cut';
    const seen = await drain(await chatStream());
    const streamed = split(REPLY, PIECES)[0] ?? '';
    expect(seen.text).toBe(streamed);
    // An error event in the stream (not a dropped connection), naming the break.
    expect(seen.error).toBeInstanceOf(OpenAI.APIError);
    expect(seen.error).not.toBeInstanceOf(OpenAI.APIConnectionError);
    expect((seen.error as Error).message).toBeTruthy();
    // Billed for what was streamed: the piece's tokens, the prompt, at the model's price.
    const log = await lastConsumeLog(r);
    expect(log).toMatchObject({ model_name: model, channel_id: primaryId });
    expect(log.completion_tokens).toBe(countTextTokens(streamed));
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(log.quota).toBe(Math.ceil(log.prompt_tokens * PRICE.input + log.completion_tokens * PRICE.output));
    expect(log.quota).toBeLessThan(PRE_CONSUMED);
    expect(await storedQuota(r)).toBe(before - log.quota);
  });

  // ---- other client formats ----

  contract('anthropic sdk stream', async () => {
    const before = await storedQuota(r);
    const stream = claude.messages.stream({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Hello?' }] });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    expect(text).toBe(REPLY);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBe(plain.completion);
    expect(mock.calls).toMatchObject([{ stream: true }]);
    await expectBilled(before, plain);
  });

  contract('gemini sdk stream', async () => {
    const before = await storedQuota(r);
    let text = '';
    for await (const chunk of await gemini.models.generateContentStream({ model, contents: 'Hello?' })) {
      text += chunk.text ?? '';
    }
    expect(text).toBe(REPLY);
    expect(mock.calls).toMatchObject([{ stream: true }]);
    await expectBilled(before, plain);
  });

  contract('responses', async () => {
    const before = await storedQuota(r);
    const response = await r.client.responses.create({ model, input: 'Hello?', max_output_tokens: 64 });
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe(REPLY);
    expect(response.usage).toMatchObject({ input_tokens: plain.prompt, output_tokens: plain.completion });
    expect(mock.calls).toMatchObject([{ stream: wholeCallStreams }]);
    await expectBilled(before, plain);
  });
});
