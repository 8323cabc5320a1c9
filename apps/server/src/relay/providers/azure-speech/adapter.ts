import type {
  AdapterContext,
  BinaryAnswer,
  ChatAdapter,
  Json,
  UpstreamCall,
  UpstreamErrorInfo,
  WholeBodyAdapter,
} from '../types.js';
import { isRecord } from '../values.js';
import { readSpeech } from './voice-mapping.js';

/**
 * Azure AI Speech text to speech (REST `POST /cognitiveservices/v1`): OpenAI's speech request
 * becomes an SSML document, the audio comes back as bytes. Speech is all it serves: chat and the
 * other endpoints go to other channels.
 */

/** OpenAI's voices to Azure's, as the reference gateway maps them; the channel's plugin overrides. */
export const AZURE_DEFAULT_VOICES: Readonly<Record<string, string>> = {
  alloy: 'zh-CN-YunxiNeural',
  echo: 'zh-CN-YunyangNeural',
  fable: 'zh-CN-YunxiNeural|Boy',
  onyx: 'zh-CN-YunyeNeural',
  nova: 'zh-CN-XiaochenNeural',
  shimmer: 'zh-CN-XiaohanNeural',
};

/** OpenAI's `response_format` to Azure's output format and the audio's content type. */
const OUTPUT_FORMATS: Readonly<Record<string, { azure: string; contentType: string }>> = {
  mp3: { azure: 'audio-24khz-48kbitrate-mono-mp3', contentType: 'audio/mpeg' },
  opus: { azure: 'ogg-24khz-16bit-mono-opus', contentType: 'audio/ogg' },
  wav: { azure: 'riff-24khz-16bit-mono-pcm', contentType: 'audio/wav' },
  // OpenAI's pcm is raw 24 kHz 16-bit mono, which is exactly this.
  pcm: { azure: 'raw-24khz-16bit-mono-pcm', contentType: 'audio/pcm' },
};

/** Azure's rate is a multiple of the voice's normal speed, from half to double. */
const MIN_RATE = 0.5;
const MAX_RATE = 2;

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
export const escapeXml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => XML_ESCAPES[character] ?? '');

function outputFormat(name: unknown): { azure: string; contentType: string } {
  const format = typeof name === 'string' ? OUTPUT_FORMATS[name] : undefined;
  if (!format) {
    const known = Object.keys(OUTPUT_FORMATS).join(', ');
    throw new Error(`response_format: Azure Speech gives ${known}; ${JSON.stringify(name)} is not one of them`);
  }
  return format;
}

/** The locale an Azure voice name starts with (`zh-CN-YunxiNeural` → `zh-CN`), else en-US. */
function localeOf(voice: string): string {
  return /^([a-z]{2,3}-[A-Za-z]{2,4})-/.exec(voice)?.[1] ?? 'en-US';
}

/** The SSML document Azure reads: the text escaped, the role and the rate when asked for. */
export function speechSsml(text: string, voice: string, options: { role?: string; rate?: number } = {}): string {
  let body = escapeXml(text);
  if (options.rate !== undefined) body = `<prosody rate="${options.rate}">${body}</prosody>`;
  if (options.role) body = `<mstts:express-as role="${escapeXml(options.role)}">${body}</mstts:express-as>`;
  const locale = localeOf(voice);
  return (
    `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xmlns:mstts="https://www.w3.org/2001/mstts" xml:lang="${locale}">` +
    `<voice name="${escapeXml(voice)}">${body}</voice></speak>`
  );
}

/** The synthesis URL: the channel's base URL when it has one, else the region's own host. */
export function azureSpeechUrl(context: AdapterContext): string {
  const base = context.baseUrl.replace(/\/+$/, '');
  if (base) return base.endsWith('/cognitiveservices/v1') ? base : `${base}/cognitiveservices/v1`;
  const region = context.other.trim();
  if (!/^[a-z0-9-]+$/i.test(region)) {
    throw new Error("the channel's region (other) must be an Azure region such as eastus, or set a base URL");
  }
  return `https://${region.toLowerCase()}.tts.speech.microsoft.com/cognitiveservices/v1`;
}

function buildSpeech(body: Json, context: AdapterContext): { upstream: UpstreamCall; contentType: string } {
  const asked = readSpeech(body, context.plugin, {
    defaults: AZURE_DEFAULT_VOICES,
    minSpeed: MIN_RATE,
    maxSpeed: MAX_RATE,
  });
  const format = outputFormat(asked.format);
  const upstream: UpstreamCall = {
    url: azureSpeechUrl(context),
    headers: {
      ...context.headers,
      'ocp-apim-subscription-key': context.key,
      'content-type': 'application/ssml+xml',
      'x-microsoft-outputformat': format.azure,
      'user-agent': 'one-hub',
    },
    body: speechSsml(asked.text, asked.voice.voice, {
      ...(asked.voice.extra ? { role: asked.voice.extra } : {}),
      ...(asked.speed !== undefined ? { rate: asked.speed } : {}),
    }),
  };
  return { upstream, contentType: format.contentType };
}

/** The content type of each call's audio, from its build to its answer (the same context object). */
const askedFormats = new WeakMap<AdapterContext, string>();

const speech: WholeBodyAdapter = {
  build(body, context) {
    const call = buildSpeech(body, context);
    askedFormats.set(context, call.contentType);
    return call.upstream;
  },
  parse(body: Buffer, context): BinaryAnswer {
    if (body.length === 0) throw new Error('Azure Speech answered without audio');
    return { contentType: askedFormats.get(context) ?? 'application/octet-stream', bytes: body };
  },
};

/** Azure's errors: JSON `{error: {code, message}}` (a bad key), or a text or empty body. */
export function parseAzureSpeechError(status: number, body: Buffer): UpstreamErrorInfo {
  const text = body.toString('utf8').trim();
  try {
    const parsed: unknown = JSON.parse(text);
    const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : parsed;
    if (isRecord(error) && typeof error.message === 'string') {
      return { status, message: error.message, ...(typeof error.code === 'string' ? { code: error.code } : {}) };
    }
  } catch {
    // Not JSON: the text is the message.
  }
  const fallback = status === 400 ? 'Azure Speech refused the request (an unknown voice or invalid SSML)' : '';
  return { status, message: text.slice(0, 500) || fallback || `Azure Speech answered HTTP ${status}` };
}

const speechOnly = (): never => {
  throw new Error('Azure Speech channels serve /v1/audio/speech only');
};

export const azureSpeechAdapter: ChatAdapter = {
  format: 'azure-speech',
  chat: false,
  endpoints: { '/v1/audio/speech': speech },
  buildChat: speechOnly,
  parseChat: speechOnly,
  decodeStream: speechOnly,
  parseError: parseAzureSpeechError,
};
