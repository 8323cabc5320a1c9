/**
 * Channel type ids of one-api and new-api translated to One Hub's (reference §3.4). The three
 * products started from the same list, then each renumbered from id 24 on, so the same number can
 * mean different vendors (one-api 24 = Gemini, One Hub 24 = Azure Speech).
 *
 * - `type`: One Hub's id for the same upstream.
 * - `baseUrl`: for OpenAI-compatible resellers One Hub has no own type for, the channel becomes a
 *   Custom channel (8); the source's built-in base URL is written when the channel had none.
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

export const CUSTOM_TYPE = 8;

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
  1: { type: 1 },
  3: { type: 3 },
  6: custom('https://api.openaimax.com'),
  7: custom('https://api.ohmygpt.com'),
  8: { type: CUSTOM_TYPE },
  9: custom('https://api.caipacity.com'),
  10: custom('https://api.aiproxy.io'),
  11: { type: 11 },
  12: custom('https://api.api2gpt.com'),
  13: custom('https://api.aigc2d.com'),
  14: { type: 14 },
  15: { type: 15 },
  16: { type: 16 },
  17: { type: 17 },
  18: { type: 18 },
  20: { type: 20 },
  21: missing('AI Proxy Library (knowledge base)'),
  22: custom('https://fastgpt.run/api/openapi'),
  // Tencent speaks the TC3-signed hunyuan.tencentcloudapi.com API: One Hub's Hunyuan (40).
  23: { type: 40 },
  24: { type: 25 },
  25: { type: 29 },
};

export const ONE_API_CHANNEL_TYPES: Record<number, ChannelTypeTarget> = {
  ...SHARED_START,
  2: custom('https://oa.api2d.net'),
  4: custom('https://api.closeai-proxy.xyz'),
  5: custom('https://api.openai-sb.com'),
  19: { type: 19, baseUrl: 'https://ai.360.cn' },
  26: { type: 26 },
  27: { type: 27 },
  28: { type: 30 },
  29: { type: 31 },
  30: { type: 39 },
  31: { type: 33 },
  32: custom('https://api.stepfun.com'),
  33: { type: 32 },
  34: { type: 38 },
  35: { type: 36 },
  36: { type: 28 },
  37: { type: 35 },
  38: missing('DeepL'),
  39: custom('https://api.together.xyz'),
  40: missing('Doubao (Volcengine Ark, /api/v3 paths)'),
  41: missing('Novita (/v3/openai paths)'),
  42: { type: 42 },
  43: missing('Proxy'),
  44: { type: 45 },
  45: { type: 56 },
  46: { type: 52 },
  47: missing('Baidu Qianfan v2'),
  48: custom('https://spark-api-open.xf-yun.com'),
  49: missing('Ali Bailian (/compatible-mode paths)'),
  50: { type: CUSTOM_TYPE },
  51: missing('Gemini OpenAI-compatible (/v1beta/openai paths)'),
};

export const NEW_API_CHANNEL_TYPES: Record<number, ChannelTypeTarget> = {
  ...SHARED_START,
  2: { type: 34 },
  4: { type: 39 },
  5: { type: 34 },
  19: { type: 19, baseUrl: 'https://api.360.cn' },
  26: { type: 16 },
  27: missing('Perplexity'),
  31: { type: 33 },
  33: { type: 32 },
  34: { type: 36 },
  35: { type: 27 },
  36: { type: 41 },
  37: missing('Dify'),
  38: { type: 47 },
  39: { type: 35 },
  40: { type: 45 },
  41: { type: 42 },
  42: { type: 30 },
  43: { type: 28 },
  44: missing('MokaAI'),
  45: missing('VolcEngine (Ark)'),
  46: missing('Baidu Qianfan v2'),
  47: { type: CUSTOM_TYPE },
  48: { type: 56 },
  49: { type: 38 },
  50: { type: 53 },
  ...Object.fromEntries(
    ['Jimeng', 'Vidu', 'Submodel', 'Doubao video', 'Sora'].map((vendor, i) => [51 + i, missing(vendor)]),
  ),
  56: { type: 52 },
  57: missing('Codex'),
};

/** The One Hub type for a source type id; ids the table does not know are treated as missing. */
export function translateChannelType(table: Record<number, ChannelTypeTarget>, sourceType: number): ChannelTypeTarget {
  return table[sourceType] ?? missing(`Type ${sourceType}`);
}
