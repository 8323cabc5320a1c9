import type { OwnedByView } from '@one-hub/contracts';

/**
 * Who makes the models a price belongs to, keyed by the provider's channel type id (a price's
 * `channel_type`). A local table until the provider registry can supply the names.
 */
const OWNER_NAMES: ReadonlyArray<[number, string]> = [
  [1, 'OpenAI'],
  [11, 'Google PaLM'],
  [14, 'Anthropic'],
  [15, 'Baidu'],
  [16, 'Zhipu'],
  [17, 'Qwen'],
  [18, 'Spark'],
  [19, '360'],
  [20, 'OpenRouter'],
  [23, 'Tencent'],
  [25, 'Google Gemini'],
  [26, 'Baichuan'],
  [27, 'MiniMax'],
  [28, 'Deepseek'],
  [29, 'Moonshot'],
  [30, 'Mistral'],
  [31, 'Groq'],
  [33, 'Yi'],
  [34, 'Midjourney'],
  [35, 'Cloudflare AI'],
  [36, 'Cohere'],
  [37, 'Stability AI'],
  [38, 'Coze'],
  [39, 'Ollama'],
  [40, 'Hunyuan'],
  [41, 'Suno'],
  [43, 'Meta'],
  [44, 'Ideogram'],
  [45, 'Siliconflow'],
  [46, 'Flux'],
  [47, 'Jina'],
  [48, 'Rerank'],
  [51, 'RecraftAI'],
  [53, 'Kling'],
  [56, 'xAI'],
];

export const MODEL_OWNERS: Readonly<Record<string, OwnedByView>> = Object.freeze(
  Object.fromEntries(OWNER_NAMES.map(([id, name]) => [String(id), Object.freeze({ id, name, icon: '' })])),
);
