import OpenAI from 'openai';
import { expect, it } from 'vitest';
import { expectStreamedWeatherToolCall, expectWeatherToolCall, failureOf } from '../../../../test/provider-relay.js';
import {
  BAIDU_APP,
  type BaiduMock,
  QIANFAN_API_KEY,
  startBaiduMock,
} from '../../../../test/providers/baidu/mock-upstream.js';
import { vector } from '../../../../test/providers/openai-vendor/mock-upstream.js';
import { describeVendorRelay } from '../../../../test/providers/openai-vendor/suite.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * Baidu Qianfan end to end. A console API key (`bce-v3/…`) reaches the v2 API in OpenAI's format
 * (the common checks); an application's `APIKey|SecretKey` is exchanged for an access token at
 * the channel's host (`/oauth/2.0/token`, once for many calls) and reaches the v1 ERNIE API,
 * translated both ways: chat whole and streamed, function calls, embeddings, its errors.
 */
const APP_KEY = `${BAIDU_APP.apiKey}|${BAIDU_APP.secretKey}`;
const ERNIE = 'ERNIE-4.0-8K';
const EMBED = 'Embedding-V1';

describeVendorRelay(
  'Baidu Qianfan channels through the relay',
  {
    type: providerType('baidu'),
    startMock: startBaiduMock,
    channel: { key: QIANFAN_API_KEY },
    wrongKey: 'bce-v3/ALTAK-wrong/0000',
    chatModel: 'ernie-4.5-turbo-128k',
    chatPath: '/v2/chat/completions',
    embeddings: { model: 'embedding-v1', path: '/v2/embeddings' },
    checkAuth(request) {
      expect(request.headers.authorization).toBe(`Bearer ${QIANFAN_API_KEY}`);
    },
    wrongKeyMessage: 'IAM Certification failed',
    badRequest: {
      error: {
        code: 'invalid_argument',
        message: 'the max_completion_tokens must be <= 12288',
        type: 'invalid_request_error',
      },
    },
    badRequestMessage: 'max_completion_tokens must be',
  },
  (relay) => {
    const mock = () => relay.mock as BaiduMock;
    const addAppChannel = (name: string, key: string, models: string[]) =>
      relay.addChannel(name, { type: providerType('baidu'), key, models: models.join(',') }, [2, 3]);

    it('exchanges application keys for one access token and answers v1 chats, whole and streamed', async () => {
      await addAppChannel('ernie-app', APP_KEY, [ERNIE, EMBED]);
      const before = mock().tokenRequests();
      // Concurrent first calls share one token exchange.
      const [first, second] = await Promise.all(
        ['One?', 'Two?'].map((content) =>
          relay.openai.chat.completions.create({
            model: ERNIE,
            messages: [
              { role: 'system', content: 'Be brief.' },
              { role: 'user', content },
            ],
            max_tokens: 50,
            frequency_penalty: 0.5,
          }),
        ),
      );
      expect(mock().tokenRequests() - before).toBe(1);
      expect(first?.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      expect(second?.usage).toMatchObject({ prompt_tokens: 23, completion_tokens: 9 });
      const sent = relay.sent();
      expect(sent.path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro');
      expect(sent.query.get('access_token')).toBe(BAIDU_APP.token);
      expect(sent.body).toMatchObject({ system: 'Be brief.', max_output_tokens: 50, penalty_score: 1 });
      expect(sent.body.messages).toHaveLength(1);
      const read = await relay.streamChat({ model: ERNIE, messages: [{ role: 'user', content: 'Stream.' }] });
      expect(read.text).toBe(relay.mock.behaviour.reply);
      expect(read.finish).toBe('stop');
      expect(relay.sent().body.stream).toBe(true);
      // The token is reused.
      expect(mock().tokenRequests() - before).toBe(1);
      const log = await relay.lastConsumeLog();
      expect(log).toMatchObject({ model_name: ERNIE, prompt_tokens: 23, completion_tokens: 9 });
    });

    it('carries function calls both ways on the v1 API', async () => {
      const tool = {
        type: 'function' as const,
        function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} } },
      };
      const completion = await relay.openai.chat.completions.create({
        model: ERNIE,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [tool],
      });
      expectWeatherToolCall(completion);
      expect(relay.sent().body.functions).toEqual([tool.function]);
      const call = completion.choices[0]?.message.tool_calls?.[0];
      if (call?.type !== 'function') throw new Error('no function call');
      const answer = await relay.openai.chat.completions.create({
        model: ERNIE,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: '{"temp": 21}' },
        ],
        tools: [tool],
      });
      expect(answer.choices[0]?.message.content).toBe(relay.mock.behaviour.reply);
      expect(relay.sent().body.messages).toEqual([
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: '', function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { role: 'function', name: call.id, content: '{"temp": 21}' },
      ]);
      expectStreamedWeatherToolCall(
        await relay.streamChat({ model: ERNIE, messages: [{ role: 'user', content: 'Weather?' }], tools: [tool] }),
      );
    });

    it('answers v1 embeddings as floats and as the SDK’s default base64', async () => {
      const floats = await relay.openai.embeddings.create({ model: EMBED, input: 'one', encoding_format: 'float' });
      expect(floats.data[0]?.embedding).toEqual(vector(0));
      expect(relay.sent()).toMatchObject({
        path: '/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1',
        body: { input: ['one'] },
      });
      const decoded = await relay.openai.embeddings.create({ model: EMBED, input: ['one', 'two'] });
      expect(decoded.data.map((item) => item.embedding)).toEqual([vector(0), vector(1)]);
    });

    it('reads v1 errors sent with HTTP 200, and names refused application keys', async () => {
      relay.mock.behaviour.failWith = {
        status: 200,
        body: { error_code: 336003, error_msg: 'the parameter temperature is invalid' },
      };
      const refused = await failureOf(
        relay.openai.chat.completions.create({ model: ERNIE, messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect(String((refused as Error).message)).toContain('the parameter temperature is invalid');
      relay.mock.behaviour.failWith = {
        status: 200,
        body: { error_code: 18, error_msg: 'Open api qps request limit reached' },
      };
      const limited = await failureOf(
        relay.openai.chat.completions.create({ model: ERNIE, messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
      relay.mock.behaviour.failWith = undefined;
      // v1 takes text only: an image is the request's fault, a 400 naming the field, and not sent.
      const calls = relay.mock.received.length;
      const image = await failureOf(
        relay.openai.chat.completions.create({
          model: ERNIE,
          messages: [
            { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
          ],
        }),
      );
      expect(image).toBeInstanceOf(OpenAI.BadRequestError);
      expect(String((image as Error).message)).toContain("messages: Baidu's v1 API takes text only");
      expect(relay.mock.received.length).toBe(calls);
      await addAppChannel('ernie-bad-app', `${BAIDU_APP.apiKey}|not-the-secret`, ['ERNIE-Speed-8K']);
      const error = await failureOf(
        relay.openai.chat.completions.create({ model: 'ERNIE-Speed-8K', messages: [{ role: 'user', content: 'Hi' }] }),
      );
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(String((error as Error).message)).toContain('unknown client id');
      expect(String((error as Error).message)).not.toContain('not-the-secret');
    });
  },
);
