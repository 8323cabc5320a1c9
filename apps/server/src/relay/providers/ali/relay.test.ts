import { expect, it } from 'vitest';
import { DASHSCOPE_KEY, startDashScopeMock } from '../../../../test/providers/ali/mock-upstream.js';
import { describeVendorRelay } from '../../../../test/providers/openai-vendor/suite.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * Alibaba DashScope end to end through its OpenAI-compatible mode: the bearer key, the channel's
 * `other` as the X-DashScope-Plugin header, and `plugin.enable_search` turning web search on.
 */
describeVendorRelay(
  'Alibaba Qwen channels through the relay',
  {
    type: providerType('ali'),
    startMock: startDashScopeMock,
    channel: { key: DASHSCOPE_KEY },
    wrongKey: 'sk-not-the-dashscope-key',
    chatModel: 'qwen-plus',
    chatPath: '/compatible-mode/v1/chat/completions',
    embeddings: { model: 'text-embedding-v3', path: '/compatible-mode/v1/embeddings' },
    checkAuth(request) {
      expect(request.headers.authorization).toBe(`Bearer ${DASHSCOPE_KEY}`);
      expect(request.headers['x-dashscope-plugin']).toBeUndefined();
    },
    wrongKeyMessage: 'Incorrect API key provided',
    badRequest: {
      error: {
        message: 'Range of input length should be [1, 30720]',
        type: 'invalid_request_error',
        code: 'invalid_parameter_error',
      },
    },
    badRequestMessage: 'Range of input length',
  },
  (relay) => {
    it('sends the plugin header and turns on web search from the channel’s settings', async () => {
      await relay.addChannel(
        'qwen-search',
        {
          type: providerType('ali'),
          key: DASHSCOPE_KEY,
          models: 'qwen-max-search',
          other: '{"pdf_extracter":{}}',
          plugin: JSON.stringify({ enable_search: true, search_options: { forced_search: true } }),
        },
        [1, 1],
      );
      await relay.openai.chat.completions.create({
        model: 'qwen-max-search',
        messages: [{ role: 'user', content: 'News?' }],
      });
      expect(relay.sent().headers['x-dashscope-plugin']).toBe('{"pdf_extracter":{}}');
      expect(relay.sent().body).toMatchObject({ enable_search: true, search_options: { forced_search: true } });
    });
  },
);
