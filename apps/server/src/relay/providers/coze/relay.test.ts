import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import {
  expectRateLimitedForBothSdks,
  failureOf,
  useProviderRelay,
  useTestConsumeLog,
} from '../../../../test/provider-relay.js';
import { startCozeMock } from '../../../../test/providers/coze/mock-upstream.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * Coze end to end: a real relay and `coze` channels pointing at a local Coze Chat API v3 that
 * checks the token, the bot and the documented body, driven by the official OpenAI SDK (whole
 * answers gathered from Coze's stream, streams, images) and the Anthropic SDK; usage, quota, the
 * consume log, the channel test and Coze's `{code, msg}` errors are checked.
 */

const BOT = '7379462189365198898';
const MODEL = `coze-${BOT}`;
const WRONG_KEY_MODEL = 'coze-7000000000000000001';
const user = (content: string) => ({ role: 'user' as const, content });

describe('Coze channels through the relay', () => {
  const relay = useProviderRelay({
    startMock: startCozeMock,
    channels: (mock) => ({
      coze: { type: providerType('coze'), key: mock.behaviour.token, models: `${MODEL},${BOT}` },
      'coze-wrong-key': { type: providerType('coze'), key: 'pat_not_the_token_abcdef', models: WRONG_KEY_MODEL },
    }),
    prices: { [MODEL]: [1, 2], [BOT]: [1, 2], [WRONG_KEY_MODEL]: [1, 1] },
  });

  const logOf = useTestConsumeLog(relay);

  describe('chat from the OpenAI SDK', () => {
    it("answers a whole chat from Coze's gathered stream and bills its usage", async () => {
      const quotaBefore = await relay.storedQuota();
      const completion = await relay.openai.chat.completions.create({
        model: MODEL,
        user: 'end-user-17',
        messages: [
          { role: 'system', content: 'Answer in one line.' },
          user('Hello'),
          { role: 'assistant', content: 'Hi! How can I help?' },
          user('What day is it?'),
        ],
      });
      expect(completion.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      expect(completion.choices[0]?.finish_reason).toBe('stop');
      expect(completion.usage).toMatchObject({ prompt_tokens: 31, completion_tokens: 9, total_tokens: 40 });
      const sent = relay.sent();
      expect(sent.path).toBe('/v3/chat');
      expect(sent.headers.authorization).toBe(`Bearer ${relay.mock.behaviour.token}`);
      expect(sent.body).toEqual({
        bot_id: BOT,
        user_id: 'end-user-17',
        stream: true,
        auto_save_history: false,
        additional_messages: [
          { role: 'user', type: 'question', content_type: 'text', content: 'Answer in one line.\n\nHello' },
          { role: 'assistant', type: 'answer', content_type: 'text', content: 'Hi! How can I help?' },
          { role: 'user', type: 'question', content_type: 'text', content: 'What day is it?' },
        ],
      });
      const row = await logOf(MODEL);
      expect(row).toMatchObject({ channel_id: relay.channelIds.coze, prompt_tokens: 31, completion_tokens: 9 });
      expect(row.quota).toBeGreaterThan(0);
      expect(quotaBefore - (await relay.storedQuota())).toBe(row.quota);
    });

    it('streams the answer pieces only (not verbose or follow-up messages), with the usage', async () => {
      const read = await relay.streamChat({
        model: MODEL,
        messages: [user('Stream, please.')],
        stream_options: { include_usage: true },
      });
      expect(read.text).toBe(relay.mock.behaviour.reply);
      expect(read.pieces).toBe(relay.mock.behaviour.chunks);
      expect(read.finish).toBe('stop');
      expect(read.usage).toMatchObject({ prompt_tokens: 31, completion_tokens: 9 });
      expect(await logOf(MODEL)).toMatchObject({ prompt_tokens: 31, completion_tokens: 9 });
    });

    it('takes a bare bot id as the model, and a stable user id per key when the request names none', async () => {
      await relay.openai.chat.completions.create({ model: BOT, messages: [user('a')] });
      const first = relay.sent().body;
      await relay.openai.chat.completions.create({ model: BOT, messages: [user('b')] });
      expect(first.bot_id).toBe(BOT);
      expect(first.user_id).toMatch(/^one-hub-[0-9a-f]{16}$/);
      expect(relay.sent().body.user_id).toBe(first.user_id);
      expect(String(first.user_id)).not.toContain(relay.mock.behaviour.token);
    });

    it('sends image URLs as object_string content, and refuses inline images naming the limit', async () => {
      await relay.openai.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
        ],
      });
      const [question] = relay.sent().body.additional_messages as Array<Record<string, unknown>>;
      expect(question).toMatchObject({ role: 'user', content_type: 'object_string' });
      expect(JSON.parse(String(question?.content))).toEqual([
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'What is this?' },
        { type: 'image', file_url: 'https://example.com/cat.png' },
      ]);

      const calls = relay.mock.received.length;
      const refused = await failureOf(
        relay.openai.chat.completions.create({
          model: MODEL,
          messages: [
            {
              role: 'user',
              content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }],
            },
          ],
        }),
      );
      // The request's own fault: a 400 naming the field, and Coze is not called.
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect(String((refused as Error).message)).toContain(
        'messages[0].content[0].image_url.url: Coze takes images by http(s) URL only',
      );
      const withTools = await failureOf(
        relay.openai.chat.completions.create({
          model: MODEL,
          messages: [{ role: 'user', content: 'Weather?' }],
          tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
        }),
      );
      expect(withTools).toBeInstanceOf(OpenAI.BadRequestError);
      expect(String((withTools as Error).message)).toContain('tools: Coze bots take no function tools');
      expect(relay.mock.received.length).toBe(calls);
    });
  });

  describe('the Anthropic SDK on /v1/messages', () => {
    it('answers a message and streams one', async () => {
      const message = await relay.claude.messages.create({
        model: MODEL,
        max_tokens: 100,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello?' }],
      });
      expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: relay.mock.behaviour.reply })]);
      expect(message.usage).toMatchObject({ input_tokens: 31, output_tokens: 9 });
      expect(relay.sent().body.additional_messages).toEqual([
        { role: 'user', type: 'question', content_type: 'text', content: 'Be brief.\n\nHello?' },
      ]);
      const { text, final } = await relay.streamMessage({
        model: MODEL,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Stream?' }],
      });
      expect(text).toBe(relay.mock.behaviour.reply);
      expect(final.stop_reason).toBe('end_turn');
    });
  });

  describe('channel tests', () => {
    it('test a channel with one chat, billing nothing; a wrong token fails the test', async () => {
      const before = await relay.storedQuota();
      const tested = await relay.context.admin('GET', `/api/channel/test/${relay.channelIds.coze}?model=${MODEL}`);
      expect(tested.body).toMatchObject({ success: true, message: '' });
      expect(relay.sent().body).toMatchObject({ bot_id: BOT, stream: true });
      expect(await relay.storedQuota()).toBe(before);

      const wrong = relay.channelIds['coze-wrong-key'];
      const failed = await relay.context.admin('GET', `/api/channel/test/${wrong}?model=${WRONG_KEY_MODEL}`);
      expect(failed.body).toMatchObject({ success: false });
      expect(failed.body.message).toContain('authentication is invalid (Coze code 4100)');
    });
  });

  describe('errors ({code, msg})', () => {
    it('passes a rate limit sent with HTTP 200 on as 429 to both SDKs', async () => {
      relay.mock.behaviour.failWith = { code: 4013, msg: 'request frequency exceeds the limit' };
      await expectRateLimitedForBothSdks(relay, { openai: MODEL, anthropic: MODEL });
    });

    it('names a bot that does not exist as 404', async () => {
      relay.mock.behaviour.botId = '7111111111111111111';
      const refused = await failureOf(relay.openai.chat.completions.create({ model: MODEL, messages: [user('Hi')] }));
      expect(refused).toBeInstanceOf(OpenAI.NotFoundError);
      expect(String((refused as Error).message)).toContain(`bot ${BOT} does not exist (Coze code 4200)`);
    });

    it('fails a chat Coze reports as failed, whole and streamed', async () => {
      relay.mock.behaviour.failInChat = { code: 5000, msg: 'model call failed' };
      const whole = await failureOf(relay.openai.chat.completions.create({ model: MODEL, messages: [user('Hi')] }));
      expect(whole).toBeInstanceOf(OpenAI.APIError);
      expect(String((whole as Error).message)).toContain('model call failed (Coze code 5000)');
      const streamed = await failureOf(relay.streamChat({ model: MODEL, messages: [user('Hi')] }));
      expect(String((streamed as Error).message)).toContain('model call failed (code 5000)');
      const anthropic = await failureOf(
        relay.claude.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(anthropic).toBeInstanceOf(Anthropic.APIError);
    });

    it('names a wrong token without echoing it', async () => {
      const error = await failureOf(
        relay.openai.chat.completions.create({ model: WRONG_KEY_MODEL, messages: [user('Hi')] }),
      );
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(String((error as Error).message)).toContain('authentication is invalid (Coze code 4100)');
      expect(String((error as Error).message)).not.toContain('pat_not_the_token');
    });
  });
});
