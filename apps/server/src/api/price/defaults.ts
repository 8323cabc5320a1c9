import type { PriceView } from '@one-hub/contracts';
import { providerType } from '../../domain/channel-types/registry.js';

/**
 * The built-in price list, seeded into an empty `prices` table. Ratios: 1 = $0.002 per 1K tokens,
 * so a ratio is the vendor's USD price per 1M tokens divided by 2. CNY-priced vendors are
 * converted at ¥0.014 per ratio unit and 1K tokens. `times` prices cost 1000 × input per call.
 */

/** Owner ids, equal to the channel type ids of the providers. */
const OpenAI = providerType('openai');
const Anthropic = providerType('anthropic');
const Ali = providerType('ali');
const Zhipu = providerType('zhipu');
const Gemini = providerType('gemini');
const Deepseek = providerType('deepseek');
const Moonshot = providerType('moonshot');
const Mistral = providerType('mistral');
const Midjourney = providerType('midjourney');
const Suno = providerType('suno');
const Kling = providerType('kling');
const xAI = providerType('xai');

type ExtraRatios = Record<string, number>;

function perToken(channelType: number, input: number, output: number, extra: ExtraRatios = {}) {
  return (model: string): PriceView => ({
    model,
    type: 'tokens',
    channel_type: channelType,
    input,
    output,
    locked: false,
    extra_ratios: extra,
  });
}

function perCall(channelType: number, model: string, input: number): PriceView {
  return { model, type: 'times', channel_type: channelType, input, output: 0, locked: false, extra_ratios: {} };
}

function family(models: string[], make: (model: string) => PriceView): PriceView[] {
  return models.map(make);
}

const openAi: PriceView[] = [
  ...family(['gpt-4o', 'gpt-4o-2024-08-06', 'gpt-4o-2024-11-20'], perToken(OpenAI, 1.25, 5, { cached_tokens: 0.5 })),
  ...family(['gpt-4o-2024-05-13', 'chatgpt-4o-latest'], perToken(OpenAI, 2.5, 7.5)),
  ...family(['gpt-4o-mini', 'gpt-4o-mini-2024-07-18'], perToken(OpenAI, 0.075, 0.3, { cached_tokens: 0.5 })),
  ...family(['gpt-4.1', 'gpt-4.1-2025-04-14'], perToken(OpenAI, 1, 4, { cached_tokens: 0.25 })),
  ...family(['gpt-4.1-mini', 'gpt-4.1-mini-2025-04-14'], perToken(OpenAI, 0.2, 0.8, { cached_tokens: 0.25 })),
  ...family(['gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14'], perToken(OpenAI, 0.05, 0.2, { cached_tokens: 0.25 })),
  ...family(['gpt-5', 'gpt-5-chat-latest'], perToken(OpenAI, 0.625, 5, { cached_tokens: 0.1 })),
  perToken(OpenAI, 0.125, 1, { cached_tokens: 0.1 })('gpt-5-mini'),
  perToken(OpenAI, 0.025, 0.2, { cached_tokens: 0.1 })('gpt-5-nano'),
  ...family(['o1', 'o1-2024-12-17'], perToken(OpenAI, 7.5, 30, { cached_tokens: 0.5 })),
  perToken(OpenAI, 0.55, 2.2, { cached_tokens: 0.5 })('o1-mini'),
  perToken(OpenAI, 1, 4, { cached_tokens: 0.25 })('o3'),
  perToken(OpenAI, 0.55, 2.2, { cached_tokens: 0.5 })('o3-mini'),
  perToken(OpenAI, 0.55, 2.2, { cached_tokens: 0.25 })('o4-mini'),
  ...family(['gpt-4', 'gpt-4-0613'], perToken(OpenAI, 15, 30)),
  ...family(['gpt-4-turbo', 'gpt-4-turbo-2024-04-09'], perToken(OpenAI, 5, 15)),
  ...family(['gpt-3.5-turbo', 'gpt-3.5-turbo-0125'], perToken(OpenAI, 0.25, 0.75)),
  // Audio tokens cost 16× ($40) and 8× ($80) the text price of the same model.
  perToken(OpenAI, 1.25, 5, { input_audio_tokens: 16, output_audio_tokens: 8 })('gpt-4o-audio-preview'),
  perToken(OpenAI, 2.5, 10, { input_audio_tokens: 8, output_audio_tokens: 4 })('gpt-4o-realtime-preview'),
  // Image tokens at $10/$40; text input at $5, half the image input.
  perToken(OpenAI, 5, 20, { input_text_tokens: 0.5 })('gpt-image-1'),
  perToken(OpenAI, 0.01, 0.01)('text-embedding-3-small'),
  perToken(OpenAI, 0.065, 0.065)('text-embedding-3-large'),
  perToken(OpenAI, 0.05, 0.05)('text-embedding-ada-002'),
  // Images bill int(size factor × 1000) × n "tokens" at the input ratio: dall-e-2 1024² = 1250 × 8 = $0.02,
  // dall-e-3 standard 1024² = 1000 × 20 = $0.04.
  perToken(OpenAI, 8, 8)('dall-e-2'),
  perToken(OpenAI, 20, 20)('dall-e-3'),
  // Transcripts bill the returned text's tokens; speech bills one "token" per input character ($15 / 1M).
  perToken(OpenAI, 15, 15)('whisper-1'),
  perToken(OpenAI, 7.5, 7.5)('tts-1'),
  perToken(OpenAI, 15, 15)('tts-1-hd'),
  ...family(['omni-moderation-latest', 'text-moderation-latest', 'text-moderation-stable'], perToken(OpenAI, 0, 0)),
];

// Claude's cache writes (1.25×) and reads (0.1×) are the default extra ratios, so none are set here.
const anthropic: PriceView[] = [
  ...family(
    [
      'claude-3-5-sonnet-20240620',
      'claude-3-5-sonnet-20241022',
      'claude-3-5-sonnet-latest',
      'claude-3-7-sonnet-20250219',
      'claude-3-7-sonnet-latest',
      'claude-sonnet-4-20250514',
      'claude-sonnet-4-5-20250929',
    ],
    perToken(Anthropic, 1.5, 7.5),
  ),
  ...family(['claude-3-5-haiku-20241022', 'claude-3-5-haiku-latest'], perToken(Anthropic, 0.4, 2)),
  perToken(Anthropic, 0.5, 2.5)('claude-haiku-4-5-20251001'),
  perToken(Anthropic, 0.125, 0.625)('claude-3-haiku-20240307'),
  ...family(
    ['claude-3-opus-20240229', 'claude-opus-4-20250514', 'claude-opus-4-1-20250805'],
    perToken(Anthropic, 7.5, 37.5),
  ),
];

const gemini: PriceView[] = [
  perToken(Gemini, 0.625, 2.5)('gemini-1.5-pro'),
  perToken(Gemini, 0.0375, 0.15)('gemini-1.5-flash'),
  perToken(Gemini, 0.01875, 0.075)('gemini-1.5-flash-8b'),
  perToken(Gemini, 0.05, 0.2)('gemini-2.0-flash'),
  perToken(Gemini, 0.0375, 0.15)('gemini-2.0-flash-lite'),
  perToken(Gemini, 0.625, 5)('gemini-2.5-pro'),
  perToken(Gemini, 0.15, 1.25)('gemini-2.5-flash'),
  perToken(Gemini, 0.05, 0.2)('gemini-2.5-flash-lite'),
  // Thinking output cost $3.50 against $0.60 for plain output on this preview.
  perToken(Gemini, 0.075, 0.3, { reasoning_tokens: 5.833 })('gemini-2.5-flash-preview-04-17'),
];

const others: PriceView[] = [
  ...family(['deepseek-chat', 'deepseek-reasoner'], perToken(Deepseek, 0.14, 0.21, { cached_tokens: 0.1 })),
  perToken(Mistral, 1, 3)('mistral-large-latest'),
  perToken(Mistral, 0.05, 0.15)('mistral-small-latest'),
  perToken(Mistral, 0.15, 0.45)('codestral-latest'),
  perToken(Moonshot, 0.857, 0.857)('moonshot-v1-8k'),
  perToken(Moonshot, 1.7143, 1.7143)('moonshot-v1-32k'),
  perToken(Moonshot, 4.2857, 4.2857)('moonshot-v1-128k'),
  perToken(Ali, 0.1714, 0.6857)('qwen-max'),
  perToken(Ali, 0.0571, 0.1429)('qwen-plus'),
  perToken(Ali, 0.0214, 0.0429)('qwen-turbo'),
  perToken(Zhipu, 0, 0)('glm-4-flash'),
  perToken(xAI, 1.5, 7.5)('grok-3'),
  perToken(xAI, 0.15, 0.25)('grok-3-mini'),
  perToken(xAI, 1.5, 7.5)('grok-4'),
];

const midjourneyActions: Array<[string, number]> = [
  ...[
    'imagine',
    'variation',
    'reroll',
    'blend',
    'modal',
    'zoom',
    'shorten',
    'high_variation',
    'low_variation',
    'pan',
  ].map((action): [string, number] => [action, 50]),
  ...['describe', 'upscale', 'swap_face'].map((action): [string, number] => [action, 25]),
  ...['inpaint', 'custom_zoom', 'upload'].map((action): [string, number] => [action, 0]),
];

/**
 * Kling videos, billed per call as `kling-video_<model>_<mode>_<seconds>`. Derived from Kling's
 * published API prices for a 5-second clip (kling-v1: std $0.14, pro $0.49; kling-v1-5 and
 * kling-v1-6: std $0.28, pro $0.49), a 10-second clip costing twice as much, converted at
 * $0.002 per unit (`times` input = USD / 0.002).
 */
function klingVideos(): PriceView[] {
  const fiveSeconds: Record<string, { std: number; pro: number }> = {
    'kling-v1': { std: 0.14, pro: 0.49 },
    'kling-v1-5': { std: 0.28, pro: 0.49 },
    'kling-v1-6': { std: 0.28, pro: 0.49 },
  };
  return Object.entries(fiveSeconds).flatMap(([model, usd]) =>
    (['std', 'pro'] as const).flatMap((mode) =>
      [5, 10].map((seconds) =>
        perCall(Kling, `kling-video_${model}_${mode}_${seconds}`, Math.round((usd[mode] * (seconds / 5)) / 0.002)),
      ),
    ),
  );
}

const tasks: PriceView[] = [
  ...midjourneyActions.map(([action, input]) => perCall(Midjourney, `mj_${action}`, input)),
  perCall(Suno, 'suno_lyrics', 5),
  perCall(Suno, 'chirp-v3-0', 50),
  perCall(Suno, 'chirp-v3-5', 50),
  ...klingVideos(),
];

export const DEFAULT_PRICES: readonly PriceView[] = Object.freeze([
  ...openAi,
  ...anthropic,
  ...gemini,
  ...others,
  ...tasks,
]);
