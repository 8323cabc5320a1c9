import Anthropic from '@anthropic-ai/sdk';
import type { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayTest, storedQuota } from './relay-setup.js';

/**
 * The shared harness of the provider integration tests (Bedrock, Vertex, Cohere, …): a running
 * One Hub with channels pointing at a local mock of the provider, driven by the official OpenAI
 * and Anthropic SDKs, plus readers that gather what an SDK stream carried.
 */

/** What the harness needs of a provider's mock upstream. */
export interface ProviderMock<Request = unknown> {
  url: string;
  received: Request[];
  reset(): void;
  close(): Promise<void>;
}

export interface ProviderRelaySetup<Mock extends ProviderMock> {
  startMock(): Promise<Mock>;
  /** The channels to add, by channel name; each points at the mock unless it names its own `base_url`. */
  channels(mock: Mock): Record<string, Record<string, unknown>>;
  /** Per-token prices by model, `[input, output]`, set in this order. */
  prices: Record<string, readonly [number, number]>;
}

export interface ProviderRelay<Mock extends ProviderMock> {
  context: RelayTestContext;
  mock: Mock;
  /** The OpenAI SDK on the relay (a user's unlimited key). */
  openai: OpenAI;
  /** The Anthropic SDK on the relay, with the same key. */
  claude: Anthropic;
  /** The ids of the channels added, by channel name. */
  channelIds: Record<string, number>;
  /**
   * Adds a channel during a test, pointing at the mock unless `fields` name their own `base_url`,
   * and gives each of its `models` the per-token `price`; its id.
   */
  addChannel(
    name: string,
    fields: Record<string, unknown> & { models: string },
    price: readonly [number, number],
  ): Promise<number>;
  /** The last request the mock received. */
  sent(): Mock['received'][number];
  /** Streams a chat from the OpenAI SDK and reads it to the end. */
  streamChat(params: Omit<OpenAI.ChatCompletionCreateParamsStreaming, 'stream'>): Promise<ChatStreamRead>;
  /** Streams a message from the Anthropic SDK and reads it to the end. */
  streamMessage(params: Anthropic.MessageStreamParams): Promise<MessageStreamRead>;
  /** The newest consume log row (see `lastConsumeLog`). */
  lastConsumeLog(): ReturnType<typeof lastConsumeLog>;
  /** The relay user's stored quota (see `storedQuota`). */
  storedQuota(): Promise<number>;
}

/**
 * Starts the relay and the mock before the enclosing `describe`'s tests, resets the mock after
 * each test and stops both at the end. The object returned is filled in once they are running:
 * read it inside hooks and tests only.
 */
export function useProviderRelay<Mock extends ProviderMock>(setup: ProviderRelaySetup<Mock>): ProviderRelay<Mock> {
  let context: RelayTestContext | undefined;
  let mock: Mock | undefined;
  let claude: Anthropic | undefined;
  const channelIds: Record<string, number> = {};
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the provider relay is not running: read it inside a hook or a test');
    return value;
  };

  beforeAll(async () => {
    const r = await startRelayTest();
    context = r;
    const upstream = await setup.startMock();
    mock = upstream;
    for (const [name, fields] of Object.entries(setup.channels(upstream))) {
      channelIds[name] = await r.addChannel({ name, base_url: upstream.url, ...fields });
    }
    for (const [model, [input, output]] of Object.entries(setup.prices)) await r.setPrice(model, input, output);
    // A 429 in one test must not rest a channel for the tests after it.
    await r.t.services.options.update('RetryCooldownSeconds', '0');
    claude = new Anthropic({ apiKey: r.apiKey, baseURL: r.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
  });
  afterAll(async () => {
    await context?.close();
    await mock?.close();
  });
  afterEach(() => started(mock).reset());

  return {
    get context() {
      return started(context);
    },
    get mock() {
      return started(mock);
    },
    get openai() {
      return started(context).client;
    },
    get claude() {
      return started(claude);
    },
    channelIds,
    async addChannel(name, fields, [input, output]) {
      const id = await started(context).addChannel({ name, base_url: started(mock).url, ...fields });
      for (const model of fields.models.split(',')) await started(context).setPrice(model, input, output);
      return id;
    },
    sent() {
      const request = started(mock).received.at(-1);
      if (!request) throw new Error('the mock received nothing');
      return request;
    },
    async streamChat(params) {
      return readChatStream(await started(context).client.chat.completions.create({ ...params, stream: true }));
    },
    streamMessage: (params) => readMessageStream(started(claude).messages.stream(params)),
    lastConsumeLog: () => lastConsumeLog(started(context)),
    storedQuota: () => storedQuota(started(context)),
  };
}

/**
 * The consume log of the running test's call of `model`. The relay answers before it settles, so
 * the row may come a moment after the answer: the newest log id is noted before each test, and
 * the function returned polls (a bounded number of tries) for a newer consume log of the model.
 */
export function useTestConsumeLog(
  relay: ProviderRelay<ProviderMock>,
): (model: string) => ReturnType<typeof lastConsumeLog> {
  let logsBefore = 0;
  beforeEach(async () => {
    await relay.context.t.app.relay.flush();
    const row = await relay.context.t.database.db
      .selectFrom('logs')
      .select('id')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    logsBefore = Number(row?.id ?? 0);
  });
  return async (model) => {
    let row = await relay.lastConsumeLog();
    for (let tries = 0; (Number(row.id) <= logsBefore || row.model_name !== model) && tries < 40; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      row = await relay.lastConsumeLog();
    }
    return row;
  };
}

/** The OpenAI function tool the provider tests call. */
export const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/** The same tool for the Anthropic SDK. */
export const anthropicWeatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather',
  input_schema: { type: 'object', properties: { city: { type: 'string' } } },
};

/**
 * Checks that an OpenAI answer calls the weather tool for Paris (what the mocks do when given
 * tools); returns the call.
 */
export function expectWeatherToolCall(completion: OpenAI.ChatCompletion) {
  const call = completion.choices[0]?.message.tool_calls?.[0];
  expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
  expect(call?.type === 'function' && call.function.name).toBe('get_weather');
  expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
  return call;
}

/** Checks that an Anthropic answer calls the weather tool for Paris. */
export function expectWeatherToolUse(message: Anthropic.Message): void {
  expect(message.stop_reason).toBe('tool_use');
  expect(message.content.find((block) => block.type === 'tool_use')).toMatchObject({
    name: 'get_weather',
    input: { city: 'Paris' },
  });
}

/** Checks that a streamed OpenAI answer calls the weather tool for Paris. */
export function expectStreamedWeatherToolCall(read: ChatStreamRead): void {
  expect(read.toolName).toBe('get_weather');
  expect(JSON.parse(read.toolArguments)).toEqual({ city: 'Paris' });
  expect(read.finish).toBe('tool_calls');
}

/** What an OpenAI chat stream carried, gathered chunk by chunk. */
export interface ChatStreamRead {
  text: string;
  /** How many chunks carried text. */
  pieces: number;
  /** The last finish reason sent. */
  finish: string | null | undefined;
  usage: OpenAI.CompletionUsage | undefined;
  /** The tool calls' name and arguments, each joined from its deltas. */
  toolName: string;
  toolArguments: string;
  /** How many deltas carried a piece of the arguments. */
  argumentFragments: number;
}

export async function readChatStream(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<ChatStreamRead> {
  const read: ChatStreamRead = {
    text: '',
    pieces: 0,
    finish: undefined,
    usage: undefined,
    toolName: '',
    toolArguments: '',
    argumentFragments: 0,
  };
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    if (choice?.delta.content) {
      read.text += choice.delta.content;
      read.pieces += 1;
    }
    for (const call of choice?.delta.tool_calls ?? []) {
      read.toolName += call.function?.name ?? '';
      if (call.function?.arguments) {
        read.toolArguments += call.function.arguments;
        read.argumentFragments += 1;
      }
    }
    read.finish = choice?.finish_reason ?? read.finish;
    if (chunk.usage) read.usage = chunk.usage;
  }
  return read;
}

/** The text an Anthropic SDK stream emitted, and its final message. */
export interface MessageStreamRead {
  text: string;
  final: Anthropic.Message;
}

export async function readMessageStream(stream: MessageStream): Promise<MessageStreamRead> {
  let text = '';
  stream.on('text', (delta) => {
    text += delta;
  });
  const final = await stream.finalMessage();
  return { text, final };
}

/** The error a call is expected to fail with (what it answered, should it succeed). */
export function failureOf(call: Promise<unknown>): Promise<unknown> {
  return call.catch((error: unknown) => error);
}

/**
 * Checks that a short chat fails as rate limited (429) for both SDKs, with whatever failure the
 * mock is set to give; returns the OpenAI SDK's error for further checks.
 */
export async function expectRateLimitedForBothSdks(
  relay: ProviderRelay<ProviderMock>,
  models: { openai: string; anthropic: string },
): Promise<Error> {
  const openai = await failureOf(
    relay.openai.chat.completions.create({ model: models.openai, messages: [{ role: 'user', content: 'Hi' }] }),
  );
  expect(openai).toBeInstanceOf(OpenAI.RateLimitError);
  const anthropic = await failureOf(
    relay.claude.messages.create({
      model: models.anthropic,
      max_tokens: 10,
      messages: [{ role: 'user', content: 'Hi' }],
    }),
  );
  expect(anthropic).toBeInstanceOf(Anthropic.RateLimitError);
  return openai as Error;
}
