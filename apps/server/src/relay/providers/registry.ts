import { type BalanceReaderName, type CompatibleVendor, compatibleVendors } from './compatible.js';

export type { BalanceReaderName } from './compatible.js';

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

/** The adapters of adapters.ts, by name; `openai` serves every upstream that speaks OpenAI's format. */
export type AdapterName = 'openai' | 'anthropic' | 'gemini' | 'bedrock' | 'cohere' | 'vertex';
/** Client surfaces whose requests a type takes unchanged (a native pass-through) instead of translated. */
export type NativeSurface = 'anthropic' | 'gemini' | 'responses';
/** How an OpenAI-format request is addressed and authenticated (openai/request.ts). */
export type OpenAiLayout = 'bearer' | 'azure' | 'azure-v1';
/**
 * What a channel test sends (channel-health/probe.ts): OpenAI-format requests chosen by the
 * model's kind, or one chat through the type's adapter.
 */
export type TestProbe = 'openai' | 'adapter-chat';

/**
 * One channel type and everything the gateway does with it: name and defaults for the console,
 * the adapter the relay calls, the client surfaces it passes through unchanged, the balance
 * query, the channel test and the model-list fetch. A type without an adapter is still listed so
 * its existing channels load, but new channels of it are refused and the relay does not call it.
 */
export interface ProviderDefinition {
  type: number;
  slug: string;
  name: string;
  /** The maker named as the owner of this type's models in prices (`model_owned_by`); absent: owns none. */
  owner?: string;
  defaultBaseUrl: string;
  /** What the key field holds for this type, for the console's placeholder. */
  keyHint: string;
  extraFields: ProviderExtraField[];
  baseUrlRequired?: boolean;
  /** Absent: the gateway cannot relay to this type yet. */
  adapter?: AdapterName;
  /** OpenAI-format types (adapter `openai`): where requests go and how they authenticate. */
  openAiLayout?: OpenAiLayout;
  /** OpenAI-format types: put between the base URL and OpenAI paths (`/v1` unless said otherwise). */
  apiPrefix?: string;
  native: readonly NativeSurface[];
  balance?: { path: string; reader: BalanceReaderName };
  test?: TestProbe;
  /** Whether the upstream's model list can be fetched (OpenAI's `GET {apiPrefix}/models`). */
  modelList: boolean;
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

type DistinctProvider = Omit<ProviderDefinition, 'extraFields' | 'keyHint' | 'native' | 'modelList'> &
  Partial<Pick<ProviderDefinition, 'extraFields' | 'keyHint' | 'native'>>;

/** Azure's two APIs: OpenAI's format at Azure's addresses, and OpenAI's Responses API. */
const azureLike = { adapter: 'openai', native: ['responses'], test: 'openai' } as const;
/** Types with a translating adapter of their own are tested with one chat through it. */
const adapted = (adapter: AdapterName, native: NativeSurface[] = []) =>
  ({ adapter, native, test: 'adapter-chat' }) as const;

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
    ...azureLike,
    openAiLayout: 'azure',
  },
  {
    type: 11,
    slug: 'palm',
    name: 'Google PaLM2',
    owner: 'Google PaLM',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  },
  {
    type: 14,
    slug: 'anthropic',
    name: 'Anthropic Claude',
    owner: 'Anthropic',
    defaultBaseUrl: 'https://api.anthropic.com',
    ...adapted('anthropic', ['anthropic']),
  },
  {
    type: 15,
    slug: 'baidu',
    name: 'Baidu Qianfan (ERNIE)',
    owner: 'Baidu',
    defaultBaseUrl: 'https://aip.baidubce.com',
    keyHint: 'APIKey|SecretKey',
    extraFields: [plugin('Plugin parameters', '{"use_openai_api": {"enable": true}}')],
  },
  {
    type: 16,
    slug: 'zhipu',
    name: 'Zhipu ChatGLM',
    owner: 'Zhipu',
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
    owner: 'Qwen',
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
    owner: 'Spark',
    defaultBaseUrl: 'wss://spark-api.xf-yun.com',
    keyHint: 'APPID|APISecret|APIKey',
    extraFields: [apiVersion('v3.5', false)],
  },
  {
    type: 23,
    slug: 'tencent',
    name: 'Tencent Hunyuan (legacy)',
    owner: 'Tencent',
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
    owner: 'Google Gemini',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    ...adapted('gemini', ['gemini']),
    extraFields: [
      { name: 'other', label: 'API version', kind: 'select', options: ['v1beta', 'v1'], placeholder: 'v1beta' },
      plugin('Plugin parameters', '{"code_execution": {"enable": true}, "use_openai_api": {"enable": false}}'),
    ],
  },
  {
    type: 32,
    slug: 'bedrock',
    name: 'Amazon Bedrock',
    defaultBaseUrl: '',
    keyHint: 'Region|AccessKeyID|SecretAccessKey[|SessionToken] or Region|APIToken',
    // Claude models only; the Anthropic surface passes through for them.
    ...adapted('bedrock', ['anthropic']),
  },
  {
    type: 34,
    slug: 'midjourney',
    name: 'Midjourney (proxy)',
    owner: 'Midjourney',
    defaultBaseUrl: '',
    baseUrlRequired: true,
    keyHint: 'mj-api-secret of the Midjourney proxy',
  },
  {
    type: 35,
    slug: 'cloudflare',
    name: 'Cloudflare AI',
    owner: 'Cloudflare AI',
    defaultBaseUrl: 'https://api.cloudflare.com',
    keyHint: 'ACCOUNT_ID|API_TOKEN',
  },
  {
    type: 36,
    slug: 'cohere',
    name: 'Cohere',
    owner: 'Cohere',
    defaultBaseUrl: 'https://api.cohere.ai',
    ...adapted('cohere'),
  },
  {
    type: 37,
    slug: 'stability',
    name: 'Stability AI',
    owner: 'Stability AI',
    defaultBaseUrl: 'https://api.stability.ai',
  },
  { type: 38, slug: 'coze', name: 'Coze', owner: 'Coze', defaultBaseUrl: 'https://api.coze.com' },
  {
    type: 40,
    slug: 'hunyuan',
    name: 'Tencent Hunyuan',
    owner: 'Hunyuan',
    defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com',
    keyHint: 'SecretId|SecretKey',
  },
  { type: 41, slug: 'suno', name: 'Suno (proxy)', owner: 'Suno', defaultBaseUrl: '', baseUrlRequired: true },
  {
    type: 42,
    slug: 'vertexai',
    name: 'Google Vertex AI',
    defaultBaseUrl: '',
    keyHint: 'Service-account JSON',
    extraFields: [
      { name: 'other', label: 'Region|ProjectID', kind: 'text', required: true, placeholder: 'us-central1|my-project' },
    ],
    // Claude and Gemini models, each passed through on its own surface.
    ...adapted('vertex', ['anthropic', 'gemini']),
  },
  {
    type: 51,
    slug: 'recraft',
    name: 'Recraft AI',
    owner: 'RecraftAI',
    defaultBaseUrl: 'https://external.api.recraft.ai',
  },
  { type: 52, slug: 'replicate', name: 'Replicate', defaultBaseUrl: 'https://api.replicate.com' },
  {
    type: 53,
    slug: 'kling',
    name: 'Kling',
    owner: 'Kling',
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
    ...azureLike,
    openAiLayout: 'azure-v1',
  },
];

/** Plugin settings that compatible vendors read, by slug; the rest take none. */
const compatibleExtraFields: Record<string, ProviderExtraField[]> = {
  custom: [
    plugin('Per-endpoint paths (relay mode → path, or "disable")', '{"customize": {"1": "/v1/chat/completions"}}'),
  ],
  openrouter: [plugin('Routing preferences', '{"other": {"provider": {"order": ["…"]}}}')],
  minimax: [voiceMapping],
};

/** OpenAI itself also serves the Responses API; the other compatible vendors are translated to it. */
const RESPONSES_VENDORS: ReadonlySet<string> = new Set(['openai']);

function fromCompatible(vendor: CompatibleVendor): ProviderDefinition {
  return {
    ...vendor,
    keyHint: vendor.keyHint ?? 'API key',
    extraFields: compatibleExtraFields[vendor.slug] ?? [],
    adapter: 'openai',
    openAiLayout: 'bearer',
    native: RESPONSES_VENDORS.has(vendor.slug) ? ['responses'] : [],
    test: 'openai',
    modelList: true,
  };
}

function fromDistinct(provider: DistinctProvider): ProviderDefinition {
  return { keyHint: 'API key', extraFields: [], native: [], ...provider, modelList: false };
}

/** Every channel type the reference defines; type 0 (unknown) and the retired ids are deliberately absent. */
export const providerRegistry: ReadonlyMap<number, ProviderDefinition> = new Map(
  [...compatibleVendors.map(fromCompatible), ...distinctProviders.map(fromDistinct)]
    .sort((left, right) => left.type - right.type)
    .map((provider) => [provider.type, provider]),
);

export function providerByType(type: number): ProviderDefinition | undefined {
  return providerRegistry.get(type);
}

const typeBySlug = new Map([...providerRegistry.values()].map((provider) => [provider.slug, provider.type]));

/** The type id of a slug, for code that must name one type (seed data); an unknown slug is a programming error. */
export function providerType(slug: string): number {
  const type = typeBySlug.get(slug);
  if (type === undefined) throw new Error(`no channel type has the slug '${slug}'`);
  return type;
}

/** Whether new channels of this type can be created and relayed to: its entry names an adapter. */
export const isRelayable = (provider: ProviderDefinition | undefined): boolean => provider?.adapter !== undefined;

/** Whether a channel of `type` takes a client surface's requests unchanged. */
export const passesThrough = (type: number, surface: NativeSurface): boolean =>
  providerRegistry.get(type)?.native.includes(surface) ?? false;
