import {
  type BalanceReaderName as CompatibleBalanceReader,
  type CompatibleLayout,
  type CompatibleVendor,
  compatibleVendors,
} from './compatible.js';

/** How a balance answer is read (channel-health/balance.ts): the compatible vendors' readers, Recraft's and Stability's. */
export type BalanceReaderName = CompatibleBalanceReader | 'recraft' | 'stability';

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

/** The adapters of relay/providers/adapters.ts, by name; `openai` serves every upstream that speaks OpenAI's format. */
export type AdapterName =
  | 'openai'
  | 'anthropic'
  | 'gemini'
  | 'bedrock'
  | 'cohere'
  | 'vertex'
  | 'azure-speech'
  | 'recraft'
  | 'minimax'
  | 'baidu'
  | 'hunyuan'
  | 'coze'
  | 'stability'
  | 'replicate'
  | 'cloudflare';
/** Client surfaces whose requests a type takes unchanged (a native pass-through) instead of translated. */
export type NativeSurface = 'anthropic' | 'gemini' | 'responses';
/** How an OpenAI-format request is addressed and authenticated (openai/request.ts `layouts`). */
export type OpenAiLayout = CompatibleLayout | 'azure' | 'azure-v1' | 'qianfan';
/**
 * What a channel test sends (channel-health/probe.ts): OpenAI-format requests chosen by the
 * model's kind, one chat through the type's adapter, (speech-only types) a two-character
 * speech request through it, or (image-only types) one image, whatever the model.
 */
export type TestProbe = 'openai' | 'adapter-chat' | 'speech' | 'image';

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
  /**
   * An asynchronous-task upstream (relay/tasks/): its channels take `/mj`, `/suno` or `/kling`
   * tasks, not the OpenAI surfaces.
   */
  tasks?: 'midjourney' | 'suno' | 'kling';
  /** The vendor shut this API down: stored channels load, none is created, and docs/gateway.md says what replaces it. */
  retired?: string;
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
  // Retired: Google shut the PaLM API down (Gemini, `gemini`, replaces it), and Tencent its old
  // Hunyuan API (`hunyuan` is the current one). Listed without an adapter so stored channels load.
  {
    type: 11,
    slug: 'palm',
    name: 'Google PaLM2',
    owner: 'Google PaLM',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    retired: 'Google shut the PaLM API down; use Google Gemini (25)',
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
    // The v2 API (OpenAI's format) for console API keys; `APIKey|SecretKey` keys go to the v1 API
    // (https://aip.baidubce.com when the base URL is this default), chosen by the key (baidu/).
    defaultBaseUrl: 'https://qianfan.baidubce.com',
    keyHint: 'API key (bce-v3/ALTAK-…/…), or an application’s APIKey|SecretKey',
    ...adapted('baidu'),
    openAiLayout: 'qianfan',
    apiPrefix: '/v2',
  },
  {
    type: 23,
    slug: 'tencent',
    name: 'Tencent Hunyuan (legacy)',
    owner: 'Tencent',
    defaultBaseUrl: 'https://hunyuan.cloud.tencent.com',
    keyHint: 'AppId|SecretId|SecretKey',
    retired: 'Tencent retired this Hunyuan API; use Tencent Hunyuan (40)',
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
    // Speech only (/v1/audio/speech), tested by speaking "hi".
    adapter: 'azure-speech',
    test: 'speech',
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
    tasks: 'midjourney',
  },
  {
    type: 35,
    slug: 'cloudflare',
    name: 'Cloudflare AI',
    owner: 'Cloudflare AI',
    defaultBaseUrl: 'https://api.cloudflare.com',
    keyHint: 'ACCOUNT_ID|API_TOKEN',
    // Workers AI: chat and embeddings at its OpenAI-compatible endpoints, images by running the
    // model (cloudflare/); tested by the model's kind (chat, embeddings or one image).
    adapter: 'cloudflare',
    test: 'openai',
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
    // Images only (stability/); a test makes one image whatever the model's name (sd3.5-large…).
    adapter: 'stability',
    test: 'image',
    balance: { path: '/v1/user/balance', reader: 'stability' },
  },
  {
    type: 38,
    slug: 'coze',
    name: 'Coze',
    owner: 'Coze',
    // Chat API v3; https://api.coze.cn for coze.cn accounts. Models are bots: coze-<botId>.
    defaultBaseUrl: 'https://api.coze.com',
    keyHint: 'Personal access token (pat_…)',
    ...adapted('coze'),
  },
  {
    type: 40,
    slug: 'hunyuan',
    name: 'Tencent Hunyuan',
    owner: 'Hunyuan',
    // SecretId|SecretKey: the native API, TC3-signed; a single API key: the OpenAI-compatible
    // API at https://api.hunyuan.cloud.tencent.com/v1 (hunyuan/request.ts).
    defaultBaseUrl: 'https://hunyuan.tencentcloudapi.com',
    keyHint: 'SecretId|SecretKey, or a Hunyuan API key',
    extraFields: [
      { name: 'other', label: 'Region (X-TC-Region)', kind: 'text', placeholder: 'optional, e.g. ap-guangzhou' },
    ],
    ...adapted('hunyuan'),
  },
  {
    type: 41,
    slug: 'suno',
    name: 'Suno (proxy)',
    owner: 'Suno',
    defaultBaseUrl: '',
    baseUrlRequired: true,
    tasks: 'suno',
  },
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
    // Images at OpenAI's paths and its own tools (recraft/endpoints.ts), no chat. No channel test:
    // a test image costs credits, and Recraft has no free call but the balance query.
    adapter: 'recraft',
    openAiLayout: 'bearer',
    apiPrefix: '/v1',
    balance: { path: '/v1/users/me', reader: 'recraft' },
  },
  {
    type: 52,
    slug: 'replicate',
    name: 'Replicate',
    defaultBaseUrl: 'https://api.replicate.com',
    keyHint: 'API token (r8_…)',
    // Predictions of `owner/name` models: chat (answered whole) and images (replicate/); tested
    // by the model's kind, a chat or one image.
    adapter: 'replicate',
    test: 'openai',
  },
  {
    type: 53,
    slug: 'kling',
    name: 'Kling',
    owner: 'Kling',
    defaultBaseUrl: 'https://api.klingai.com',
    keyHint: 'accessKey|secretKey, or a ready token',
    tasks: 'kling',
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
  zhipu: [
    plugin(
      'Tools added to chats (knowledge base, web search)',
      '{"retrieval": {"knowledge_id": "…", "prompt_template": "…"}, "web_search": {"enable": true}}',
    ),
  ],
  ali: [
    { name: 'other', label: 'Plugin header (X-DashScope-Plugin)', kind: 'text', placeholder: 'optional' },
    plugin('Web search for chats', '{"enable_search": true, "search_options": {"search_strategy": "max"}}'),
  ],
  xunfei: [apiVersion('v3.5 (for SparkDesk model names)', false)],
  minimax: [voiceMapping],
};

/** Compatible vendors with endpoints of their own beyond OpenAI's (MiniMax's speech API), by slug. */
const compatibleAdapters: Record<string, AdapterName> = { minimax: 'minimax' };

/** OpenAI itself also serves the Responses API; the other compatible vendors are translated to it. */
const RESPONSES_VENDORS: ReadonlySet<string> = new Set(['openai']);

function fromCompatible(vendor: CompatibleVendor): ProviderDefinition {
  return {
    ...vendor,
    keyHint: vendor.keyHint ?? 'API key',
    extraFields: compatibleExtraFields[vendor.slug] ?? [],
    adapter: compatibleAdapters[vendor.slug] ?? 'openai',
    openAiLayout: vendor.openAiLayout ?? 'bearer',
    native: RESPONSES_VENDORS.has(vendor.slug) ? ['responses'] : [],
    test: 'openai',
    modelList: vendor.modelList ?? true,
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

/** Whether new channels of this type can be created and relayed to: its entry names an adapter or a task relay. */
export const isRelayable = (provider: ProviderDefinition | undefined): boolean =>
  provider?.adapter !== undefined || provider?.tasks !== undefined;

/** Whether a channel of `type` takes a client surface's requests unchanged. */
export const passesThrough = (type: number, surface: NativeSurface): boolean =>
  providerRegistry.get(type)?.native.includes(surface) ?? false;
