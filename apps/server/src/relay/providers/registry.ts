import { type CompatibleVendor, compatibleVendors } from './compatible.js';

/** A setting beyond key and base URL that a channel type reads, as the console should ask for it. */
export interface ProviderExtraField {
  /** The channel column holding it: `other` (text) or `plugin` (JSON object). */
  name: 'other' | 'plugin';
  label: string;
  kind: 'text' | 'json' | 'select';
  required?: boolean;
  placeholder?: string;
  options?: string[];
}

/** One channel type: what it is called, where it connects by default and what settings it takes. */
export interface ProviderDefinition {
  type: number;
  slug: string;
  name: string;
  defaultBaseUrl: string;
  /** True when the generic OpenAI-compatible adapter serves it (see compatible.ts). */
  openAiCompatible: boolean;
  /** What the key field holds for this type, for the console's placeholder. */
  keyHint: string;
  extraFields: ProviderExtraField[];
  baseUrlRequired?: boolean;
  /** Compatible vendors only: put between the base URL and OpenAI paths. */
  apiPrefix?: string;
  balancePath?: string;
}

const apiVersion = (placeholder: string, required: boolean): ProviderExtraField => ({
  name: 'other',
  label: 'API version',
  kind: 'text',
  required,
  placeholder,
});
const plugin = (label: string, placeholder: string): ProviderExtraField => ({
  name: 'plugin',
  label,
  kind: 'json',
  placeholder,
});
const voiceMapping = plugin('Voice mapping (OpenAI voice → provider voice)', '{"voice": {"alloy": "…"}}');

type DistinctProvider = Omit<ProviderDefinition, 'openAiCompatible' | 'extraFields' | 'keyHint'> &
  Partial<Pick<ProviderDefinition, 'extraFields' | 'keyHint'>>;

/** Vendors with their own adapter folder: their wire format differs from OpenAI's. */
const distinctProviders: DistinctProvider[] = [
  {
    type: 3,
    slug: 'azure',
    name: 'Azure OpenAI',
    defaultBaseUrl: '',
    baseUrlRequired: true,
    keyHint: 'Azure OpenAI resource key',
    extraFields: [apiVersion('2024-10-21', true)],
  },
  {
    type: 11,
    slug: 'palm',
    name: 'Google PaLM2',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  },
  { type: 14, slug: 'anthropic', name: 'Anthropic Claude', defaultBaseUrl: 'https://api.anthropic.com' },
  {
    type: 15,
    slug: 'baidu',
    name: 'Baidu Qianfan (ERNIE)',
    defaultBaseUrl: 'https://aip.baidubce.com',
    keyHint: 'APIKey|SecretKey',
    extraFields: [plugin('Plugin parameters', '{"use_openai_api": {"enable": true}}')],
  },
  {
    type: 16,
    slug: 'zhipu',
    name: 'Zhipu ChatGLM',
    defaultBaseUrl: 'https://open.bigmodel.cn',
    keyHint: 'API key in the form id.secret',
    extraFields: [
      plugin(
        'Plugin parameters (knowledge base ID and prompt template, web search)',
        '{"retrieval": {"knowledge_id": "…", "prompt_template": "…"}}',
      ),
    ],
  },
  {
    type: 17,
    slug: 'ali',
    name: 'Alibaba Tongyi Qianwen',
    defaultBaseUrl: 'https://dashscope.aliyuncs.com',
    extraFields: [
      { name: 'other', label: 'Plugin header (X-DashScope-Plugin)', kind: 'text', placeholder: 'optional' },
      plugin('Plugin parameters', '{"use_openai_api": {"enable": true}}'),
    ],
  },
  {
    type: 18,
    slug: 'xunfei',
    name: 'iFlytek Spark',
    defaultBaseUrl: 'wss://spark-api.xf-yun.com',
    keyHint: 'APPID|APISecret|APIKey',
    extraFields: [apiVersion('v3.5', false)],
  },
  {
    type: 23,
    slug: 'tencent',
    name: 'Tencent Hunyuan (legacy)',
    defaultBaseUrl: 'https://hunyuan.cloud.tencent.com',
    keyHint: 'AppId|SecretId|SecretKey',
  },
  {
    type: 24,
    slug: 'azure-speech',
    name: 'Azure Speech',
    defaultBaseUrl: '',
    keyHint: 'Azure Speech resource key',
    extraFields: [
      { name: 'other', label: 'Region', kind: 'text', required: true, placeholder: 'eastus' },
      voiceMapping,
    ],
  },
  {
    type: 25,
    slug: 'gemini',
    name: 'Google Gemini',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    extraFields: [
      { name: 'other', label: 'API version', kind: 'select', options: ['v1beta', 'v1'], placeholder: 'v1beta' },
      plugin('Plugin parameters', '{"code_execution": {"enable": true}, "use_openai_api": {"enable": false}}'),
    ],
  },
  {
    type: 27,
    slug: 'minimax',
    name: 'MiniMax',
    defaultBaseUrl: 'https://api.minimax.chat',
    extraFields: [voiceMapping],
  },
  {
    type: 32,
    slug: 'bedrock',
    name: 'Amazon Bedrock',
    defaultBaseUrl: '',
    keyHint: 'Region|AccessKeyID|SecretAccessKey[|SessionToken] or Region|APIToken',
  },
  {
    type: 34,
    slug: 'midjourney',
    name: 'Midjourney (proxy)',
    defaultBaseUrl: '',
    baseUrlRequired: true,
    keyHint: 'mj-api-secret of the Midjourney proxy',
  },
  {
    type: 35,
    slug: 'cloudflare',
    name: 'Cloudflare AI',
    defaultBaseUrl: 'https://api.cloudflare.com',
    keyHint: 'ACCOUNT_ID|API_TOKEN',
  },
  { type: 36, slug: 'cohere', name: 'Cohere', defaultBaseUrl: 'https://api.cohere.ai' },
  { type: 37, slug: 'stability', name: 'Stability AI', defaultBaseUrl: 'https://api.stability.ai' },
  { type: 38, slug: 'coze', name: 'Coze', defaultBaseUrl: 'https://api.coze.com' },
  {
    type: 40,
    slug: 'hunyuan',
    name: 'Tencent Hunyuan',
    defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com',
    keyHint: 'SecretId|SecretKey',
  },
  { type: 41, slug: 'suno', name: 'Suno (proxy)', defaultBaseUrl: '', baseUrlRequired: true },
  {
    type: 42,
    slug: 'vertexai',
    name: 'Google Vertex AI',
    defaultBaseUrl: '',
    keyHint: 'Service-account JSON',
    extraFields: [
      { name: 'other', label: 'Region|ProjectID', kind: 'text', required: true, placeholder: 'us-central1|my-project' },
    ],
  },
  { type: 51, slug: 'recraft', name: 'Recraft AI', defaultBaseUrl: 'https://external.api.recraft.ai' },
  { type: 52, slug: 'replicate', name: 'Replicate', defaultBaseUrl: 'https://api.replicate.com' },
  {
    type: 53,
    slug: 'kling',
    name: 'Kling',
    defaultBaseUrl: 'https://api.klingai.com',
    keyHint: 'accessKey|secretKey, or a ready token',
  },
  {
    type: 54,
    slug: 'azure-databricks',
    name: 'Azure Databricks',
    defaultBaseUrl: '',
    baseUrlRequired: true,
    keyHint: 'Databricks personal access token',
  },
  {
    type: 55,
    slug: 'azure-v1',
    name: 'Azure OpenAI (v1 API)',
    defaultBaseUrl: '',
    baseUrlRequired: true,
    keyHint: 'Azure OpenAI resource key',
    extraFields: [apiVersion('preview', false)],
  },
];

/** Plugin settings that compatible vendors read; the rest take none. */
const compatibleExtraFields: Record<number, ProviderExtraField[]> = {
  8: [plugin('Per-endpoint paths (relay mode → path, or "disable")', '{"customize": {"1": "/v1/chat/completions"}}')],
  20: [plugin('Routing preferences', '{"other": {"provider": {"order": ["…"]}}}')],
};

function fromCompatible(vendor: CompatibleVendor): ProviderDefinition {
  return {
    ...vendor,
    openAiCompatible: true,
    keyHint: vendor.keyHint ?? 'API key',
    extraFields: compatibleExtraFields[vendor.type] ?? [],
  };
}

function fromDistinct(provider: DistinctProvider): ProviderDefinition {
  return { keyHint: 'API key', extraFields: [], ...provider, openAiCompatible: false };
}

/** Every usable channel type; type 0 (unknown) and the retired ids are deliberately absent. */
export const providerRegistry: ReadonlyMap<number, ProviderDefinition> = new Map(
  [...compatibleVendors.map(fromCompatible), ...distinctProviders.map(fromDistinct)]
    .sort((left, right) => left.type - right.type)
    .map((provider) => [provider.type, provider]),
);

export function providerByType(type: number): ProviderDefinition | undefined {
  return providerRegistry.get(type);
}
