import { isRecord, type Json } from '@one-hub/contracts';
import { fieldError } from '../../platform/errors.js';
import { characterCount, countTextTokens } from '../billing/metering.js';
import { parsedJson, tokenUsage } from '../exchange/endpoint.js';
import type { Endpoint, RelayInput } from '../exchange/types.js';
import { hasFile } from '../transport/multipart.js';

/**
 * Images, speech and transcription (reference §4.2): images cost size-weighted "prompt tokens",
 * speech one prompt token per character, transcripts the tokens of the text they return; an
 * upstream that reports token usage (gpt-image-1, gpt-4o-transcribe) is billed on that instead.
 */

const DALL_E_2_SIZES: Readonly<Record<string, number>> = { '256x256': 1, '512x512': 1.125, '1024x1024': 1.25 };
const DALL_E_3_SIZES: Readonly<Record<string, number>> = { '1024x1024': 1, '1024x1792': 2, '1792x1024': 2 };
const DEFAULT_SIZE = '1024x1024';
const MAX_IMAGES = 10;

/** `n` as a whole number; multipart fields arrive as text. Undefined when it is not one. */
function imageCount(input: RelayInput): number | undefined {
  const n = input.fields.n;
  if (n === undefined || n === null) return 1;
  const value =
    typeof n === 'number' ? n : input.form && typeof n === 'string' && /^\s*\d+\s*$/.test(n) ? Number(n) : NaN;
  return Number.isInteger(value) && value >= 1 && value <= MAX_IMAGES ? value : undefined;
}

function sizeRatio(model: string, fields: Json): number {
  const size = typeof fields.size === 'string' && fields.size ? fields.size : DEFAULT_SIZE;
  if (model === 'dall-e-2') return DALL_E_2_SIZES[size] ?? 1;
  if (model === 'dall-e-3') {
    const ratio = DALL_E_3_SIZES[size] ?? 1;
    if (fields.quality !== 'hd') return ratio;
    return ratio * (size === '1024x1024' ? 2 : 1.5);
  }
  if ((model === 'recraft20b' || model === 'recraftv3') && fields.style === 'vector_illustration') return 2;
  return 1;
}

/** The "prompt tokens" of an image request: int(size ratio × 1000) per image. */
export function imagePromptTokens(model: string, input: RelayInput): number {
  return Math.trunc(sizeRatio(model, input.fields) * 1000) * (imageCount(input) ?? 1);
}

function checkImageRequest(input: RelayInput, needs: { prompt: boolean; image: boolean }): void {
  const { prompt, size, quality } = input.fields;
  if (needs.prompt && (typeof prompt !== 'string' || !prompt)) throw fieldError('prompt', 'a text prompt is required');
  if (imageCount(input) === undefined) throw fieldError('n', `must be a whole number from 1 to ${MAX_IMAGES}`);
  if (size !== undefined && size !== null && typeof size !== 'string') {
    throw fieldError('size', 'must be a string such as 1024x1024');
  }
  if (quality !== undefined && quality !== null && typeof quality !== 'string') {
    throw fieldError('quality', 'must be a string such as standard or hd');
  }
  if (needs.image && input.form && !hasFile(input.form, ['image', 'image[]'])) {
    throw fieldError('image', 'an image file is required');
  }
}

const usageField = (body: unknown) => (isRecord(body) ? tokenUsage(body.usage) : undefined);

function imageEndpoint(path: string, body: 'json' | 'multipart', needs: { prompt: boolean; image: boolean }): Endpoint {
  return {
    path,
    body,
    output: 'json',
    defaultModel: 'dall-e-2',
    validate: (input) => checkImageRequest(input, needs),
    estimatePrompt: (input) => imagePromptTokens(input.model, input),
    // The size table of the model being billed, so the ratio always matches the price applied.
    countPrompt: (input, billedModel) => imagePromptTokens(billedModel, input),
    usageOf: usageField,
  };
}

function checkSpeech(input: RelayInput): void {
  if (typeof input.fields.input !== 'string' || !input.fields.input) {
    throw fieldError('input', 'the text to speak is required');
  }
}

function checkAudioFile(input: RelayInput): void {
  if (input.form && !hasFile(input.form, ['file'])) throw fieldError('file', 'an audio file is required');
}

/** Tokens of a transcript: the `text` of a JSON answer, else the whole text (text, srt, vtt). */
function transcriptTokens(raw: Buffer, contentType: string): number {
  const body = contentType.includes('json') ? parsedJson(raw) : undefined;
  if (isRecord(body)) return countTextTokens(typeof body.text === 'string' ? body.text : '');
  return countTextTokens(raw.toString('utf8'));
}

function transcriptionEndpoint(path: string, streamable: boolean): Endpoint {
  return {
    path,
    body: 'multipart',
    output: 'json',
    ...(streamable
      ? {
          stream: {
            usageOf: (event) => (event.type === 'transcript.text.done' ? tokenUsage(event.usage) : undefined),
            textOf: (event) =>
              event.type === 'transcript.text.delta' && typeof event.delta === 'string' ? event.delta : '',
          },
        }
      : {}),
    validate: checkAudioFile,
    estimatePrompt: () => 0,
    countPrompt: () => 0,
    usageOf: usageField,
    countCompletion: transcriptTokens,
  };
}

export const mediaEndpoints: Endpoint[] = [
  imageEndpoint('/v1/images/generations', 'json', { prompt: true, image: false }),
  imageEndpoint('/v1/images/edits', 'multipart', { prompt: true, image: true }),
  imageEndpoint('/v1/images/variations', 'multipart', { prompt: false, image: true }),
  {
    path: '/v1/audio/speech',
    body: 'json',
    output: 'binary',
    validate: checkSpeech,
    estimatePrompt: (input) => characterCount(input.fields.input),
    countPrompt: (input) => characterCount(input.fields.input),
    usageOf: () => undefined,
  },
  transcriptionEndpoint('/v1/audio/transcriptions', true),
  transcriptionEndpoint('/v1/audio/translations', false),
];
