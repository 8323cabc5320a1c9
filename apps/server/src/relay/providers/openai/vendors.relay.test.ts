import { describe, expect, it } from 'vitest';
import { startMockUpstream } from '../../../../test/mocks/openai-upstream.js';
import { useProviderRelay, useTestConsumeLog } from '../../../../test/provider-relay.js';
import { startVendorMock, type VendorRequest } from '../../../../test/providers/openai-vendor/mock-upstream.js';
import { describeVendorRelay } from '../../../../test/providers/openai-vendor/suite.js';
import { providerByType, providerType } from '../../../domain/channel-types/registry.js';

/**
 * Every OpenAI-format channel type without a folder of its own, end to end through the official
 * `openai` SDK: a channel of the type points at a local mock and serves what the type serves,
 * at the vendor's path with its credentials, billed on the prices and logged.
 *
 * Chat vendors run the shared vendor suite (chat whole and streamed, billed and logged; tools;
 * the Anthropic translation; errors; the channel test). The image, embedding and rerank vendors
 * (Ideogram, Flux, Jina, Rerank) are driven below on the OpenAI mock, which serves those paths.
 */

interface ChatVendor {
  slug: string;
  chatModel: string;
  /** Where the vendor serves chat, as a path on its base URL. */
  chatPath: string;
  /** The vendor's embeddings model and path, where it serves them. */
  embeddings?: { model: string; path: string };
  /** Azure's key header and `api-version` query instead of a bearer key. */
  azure?: { apiVersion: string; other: string };
  /** Channel fields besides the key. */
  channel?: Record<string, unknown>;
}

const CHAT_VENDORS: ChatVendor[] = [
  { slug: '360', chatModel: '360gpt-pro', chatPath: '/v1/chat/completions' },
  {
    slug: 'openrouter',
    chatModel: 'openai/gpt-4o-mini',
    chatPath: '/v1/chat/completions',
    channel: { plugin: JSON.stringify({ other: { provider: { order: ['DeepInfra'] } } }) },
  },
  { slug: 'baichuan', chatModel: 'Baichuan4', chatPath: '/v1/chat/completions' },
  { slug: 'deepseek', chatModel: 'deepseek-chat', chatPath: '/v1/chat/completions' },
  { slug: 'moonshot', chatModel: 'moonshot-v1-8k', chatPath: '/v1/chat/completions' },
  {
    slug: 'mistral',
    chatModel: 'mistral-small-latest',
    chatPath: '/v1/chat/completions',
    embeddings: { model: 'mistral-embed', path: '/v1/embeddings' },
  },
  { slug: 'groq', chatModel: 'llama-3.3-70b-versatile', chatPath: '/v1/chat/completions' },
  { slug: 'lingyi', chatModel: 'yi-lightning', chatPath: '/v1/chat/completions' },
  {
    slug: 'ollama',
    chatModel: 'llama3.2',
    chatPath: '/v1/chat/completions',
    embeddings: { model: 'nomic-embed-text', path: '/v1/embeddings' },
  },
  { slug: 'llama', chatModel: 'Llama-4-Maverick-17B-128E-Instruct-FP8', chatPath: '/v1/chat/completions' },
  {
    slug: 'siliconflow',
    chatModel: 'Qwen/Qwen2.5-7B-Instruct',
    chatPath: '/v1/chat/completions',
    embeddings: { model: 'BAAI/bge-m3', path: '/v1/embeddings' },
  },
  // GitHub Models serves OpenAI's paths at the root.
  {
    slug: 'github',
    chatModel: 'Phi-4',
    chatPath: '/chat/completions',
    embeddings: { model: 'text-embedding-3-large', path: '/embeddings' },
  },
  { slug: 'xai', chatModel: 'grok-3-mini', chatPath: '/v1/chat/completions' },
  // Azure's v1 API: OpenAI's paths under /openai, the `api-key` header; `preview` when no version is set.
  {
    slug: 'azure-v1',
    chatModel: 'gpt-4.1-deployment',
    chatPath: '/openai/v1/chat/completions',
    embeddings: { model: 'text-embedding-3-small-deployment', path: '/openai/v1/embeddings' },
    azure: { apiVersion: 'preview', other: '' },
  },
];

const keyOf = (slug: string) => `sk-${slug}-0123456789`;

/** Whether a request carries the vendor's credentials, in its form. */
function credentialsOf(vendor: ChatVendor, request: VendorRequest): string | undefined {
  if (vendor.azure) return request.headers['api-key'] as string | undefined;
  return String(request.headers.authorization ?? '').replace(/^Bearer /, '') || undefined;
}

for (const vendor of CHAT_VENDORS) {
  const type = providerType(vendor.slug);
  const key = keyOf(vendor.slug);
  describeVendorRelay(
    `${providerByType(type)?.name} (type ${type}) channels through the relay`,
    {
      type,
      startMock: () =>
        startVendorMock({
          chatPaths: [vendor.chatPath],
          embeddingsPath: vendor.embeddings?.path,
          authorize: (request) => (credentialsOf(vendor, request) === key ? undefined : 'Incorrect API key provided.'),
        }),
      channel: { key, ...(vendor.azure ? { other: vendor.azure.other } : {}), ...vendor.channel },
      wrongKey: `sk-${vendor.slug}-not-the-key`,
      chatModel: vendor.chatModel,
      chatPath: vendor.chatPath,
      embeddings: vendor.embeddings,
      checkAuth(request) {
        if (vendor.azure) {
          expect(request.headers['api-key']).toBe(key);
          expect(request.headers.authorization).toBeUndefined();
          expect(request.query.get('api-version')).toBe(vendor.azure.apiVersion);
        } else {
          expect(request.headers.authorization).toBe(`Bearer ${key}`);
        }
      },
      wrongKeyMessage: 'Incorrect API key provided',
      badRequest: {
        error: { message: 'temperature must be at most 2', type: 'invalid_request_error', code: 'invalid_value' },
      },
      badRequestMessage: 'temperature must be at most 2',
    },
    vendor.slug === 'openrouter'
      ? (relay) => {
          it('sends the channel’s routing preference as the body’s provider', async () => {
            await relay.openai.chat.completions.create({
              model: vendor.chatModel,
              messages: [{ role: 'user', content: 'Hi' }],
            });
            expect(relay.sent().body.provider).toEqual({ order: ['DeepInfra'] });
          });
        }
      : undefined,
  );
}

/** Per-token prices of the media vendors' models: integers, so the charge is exact. */
const PRICE = [2, 3] as const;
const IMAGE_VENDORS = [
  { slug: 'ideogram', model: 'ideogram-v2' },
  { slug: 'flux', model: 'flux-1.1-pro' },
] as const;
const JINA_EMBEDDING = 'jina-embeddings-v3';
const JINA_RERANK = 'jina-reranker-v2-base-multilingual';
const RERANK = 'bge-reranker-v2-m3';

interface RerankAnswer {
  results: Array<{ index: number; relevance_score: number }>;
}

describe('image, embedding and rerank vendors through the relay', () => {
  const relay = useProviderRelay({
    startMock: async () => {
      const mock = await startMockUpstream();
      return Object.assign(mock, {
        reset() {
          mock.received.length = 0;
        },
      });
    },
    channels: (mock) => ({
      ...Object.fromEntries(
        IMAGE_VENDORS.map(({ slug, model }) => [
          slug,
          { type: providerType(slug), key: mock.behaviour.apiKey, models: model },
        ]),
      ),
      jina: { type: providerType('jina'), key: mock.behaviour.apiKey, models: `${JINA_EMBEDDING},${JINA_RERANK}` },
      rerank: { type: providerType('rerank'), key: mock.behaviour.apiKey, models: RERANK },
    }),
    prices: Object.fromEntries(
      [...IMAGE_VENDORS.map(({ model }) => model), JINA_EMBEDDING, JINA_RERANK, RERANK].map((model) => [model, PRICE]),
    ),
  });
  const logOf = useTestConsumeLog(relay);
  // The mock reports 12 prompt tokens for embeddings and rerank.
  const promptTokens = () => relay.mock.behaviour.usage.prompt_tokens;

  /** The last call reached `path` with the channel's bearer key and was billed `quota` on `channel`'s log row. */
  async function expectServed(channel: string, model: string, path: string, before: number, quota: number) {
    const sent = relay.sent();
    expect(sent.path).toBe(path);
    expect(sent.authorization).toBe(`Bearer ${relay.mock.behaviour.apiKey}`);
    expect(sent.body.model).toBe(model);
    const log = await logOf(model);
    expect(log).toMatchObject({ channel_id: relay.channelIds[channel], model_name: model });
    expect(quota).toBeGreaterThan(0);
    expect(Number(log.quota)).toBe(quota);
    expect(before - (await relay.storedQuota())).toBe(quota);
  }

  for (const { slug, model } of IMAGE_VENDORS) {
    it(`makes images on ${slug} (type ${providerType(slug)}), billed 1000 prompt tokens an image`, async () => {
      const before = await relay.storedQuota();
      const answer = await relay.openai.images.generate({ model, prompt: 'a lighthouse at dusk', n: 2 });
      expect(answer.data?.map((image) => image.b64_json)).toEqual([
        Buffer.from('png 0').toString('base64'),
        Buffer.from('png 1').toString('base64'),
      ]);
      expect(relay.sent().body).toMatchObject({ prompt: 'a lighthouse at dusk', n: 2 });
      await expectServed(slug, model, '/v1/images/generations', before, 2 * 1000 * PRICE[0]);
      expect(await logOf(model)).toMatchObject({ prompt_tokens: 2000 });
    });
  }

  it('answers embeddings on a `jina` channel, billed on its usage', async () => {
    const before = await relay.storedQuota();
    const answer = await relay.openai.embeddings.create({
      model: JINA_EMBEDDING,
      input: ['one', 'two'],
      encoding_format: 'float',
    });
    expect(answer.data.map((item) => item.embedding)).toEqual([
      [0.1, 0.2, 0.3],
      [0.1, 0.2, 0.3],
    ]);
    expect(relay.sent().body.input).toEqual(['one', 'two']);
    await expectServed('jina', JINA_EMBEDDING, '/v1/embeddings', before, promptTokens() * PRICE[0]);
  });

  const rerankCases = [
    { channel: 'jina', model: JINA_RERANK, usage: 'total_tokens' as const, title: 'a `jina` channel' },
    { channel: 'rerank', model: RERANK, usage: 'prompt_tokens' as const, title: 'a `rerank` channel' },
  ];
  for (const { channel, model, usage, title } of rerankCases) {
    it(`reranks on ${title} through the SDK's raw post to /v1/rerank, billed on its usage`, async () => {
      relay.mock.behaviour.rerankUsage = usage;
      const before = await relay.storedQuota();
      // The SDK has no rerank method: its generic post sends the documented body with the user's key.
      const answer = await relay.openai.post<RerankAnswer>('/rerank', {
        body: { model, query: 'capital of France', documents: ['Paris', 'Berlin', 'Madrid'], top_n: 2 },
      });
      expect(answer.results).toEqual([
        { index: 0, relevance_score: 1 },
        { index: 1, relevance_score: 0.5 },
      ]);
      expect(relay.sent().body).toMatchObject({ query: 'capital of France', top_n: 2 });
      await expectServed(channel, model, '/v1/rerank', before, promptTokens() * PRICE[0]);
      relay.mock.behaviour.rerankUsage = 'prompt_tokens';
    });
  }
});
