/**
 * Vendors whose API speaks OpenAI's wire format. They all go through the one generic adapter, so
 * adding such a vendor is one entry here and nothing else.
 */

/** How a vendor's balance answer is read (channel-health/balance.ts holds the readers). */
export type BalanceReaderName = 'openai' | 'deepseek' | 'moonshot' | 'siliconflow';

export interface CompatibleVendor {
  /** Channel type id, compatible with the reference system's numbering. */
  type: number;
  slug: string;
  name: string;
  /** Used when the channel's base_url is empty; for vendors needing a base_url it is only a suggestion. */
  defaultBaseUrl: string;
  /** Put between the base URL and OpenAI paths such as `/chat/completions`. */
  apiPrefix: string;
  baseUrlRequired?: boolean;
  /** The vendor's balance endpoint (relative to the base URL) and how its answer reads, where it has one. */
  balance?: { path: string; reader: BalanceReaderName };
  keyHint?: string;
  /** The maker named as the owner of this type's models in prices (`model_owned_by`); absent: owns none. */
  owner?: string;
  /**
   * How requests are addressed, authenticated and extended beyond a bearer key at
   * `{base}{apiPrefix}/…` (openai/request.ts `layouts`); absent: `bearer`.
   */
  openAiLayout?: CompatibleLayout;
  /** Whether the vendor lists its models at OpenAI's `GET {apiPrefix}/models` with the bearer key; absent: yes. */
  modelList?: boolean;
}

/** The layouts compatible vendors use (registry `OpenAiLayout` has Azure's besides). */
export type CompatibleLayout = 'bearer' | 'custom' | 'openrouter' | 'zhipu' | 'dashscope' | 'xunfei';

const BEARER_KEY = 'API key (sent as a Bearer token)';

const vendors: CompatibleVendor[] = [
  {
    type: 1,
    slug: 'openai',
    name: 'OpenAI',
    defaultBaseUrl: 'https://api.openai.com',
    apiPrefix: '/v1',
    balance: { path: '/v1/dashboard/billing/subscription', reader: 'openai' },
    owner: 'OpenAI',
  },
  {
    type: 8,
    slug: 'custom',
    name: 'Custom (OpenAI-compatible)',
    defaultBaseUrl: '',
    apiPrefix: '/v1',
    baseUrlRequired: true,
    balance: { path: '/v1/dashboard/billing/subscription', reader: 'openai' },
    // `plugin.customize` sends a relay mode to another path, or turns it off.
    openAiLayout: 'custom',
  },
  {
    type: 16,
    slug: 'zhipu',
    name: 'Zhipu ChatGLM',
    owner: 'Zhipu',
    defaultBaseUrl: 'https://open.bigmodel.cn',
    // BigModel v4: chat, embeddings and images at OpenAI's paths, under /api/paas/v4.
    apiPrefix: '/api/paas/v4',
    keyHint: 'API key in the form id.secret (sent as a signed token, never itself)',
    openAiLayout: 'zhipu',
    modelList: false,
  },
  {
    type: 17,
    slug: 'ali',
    name: 'Alibaba Tongyi Qianwen',
    owner: 'Qwen',
    defaultBaseUrl: 'https://dashscope.aliyuncs.com',
    // DashScope's OpenAI-compatible mode: chat and embeddings.
    apiPrefix: '/compatible-mode/v1',
    openAiLayout: 'dashscope',
    modelList: false,
  },
  {
    type: 18,
    slug: 'xunfei',
    name: 'iFlytek Spark',
    owner: 'Spark',
    defaultBaseUrl: 'https://spark-api-open.xf-yun.com',
    // Spark's HTTP API: chat at /v1 (x1 at /v2); no model list.
    apiPrefix: '/v1',
    keyHint: 'APIPassword, APIKey:APISecret, or APPID|APISecret|APIKey',
    openAiLayout: 'xunfei',
    modelList: false,
  },
  { type: 19, slug: '360', name: '360 Zhinao', defaultBaseUrl: 'https://ai.360.cn', apiPrefix: '/v1', owner: '360' },
  // Embeddings and rerank only, both at OpenAI's paths (rerank is the shape /v1/rerank serves).
  { type: 47, slug: 'jina', name: 'Jina', defaultBaseUrl: 'https://api.jina.ai', apiPrefix: '/v1', owner: 'Jina' },
  {
    type: 20,
    slug: 'openrouter',
    name: 'OpenRouter',
    defaultBaseUrl: 'https://openrouter.ai/api',
    apiPrefix: '/v1',
    owner: 'OpenRouter',
    // `plugin.other.provider`: the channel's routing preference, sent as the body's `provider`.
    openAiLayout: 'openrouter',
  },
  {
    type: 26,
    slug: 'baichuan',
    name: 'Baichuan',
    defaultBaseUrl: 'https://api.baichuan-ai.com',
    apiPrefix: '/v1',
    owner: 'Baichuan',
  },
  // Chat is OpenAI's at /v1/chat/completions with a bearer key (reference §5.2); its own speech
  // API (t2a_v2, with the voice mapping) is minimax/adapter.ts's (registry `compatibleAdapters`).
  {
    type: 27,
    slug: 'minimax',
    name: 'MiniMax',
    defaultBaseUrl: 'https://api.minimax.chat',
    apiPrefix: '/v1',
    owner: 'MiniMax',
  },
  {
    type: 28,
    slug: 'deepseek',
    name: 'DeepSeek',
    defaultBaseUrl: 'https://api.deepseek.com',
    apiPrefix: '/v1',
    balance: { path: '/user/balance', reader: 'deepseek' },
    owner: 'Deepseek',
  },
  {
    type: 29,
    slug: 'moonshot',
    name: 'Moonshot',
    defaultBaseUrl: 'https://api.moonshot.cn',
    apiPrefix: '/v1',
    balance: { path: '/v1/users/me/balance', reader: 'moonshot' },
    owner: 'Moonshot',
  },
  {
    type: 30,
    slug: 'mistral',
    name: 'Mistral',
    defaultBaseUrl: 'https://api.mistral.ai',
    apiPrefix: '/v1',
    owner: 'Mistral',
  },
  {
    type: 31,
    slug: 'groq',
    name: 'Groq',
    defaultBaseUrl: 'https://api.groq.com/openai',
    apiPrefix: '/v1',
    owner: 'Groq',
  },
  {
    type: 33,
    slug: 'lingyi',
    name: 'Lingyi Wanwu (01.AI)',
    defaultBaseUrl: 'https://api.lingyiwanwu.com',
    apiPrefix: '/v1',
    owner: 'Yi',
  },
  {
    type: 39,
    slug: 'ollama',
    name: 'Ollama',
    defaultBaseUrl: 'http://localhost:11434',
    apiPrefix: '/v1',
    baseUrlRequired: true,
    keyHint: 'API key; a local Ollama ignores it, so any text will do',
    owner: 'Ollama',
  },
  // The reference has no adapter of its own for these four: they run on the generic one with a base URL.
  {
    type: 43,
    slug: 'llama',
    name: 'Meta Llama',
    defaultBaseUrl: '',
    apiPrefix: '/v1',
    baseUrlRequired: true,
    owner: 'Meta',
  },
  {
    type: 44,
    slug: 'ideogram',
    name: 'Ideogram',
    defaultBaseUrl: '',
    apiPrefix: '/v1',
    baseUrlRequired: true,
    owner: 'Ideogram',
  },
  {
    type: 45,
    slug: 'siliconflow',
    name: 'SiliconFlow',
    defaultBaseUrl: 'https://api.siliconflow.cn',
    apiPrefix: '/v1',
    balance: { path: '/v1/user/info', reader: 'siliconflow' },
    owner: 'Siliconflow',
  },
  { type: 46, slug: 'flux', name: 'Flux', defaultBaseUrl: '', apiPrefix: '/v1', baseUrlRequired: true, owner: 'Flux' },
  {
    type: 48,
    slug: 'rerank',
    name: 'Rerank',
    defaultBaseUrl: '',
    apiPrefix: '/v1',
    baseUrlRequired: true,
    owner: 'Rerank',
  },
  {
    type: 49,
    slug: 'github',
    name: 'GitHub Models',
    defaultBaseUrl: 'https://models.inference.ai.azure.com',
    // GitHub serves OpenAI's paths at the root, without /v1.
    apiPrefix: '',
    keyHint: 'GitHub personal access token',
  },
  {
    type: 54,
    slug: 'azure-databricks',
    name: 'Azure Databricks',
    defaultBaseUrl: '',
    // Model Serving's OpenAI-compatible API; the model is the serving endpoint's name.
    apiPrefix: '/serving-endpoints',
    baseUrlRequired: true,
    keyHint: 'Databricks personal access token (sent as a Bearer token)',
    modelList: false,
  },
  { type: 56, slug: 'xai', name: 'xAI', defaultBaseUrl: 'https://api.x.ai', apiPrefix: '/v1', owner: 'xAI' },
];

export const compatibleVendors: readonly CompatibleVendor[] = vendors.map((vendor) => ({
  keyHint: BEARER_KEY,
  ...vendor,
}));
