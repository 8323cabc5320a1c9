import { jwtVerify } from 'jose';
import { expect, it } from 'vitest';
import { describeVendorRelay } from '../../../../test/providers/openai-vendor/suite.js';
import { cogViewUrl, IMAGES_PATH, startZhipuMock, ZHIPU_KEY } from '../../../../test/providers/zhipu/mock-upstream.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * Zhipu BigModel end to end: a `zhipu` channel with an `id.secret` key reaches the v4 API with a
 * signed token (verified by the mock with the secret), never the key; the channel's plugin
 * settings add the knowledge-base and web-search tools to chats; CogView makes images.
 */
const KEY = `${ZHIPU_KEY.id}.${ZHIPU_KEY.secret}`;
const plugin = {
  retrieval: { knowledge_id: 'kb-42', prompt_template: 'From {{knowledge}} answer {{question}}' },
  web_search: { enable: true, search_result: true },
};

describeVendorRelay(
  'Zhipu channels through the relay',
  {
    type: providerType('zhipu'),
    startMock: startZhipuMock,
    channel: { key: KEY },
    wrongKey: `${ZHIPU_KEY.id}.not-the-secret`,
    chatModel: 'glm-4-plus',
    chatPath: '/api/paas/v4/chat/completions',
    embeddings: { model: 'embedding-3', path: '/api/paas/v4/embeddings' },
    async checkAuth(request) {
      const token = String(request.headers.authorization).replace(/^Bearer /, '');
      expect(token).not.toContain(ZHIPU_KEY.secret);
      const { payload } = await jwtVerify(token, new TextEncoder().encode(ZHIPU_KEY.secret));
      expect(payload.api_key).toBe(ZHIPU_KEY.id);
    },
    wrongKeyMessage: 'Authorization Token非法',
    badRequest: { error: { code: '1214', message: 'messages 参数非法。请检查文档。' } },
    badRequestMessage: 'messages 参数非法',
  },
  (relay) => {
    it('adds the channel’s knowledge base and web search as Zhipu tools', async () => {
      const id = await relay.context.addChannel({
        name: 'zhipu-plugins',
        type: providerType('zhipu'),
        key: KEY,
        base_url: relay.mock.url,
        models: 'glm-4-kb',
        plugin: JSON.stringify(plugin),
        priority: 10,
      });
      await relay.context.setPrice('glm-4-kb', 1, 1);
      await relay.openai.chat.completions.create({ model: 'glm-4-kb', messages: [{ role: 'user', content: 'Q?' }] });
      expect(relay.sent().body.tools).toEqual([
        { type: 'retrieval', retrieval: plugin.retrieval },
        { type: 'web_search', web_search: plugin.web_search },
      ]);
      expect(id).toBeGreaterThan(0);
    });

    it('makes CogView images at the v4 images path with a signed token, billed per image', async () => {
      const id = await relay.addChannel(
        'zhipu-cogview',
        { type: providerType('zhipu'), key: KEY, models: 'cogview-4' },
        [2, 3],
      );
      const before = await relay.storedQuota();
      const prompt = 'a lighthouse at dusk';
      const answer = await relay.openai.images.generate({ model: 'cogview-4', prompt, size: '1024x1024' });
      expect(answer.data?.map((image) => image.url)).toEqual([cogViewUrl('cogview-4', prompt)]);
      const sent = relay.sent();
      expect(sent.path).toBe(IMAGES_PATH);
      expect(sent.body).toMatchObject({ model: 'cogview-4', prompt, size: '1024x1024' });
      const { payload } = await jwtVerify(
        String(sent.headers.authorization).replace(/^Bearer /, ''),
        new TextEncoder().encode(ZHIPU_KEY.secret),
      );
      expect(payload.api_key).toBe(ZHIPU_KEY.id);
      const log = await relay.lastConsumeLog();
      expect(log).toMatchObject({ channel_id: id, model_name: 'cogview-4', prompt_tokens: 1000, quota: 2000 });
      expect(before - (await relay.storedQuota())).toBe(2000);
    });
  },
);
