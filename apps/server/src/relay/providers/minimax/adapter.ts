import { readSpeech } from '../azure-speech/voice-mapping.js';
import { openAiAdapter, parseOpenAiError } from '../openai/adapter.js';
import { upstreamUrl } from '../openai/request.js';
import type {
  AdapterContext,
  BinaryAnswer,
  ChatAdapter,
  Json,
  UpstreamCall,
  UpstreamErrorInfo,
  WholeBodyAdapter,
} from '../types.js';
import { isRecord, upstreamObject } from '../values.js';

/**
 * MiniMax: chat (and everything else) is OpenAI's format at `/v1/chat/completions`, passed
 * through; speech is MiniMax's own T2A v2 API (`POST /v1/t2a_v2`), whose answer carries the audio
 * as hex text and reports errors in `base_resp` of a 200 answer.
 */

/** OpenAI's voices to MiniMax's system voices, as the reference gateway maps them; the plugin overrides. */
export const MINIMAX_DEFAULT_VOICES: Readonly<Record<string, string>> = {
  alloy: 'female-chengshu',
  echo: 'male-qn-qingse',
  fable: 'male-qn-jingying',
  onyx: 'presenter_male',
  nova: 'presenter_female',
  shimmer: 'audiobook_female_1',
};

/** The formats T2A v2 gives, with their content types. */
const FORMATS: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  pcm: 'audio/pcm',
};

/** MiniMax's speed range (1 is normal). */
const MIN_SPEED = 0.5;
const MAX_SPEED = 2;

/**
 * `response_format`: one of FORMATS, optionally followed, as the reference gateway accepts it, by
 * `-channels-sampleRate-bitrate` (`mp3-1-32000-128000`).
 */
function audioSetting(text: unknown): Json {
  const [format = '', ...numbers] = typeof text === 'string' ? text.split('-') : [''];
  const settings = numbers.map(Number);
  if (!FORMATS[format] || numbers.length > 3 || settings.some((number) => !Number.isInteger(number) || number <= 0)) {
    throw new Error(
      `response_format: MiniMax gives ${Object.keys(FORMATS).join(', ')}; ${JSON.stringify(text)} is not one of them`,
    );
  }
  const [channel, sampleRate, bitrate] = settings;
  return {
    format,
    ...(sampleRate !== undefined ? { sample_rate: sampleRate } : {}),
    ...(bitrate !== undefined ? { bitrate } : {}),
    ...(channel !== undefined ? { channel } : {}),
  };
}

function buildSpeech(body: Json, context: AdapterContext): UpstreamCall {
  const asked = readSpeech(body, context.plugin, {
    defaults: MINIMAX_DEFAULT_VOICES,
    minSpeed: MIN_SPEED,
    maxSpeed: MAX_SPEED,
  });
  const request = {
    model: context.upstreamModel,
    text: asked.text,
    stream: false,
    voice_setting: {
      voice_id: asked.voice.voice,
      ...(asked.speed !== undefined ? { speed: asked.speed } : {}),
      ...(asked.voice.extra ? { emotion: asked.voice.extra } : {}),
    },
    audio_setting: audioSetting(asked.format),
  };
  return {
    url: upstreamUrl(context.baseUrl, '/v1/t2a_v2'),
    headers: { ...context.headers, authorization: `Bearer ${context.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(request),
  };
}

/** `base_resp` of a MiniMax answer, when it reports a failure. */
function failedBaseResp(body: Buffer): { code: number; message: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const base = isRecord(parsed) && isRecord(parsed.base_resp) ? parsed.base_resp : undefined;
  const code = base?.status_code;
  if (typeof code !== 'number' || code === 0) return undefined;
  return { code, message: typeof base?.status_msg === 'string' && base.status_msg ? base.status_msg : `error ${code}` };
}

/** MiniMax's error codes (its API documentation) as HTTP statuses and OpenAI error types. */
const ERROR_CODES: Readonly<Record<number, { status: number; type?: string }>> = {
  1000: { status: 500 },
  1001: { status: 504 },
  1002: { status: 429, type: 'rate_limit_error' },
  1004: { status: 401, type: 'authentication_error' },
  1008: { status: 402, type: 'insufficient_quota' },
  1013: { status: 500 },
  1026: { status: 400, type: 'content_filter' },
  1027: { status: 400, type: 'content_filter' },
  1039: { status: 429, type: 'rate_limit_error' },
  1042: { status: 400 },
  2013: { status: 400, type: 'invalid_request_error' },
  2049: { status: 401, type: 'authentication_error' },
};

const errorOf = (code: number) => ERROR_CODES[code] ?? { status: code >= 2000 ? 400 : 500 };

/** MiniMax errors: `base_resp` (HTTP 200 or not), else OpenAI's format (its chat API's). */
export function parseMinimaxError(status: number, body: Buffer): UpstreamErrorInfo {
  const failed = failedBaseResp(body);
  if (!failed) return parseOpenAiError(status, body);
  const known = errorOf(failed.code);
  return {
    status,
    message: `${failed.message} (MiniMax status ${failed.code})`,
    code: String(failed.code),
    ...(known.type ? { type: known.type } : {}),
  };
}

function parseSpeech(body: Buffer): BinaryAnswer {
  const answer = upstreamObject(body, 'speech answer');
  const data = isRecord(answer.data) ? answer.data : {};
  const hex = typeof data.audio === 'string' ? data.audio : '';
  if (!hex || hex.length % 2 !== 0 || !/^[0-9a-f]+$/i.test(hex)) {
    throw new Error('the speech answer has no hex-encoded audio in data.audio');
  }
  const extra = isRecord(answer.extra_info) ? answer.extra_info : {};
  const format = typeof extra.audio_format === 'string' ? extra.audio_format : 'mp3';
  return { contentType: FORMATS[format] ?? 'application/octet-stream', bytes: Buffer.from(hex, 'hex') };
}

const speech: WholeBodyAdapter = {
  build: buildSpeech,
  errorStatus: (body) => {
    const failed = failedBaseResp(body);
    return failed && errorOf(failed.code).status;
  },
  parse: parseSpeech,
};

export const minimaxAdapter: ChatAdapter = {
  ...openAiAdapter,
  endpoints: { '/v1/audio/speech': speech },
  parseError: parseMinimaxError,
};
