import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import {
  expectStreamedWeatherToolCall,
  expectWeatherToolCall,
  failureOf,
  type ProviderRelay,
  useProviderRelay,
  useTestConsumeLog,
  weatherTool,
} from '../../provider-relay.js';
import { type VendorMock, type VendorRequest, vector } from './mock-upstream.js';

/**
 * The end-to-end checks every vendor speaking OpenAI's format at its own addresses passes: a
 * real relay with a channel of the vendor's type pointing at its local mock, driven by the
 * official OpenAI SDK: chat whole and streamed (billed: quota and consume log), a tool call, an
 * image part passed on, embeddings, the vendor's errors (a refused request keeps its 400 and the
 * channel; a wrong key fails and auto-disables only that channel), and the channel test.
 */
export interface VendorSuite {
  type: number;
  startMock(): Promise<VendorMock>;
  /** Channel fields besides type, name, base URL and models (the key, `other`, `plugin`). */
  channel: Record<string, unknown>;
  /** The same channel with a key the vendor refuses. */
  wrongKey: string;
  chatModel: string;
  /** The model name the vendor is sent for `chatModel` (Spark's versions), when not the same. */
  upstreamChatModel?: string;
  chatPath: string;
  embeddings?: { model: string; path: string };
  /** Assertions on the credentials of a request the vendor accepted. */
  checkAuth(request: VendorRequest): void | Promise<void>;
  /** The message the vendor refuses the wrong key with. */
  wrongKeyMessage: string;
  /** A request-level refusal in the vendor's own error format (status 400). */
  badRequest: unknown;
  badRequestMessage: string;
}

/** Per-token prices of the suite's models: integers, so the charge is exact. */
const PRICE = [2, 3] as const;

export function describeVendorRelay(
  title: string,
  suite: VendorSuite,
  more?: (relay: ProviderRelay<VendorMock>) => void,
): void {
  describe(title, () => {
    const models = [suite.chatModel, suite.embeddings?.model].filter((model) => model !== undefined);
    const relay = useProviderRelay({
      startMock: suite.startMock,
      channels: () => ({
        vendor: { type: suite.type, models: models.join(','), ...suite.channel },
        'vendor-wrong-key': { type: suite.type, models: 'wrong-key-model', ...suite.channel, key: suite.wrongKey },
      }),
      prices: Object.fromEntries([...models, 'wrong-key-model'].map((model) => [model, PRICE])),
    });

    const logOf = useTestConsumeLog(relay);
    const statusOf = async (id: number | undefined) =>
      ((await relay.context.admin('GET', `/api/channel/${id}`)).body.data as { status: number }).status;
    const sentModel = suite.upstreamChatModel ?? suite.chatModel;

    it('answers a whole chat at the vendor’s path with its credentials, billed on the vendor’s usage', async () => {
      const before = await relay.storedQuota();
      const completion = await relay.openai.chat.completions.create({
        model: suite.chatModel,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello?' },
        ],
        temperature: 0.5,
      });
      const { behaviour } = relay.mock;
      expect(completion.choices[0]?.message.content).toBe(behaviour.reply);
      expect(completion.usage).toMatchObject({ prompt_tokens: 23, completion_tokens: 9 });
      const sent = relay.sent();
      expect(sent.path).toBe(suite.chatPath);
      expect(sent.body).toMatchObject({
        model: sentModel,
        temperature: 0.5,
        messages: [{ role: 'system' }, { role: 'user' }],
      });
      await suite.checkAuth(sent);
      expect(await logOf(suite.chatModel)).toMatchObject({
        channel_id: relay.channelIds.vendor,
        prompt_tokens: 23,
        completion_tokens: 9,
        quota: 23 * PRICE[0] + 9 * PRICE[1],
      });
      expect(before - (await relay.storedQuota())).toBe(23 * PRICE[0] + 9 * PRICE[1]);
    });

    it('streams a chat in pieces with the usage chunk, cached tokens included', async () => {
      relay.mock.behaviour.usage.cached = 8;
      const read = await relay.streamChat({
        model: suite.chatModel,
        messages: [{ role: 'user', content: 'Stream, please.' }],
        stream_options: { include_usage: true },
      });
      expect(read.text).toBe(relay.mock.behaviour.reply);
      expect(read.pieces).toBe(relay.mock.behaviour.chunks);
      expect(read.finish).toBe('stop');
      expect(read.usage).toMatchObject({
        prompt_tokens: 23,
        completion_tokens: 9,
        prompt_tokens_details: { cached_tokens: 8 },
      });
      expect(relay.sent().body.stream).toBe(true);
      await suite.checkAuth(relay.sent());
      expect(await logOf(suite.chatModel)).toMatchObject({
        channel_id: relay.channelIds.vendor,
        prompt_tokens: 23,
        completion_tokens: 9,
        quota: 23 * PRICE[0] + 9 * PRICE[1],
      });
    });

    it('passes tools on and the call back, whole and streamed', async () => {
      const completion = await relay.openai.chat.completions.create({
        model: suite.chatModel,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weatherTool],
      });
      expectWeatherToolCall(completion);
      expect(relay.sent().body.tools).toEqual([weatherTool]);
      const read = await relay.streamChat({
        model: suite.chatModel,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weatherTool],
      });
      expectStreamedWeatherToolCall(read);
    });

    it('answers the Anthropic SDK through the translation, with the same credentials', async () => {
      const message = await relay.claude.messages.create({
        model: suite.chatModel,
        max_tokens: 64,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello?' }],
      });
      expect(message.content[0]).toMatchObject({ type: 'text', text: relay.mock.behaviour.reply });
      expect(message.usage).toMatchObject({ input_tokens: 23, output_tokens: 9 });
      expect(relay.sent()).toMatchObject({ path: suite.chatPath, body: { model: sentModel, max_tokens: 64 } });
      await suite.checkAuth(relay.sent());
    });

    it('passes an image part on as it came', async () => {
      const image = {
        type: 'image_url' as const,
        image_url: { url: 'https://example.com/cat.png', detail: 'low' as const },
      };
      await relay.openai.chat.completions.create({
        model: suite.chatModel,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] }],
      });
      expect(relay.sent().body.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] },
      ]);
    });

    if (suite.embeddings) {
      const { model, path } = suite.embeddings;
      it('answers embeddings at the vendor’s path, billed on its usage', async () => {
        const before = await relay.storedQuota();
        const answer = await relay.openai.embeddings.create({ model, input: ['one', 'two'], encoding_format: 'float' });
        expect(answer.data.map((item) => item.embedding)).toEqual([vector(0), vector(1)]);
        expect(relay.sent()).toMatchObject({ path, body: { model, input: ['one', 'two'] } });
        await suite.checkAuth(relay.sent());
        await expect.poll(async () => before - (await relay.storedQuota())).toBe(23 * PRICE[0]);
      });
    }

    it('keeps the vendor’s 400 and its message, and the channel', async () => {
      relay.mock.behaviour.failWith = { status: 400, body: suite.badRequest };
      const refused = await failureOf(
        relay.openai.chat.completions.create({ model: suite.chatModel, messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect(String((refused as Error).message)).toContain(suite.badRequestMessage);
      expect(await statusOf(relay.channelIds.vendor)).toBe(1);
    });

    it('names the wrong key’s refusal and disables only that channel', async () => {
      await relay.context.t.services.options.update('AutomaticDisableChannelEnabled', 'true');
      const error = await failureOf(
        relay.openai.chat.completions.create({ model: 'wrong-key-model', messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      expect(String((error as Error).message)).toContain(suite.wrongKeyMessage);
      expect(String((error as Error).message)).not.toContain(suite.wrongKey);
      await expect.poll(() => statusOf(relay.channelIds['vendor-wrong-key'])).toBe(3);
      expect(await statusOf(relay.channelIds.vendor)).toBe(1);
    });

    it('tests the channel with a chat through the vendor', async () => {
      const answer = await relay.context.admin(
        'GET',
        `/api/channel/test/${relay.channelIds.vendor}?model=${encodeURIComponent(suite.chatModel)}`,
      );
      expect(answer.body).toMatchObject({ success: true });
      expect(relay.sent().path).toBe(suite.chatPath);
      await suite.checkAuth(relay.sent());
    });

    more?.(relay);
  });
}
