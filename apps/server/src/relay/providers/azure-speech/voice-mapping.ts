import type { Json } from '../types.js';
import { isRecord } from '../values.js';

/**
 * The voice mapping that speech channels (Azure Speech, MiniMax) keep in their plugin settings:
 * `{"voice": {"alloy": "zh-CN-YunxiNeural|Boy"}}`, each OpenAI voice name mapped to the vendor's
 * voice and, after a `|`, a second setting (Azure's role, MiniMax's emotion). Names the channel
 * does not map fall back to the vendor's defaults, then go upstream as they are: a client may name
 * a vendor voice directly.
 */
export interface MappedVoice {
  voice: string;
  /** What followed the `|`: Azure's `role`, MiniMax's `emotion`. */
  extra?: string;
}

function parsed(entry: string): MappedVoice | undefined {
  const [voice = '', extra = ''] = entry.split('|', 2).map((part) => part.trim());
  if (!voice) return undefined;
  return extra ? { voice, extra } : { voice };
}

export function mappedVoice(
  plugin: Json,
  requested: string,
  defaults: Readonly<Record<string, string>>,
): MappedVoice | undefined {
  const mapping = isRecord(plugin.voice) ? plugin.voice : {};
  const configured = mapping[requested];
  if (typeof configured === 'string') {
    const voice = parsed(configured);
    if (voice) return voice;
  }
  const fallback = defaults[requested];
  return fallback ? parsed(fallback) : undefined;
}

/** `speed` of an OpenAI speech request as the vendor's range allows: undefined when absent or 1. */
export function speedWithin(value: unknown, min: number, max: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error('speed: must be a positive number (OpenAI allows 0.25 to 4)');
  }
  const speed = Math.min(max, Math.max(min, value));
  return speed === 1 ? undefined : speed;
}

/** What an OpenAI speech request asks of a speech vendor. */
export interface SpeechAsked {
  text: string;
  voice: MappedVoice;
  /** The vendor's speed, undefined for its normal one. */
  speed?: number;
  /** `response_format` as sent, `mp3` when unset (each vendor checks it against its own formats). */
  format: unknown;
}

/** How one vendor reads a speech request: its default voices and its speed range. */
export interface SpeechVendor {
  defaults: Readonly<Record<string, string>>;
  minSpeed: number;
  maxSpeed: number;
}

/** The voice of a request that names none. */
const DEFAULT_VOICE = 'alloy';

/**
 * An OpenAI speech request's text, voice and speed. A voice the channel does not map is taken as
 * the vendor's own voice name; the vendor refuses one it does not know.
 */
export function readSpeech(body: Json, plugin: Json, vendor: SpeechVendor): SpeechAsked {
  const text = body.input;
  if (typeof text !== 'string' || !text) throw new Error('input: the text to speak is required');
  const requested = typeof body.voice === 'string' && body.voice.trim() ? body.voice.trim() : DEFAULT_VOICE;
  const voice = mappedVoice(plugin, requested, vendor.defaults) ?? { voice: requested };
  const speed = speedWithin(body.speed, vendor.minSpeed, vendor.maxSpeed);
  const format = body.response_format;
  return {
    text,
    voice,
    ...(speed !== undefined ? { speed } : {}),
    format: format === undefined || format === null || format === '' ? 'mp3' : format,
  };
}
