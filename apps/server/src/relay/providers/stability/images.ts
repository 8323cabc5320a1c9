import { fieldError } from '../../../platform/errors.js';
import type { Json } from '../types.js';

/**
 * OpenAI's image request and answer as the image vendors of this gateway read and write them
 * (Stability, Cloudflare Workers AI, Replicate): `n`, `size`, `seed`, `response_format` in;
 * `{created, data: [{url | b64_json}]}` out. We keep no files, so a `url` answer for an image the
 * vendor gave as bytes is a `data:` URL holding the image itself.
 */

export type ImageResponseFormat = 'url' | 'b64_json';

const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

export function responseFormatOf(request: Json | undefined): ImageResponseFormat {
  const format = request?.response_format;
  if (!given(format) || format === 'url') return 'url';
  if (format === 'b64_json') return 'b64_json';
  throw fieldError('response_format', `must be url or b64_json, not ${JSON.stringify(format)}`);
}

/** `n` as the endpoint checked it (1–10; multipart forms send text), 1 when absent. */
export function imageCountOf(request: Json | undefined): number {
  const n = Number(request?.n ?? 1);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** `size` as `{width, height}`; undefined when absent or `auto`; a 400 when it is not `WIDTHxHEIGHT`. */
export function sizeOf(request: Json): { width: number; height: number } | undefined {
  const size = request.size;
  if (!given(size) || size === 'auto') return undefined;
  const match = typeof size === 'string' ? /^\s*(\d{1,5})\s*[xX×*]\s*(\d{1,5})\s*$/.exec(size) : null;
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width <= 0 || height <= 0) throw fieldError('size', 'must be WIDTHxHEIGHT, such as 1024x1024');
  return { width, height };
}

/** The ratio from `ratios` (`"16:9"`…) closest to the request's size, judged on a log scale. */
export function nearestAspectRatio(request: Json, ratios: readonly string[]): string | undefined {
  const size = sizeOf(request);
  if (!size) return undefined;
  const wanted = Math.log(size.width / size.height);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const ratio of ratios) {
    const [width = 1, height = 1] = ratio.split(':').map(Number);
    const distance = Math.abs(Math.log(width / height) - wanted);
    if (distance < bestDistance) {
      best = ratio;
      bestDistance = distance;
    }
  }
  return best;
}

/** The request's `seed` as a whole number, undefined when absent; a 400 when it is something else. */
export function seedOf(request: Json): number | undefined {
  const seed = request.seed;
  if (!given(seed)) return undefined;
  const value = typeof seed === 'string' && /^\d+$/.test(seed.trim()) ? Number(seed) : seed;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw fieldError('seed', 'must be a whole number from 0');
  }
  return value;
}

/** A text field the client may add (`negative_prompt`…); a 400 when it is not text. */
export function textField(request: Json, field: string): string | undefined {
  const value = request[field];
  if (!given(value)) return undefined;
  if (typeof value !== 'string') throw fieldError(field, 'must be text');
  return value;
}

/** The content type of image bytes, from their first bytes; undefined when they are no image we know. */
export function imageTypeOf(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'image/webp';
  }
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  return undefined;
}

/** One generated image: its bytes as base64 and their content type. */
export interface GeneratedImage {
  base64: string;
  contentType: string;
}

/** OpenAI's image answer for images held as base64. */
export function imagesAnswer(images: GeneratedImage[], format: ImageResponseFormat, now: number): Json {
  return {
    created: now,
    data: images.map((image) =>
      format === 'b64_json' ? { b64_json: image.base64 } : { url: `data:${image.contentType};base64,${image.base64}` },
    ),
  };
}
