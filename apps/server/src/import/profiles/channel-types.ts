import { providerType } from '../../domain/channel-types/registry.js';

/**
 * Channel type ids of one-api and new-api translated to One Hub's (reference §3.4). The three
 * products started from the same list, then each renumbered from id 24 on, so the same number can
 * mean different vendors (one-api 24 = Gemini, One Hub 24 = Azure Speech).
 *
 * - `type`: One Hub's id for the same upstream.
 * - `baseUrl`: for OpenAI-compatible resellers One Hub has no own type for, the channel becomes a
 *   Custom channel; the source's built-in base URL is written when the channel had none.
 * - `missing`: no One Hub provider speaks this upstream's API: the channel is kept, disabled, as a
 *   Custom channel so its key and settings stay visible, and the reason is reported.
 *
 * Sources: one-api `relay/channeltype/define.go` and `url.go`; new-api `constant/channel.go`.
 */

export interface ChannelTypeTarget {
  type: number;
  baseUrl?: string;
  missing?: string;
}

export const CUSTOM_TYPE = providerType('custom');

/** The target side names One Hub's types by slug: the registry is the only place that knows their ids. */
const to = (slug: string, baseUrl?: string): ChannelTypeTarget =>
  baseUrl === undefined ? { type: providerType(slug) } : { type: providerType(slug), baseUrl };

/** Source type ids from the start both products kept, so they name the same upstream in both. */
export const SHARED_SOURCE_TYPES = {
  AZURE: 3,
  CUSTOM: 8,
  ALI: 17,
  XUNFEI: 18,
  AI_PROXY_LIBRARY: 21,
  TENCENT: 23,
  GEMINI: 24,
};

const custom = (baseUrl: string): ChannelTypeTarget => ({ type: CUSTOM_TYPE, baseUrl });
const missing = (vendor: string): ChannelTypeTarget => ({
  type: CUSTOM_TYPE,
  missing: `${vendor} channels have no One Hub provider; kept disabled as a Custom channel`,
});

/** Ids 0–25 that both products kept from the list they share (the rows where they differ follow). */
const SHARED_START: Record<number, ChannelTypeTarget> = {
  0: missing('Unknown-type'),
  1: to('openai'),
  3: to('azure'),
  6: custom('https://api.openaimax.com'),
  7: custom('https://api.ohmygpt.com'),
  8: to('custom'),
  9: custom('https://api.caipacity.com'),
  10: custom('https://api.aiproxy.io'),
  11: to('palm'),
  12: custom('https://api.api2gpt.com'),
  13: custom('https://api.aigc2d.com'),
  14: to('anthropic'),
  15: to('baidu'),
  16: to('zhipu'),
  17: to('ali'),
  18: to('xunfei'),
  20: to('openrouter'),
  21: missing('AI Proxy Library (knowledge base)'),
  22: custom('https://fastgpt.run/api/openapi'),
  // Tencent speaks the TC3-signed hunyuan.tencentcloudapi.com API: One Hub's Hunyuan.
  23: to('hunyuan'),
  24: to('gemini'),
  25: to('moonshot'),
};

export const ONE_API_CHANNEL_TYPES: Record<number, ChannelTypeTarget> = {
  ...SHARED_START,
  2: custom('https://oa.api2d.net'),
  4: custom('https://api.closeai-proxy.xyz'),
  5: custom('https://api.openai-sb.com'),
  19: to('360', 'https://ai.360.cn'),
  26: to('baichuan'),
  27: to('minimax'),
  28: to('mistral'),
  29: to('groq'),
  30: to('ollama'),
  31: to('lingyi'),
  32: custom('https://api.stepfun.com'),
  33: to('bedrock'),
  34: to('coze'),
  35: to('cohere'),
  36: to('deepseek'),
  37: to('cloudflare'),
  38: missing('DeepL'),
  39: custom('https://api.together.xyz'),
  40: missing('Doubao (Volcengine Ark, /api/v3 paths)'),
  41: missing('Novita (/v3/openai paths)'),
  42: to('vertexai'),
  43: missing('Proxy'),
  44: to('siliconflow'),
  45: to('xai'),
  46: to('replicate'),
  47: missing('Baidu Qianfan v2'),
  48: custom('https://spark-api-open.xf-yun.com'),
  49: missing('Ali Bailian (/compatible-mode paths)'),
  50: to('custom'),
  51: missing('Gemini OpenAI-compatible (/v1beta/openai paths)'),
};

export const NEW_API_CHANNEL_TYPES: Record<number, ChannelTypeTarget> = {
  ...SHARED_START,
  2: to('midjourney'),
  4: to('ollama'),
  5: to('midjourney'),
  19: to('360', 'https://api.360.cn'),
  26: to('zhipu'),
  27: missing('Perplexity'),
  31: to('lingyi'),
  33: to('bedrock'),
  34: to('cohere'),
  35: to('minimax'),
  36: to('suno'),
  37: missing('Dify'),
  38: to('jina'),
  39: to('cloudflare'),
  40: to('siliconflow'),
  41: to('vertexai'),
  42: to('mistral'),
  43: to('deepseek'),
  44: missing('MokaAI'),
  45: missing('VolcEngine (Ark)'),
  46: missing('Baidu Qianfan v2'),
  47: to('custom'),
  48: to('xai'),
  49: to('coze'),
  50: to('kling'),
  ...Object.fromEntries(
    ['Jimeng', 'Vidu', 'Submodel', 'Doubao video', 'Sora'].map((vendor, i) => [51 + i, missing(vendor)]),
  ),
  56: to('replicate'),
  57: missing('Codex'),
};

/** The One Hub type for a source type id; ids the table does not know are treated as missing. */
export function translateChannelType(table: Record<number, ChannelTypeTarget>, sourceType: number): ChannelTypeTarget {
  return table[sourceType] ?? missing(`Type ${sourceType}`);
}
