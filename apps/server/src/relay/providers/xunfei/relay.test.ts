import { expect, it } from 'vitest';
import { describeVendorRelay } from '../../../../test/providers/openai-vendor/suite.js';
import { SPARK, startSparkMock } from '../../../../test/providers/xunfei/mock-upstream.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * iFlytek Spark end to end over its HTTP API: the reference's key `APPID|APISecret|APIKey` sent
 * as `APIKey:APISecret`, `SparkDesk-<version>` names sent as the HTTP API's models, x1 at /v2.
 */
const KEY = `${SPARK.appId}|${SPARK.apiSecret}|${SPARK.apiKey}`;

describeVendorRelay(
  'iFlytek Spark channels through the relay',
  {
    type: providerType('xunfei'),
    startMock: startSparkMock,
    channel: { key: KEY },
    wrongKey: `${SPARK.appId}|wrong-secret|${SPARK.apiKey}`,
    chatModel: 'SparkDesk-v3.5',
    upstreamChatModel: 'generalv3.5',
    chatPath: '/v1/chat/completions',
    checkAuth(request) {
      expect(request.headers.authorization).toBe(`Bearer ${SPARK.apiKey}:${SPARK.apiSecret}`);
    },
    wrongKeyMessage: 'invalid user',
    badRequest: {
      error: { message: 'parameter error: max_tokens out of range', type: 'api_error', param: null, code: null },
    },
    badRequestMessage: 'max_tokens out of range',
  },
  (relay) => {
    it('sends x1 to /v2 and an APIPassword as it is; plain SparkDesk takes the channel’s version', async () => {
      await relay.addChannel(
        'spark-password',
        { type: providerType('xunfei'), key: SPARK.password, models: 'x1,SparkDesk', other: 'v4.0', priority: 10 },
        [1, 1],
      );
      await relay.openai.chat.completions.create({ model: 'x1', messages: [{ role: 'user', content: 'Think.' }] });
      expect(relay.sent()).toMatchObject({ path: '/v2/chat/completions', body: { model: 'x1' } });
      expect(relay.sent().headers.authorization).toBe(`Bearer ${SPARK.password}`);
      await relay.openai.chat.completions.create({ model: 'SparkDesk', messages: [{ role: 'user', content: 'Hi' }] });
      expect(relay.sent()).toMatchObject({ path: '/v1/chat/completions', body: { model: '4.0Ultra' } });
    });
  },
);
