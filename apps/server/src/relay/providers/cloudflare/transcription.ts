import { fieldError } from '../../../platform/errors.js';
import type { MultipartForm } from '../../transport/multipart.js';
import type { AdapterContext, BinaryAnswer, Json, UpstreamCall, WholeBodyAdapter } from '../types.js';
import { isRecord, upstreamObject } from '../values.js';

/**
 * Speech to text with Workers AI's Whisper models (`POST /run/@cf/openai/whisper…`): the audio of
 * the client's form goes as the body itself (whisper, whisper-tiny-en), or base64 in JSON
 * `{audio, language, initial_prompt}` (whisper-large-v3-turbo). The answer `{result: {text, vtt,
 * words}}` is given as OpenAI's `json` (`{text}`), `verbose_json`, `text` or `vtt`.
 */

const FORMATS = ['json', 'verbose_json', 'text', 'vtt'] as const;
type TranscriptFormat = (typeof FORMATS)[number];
/** Models that take the audio as base64 in a JSON body. */
const JSON_AUDIO = /whisper-large-v3-turbo/;

function formatOf(request: Json): TranscriptFormat {
  const format = request.response_format;
  if (format === undefined || format === null || format === '') return 'json';
  if (!(FORMATS as readonly unknown[]).includes(format)) {
    throw fieldError('response_format', `Workers AI gives ${FORMATS.join(', ')}, not ${JSON.stringify(format)}`);
  }
  return format as TranscriptFormat;
}

function audioOf(form: MultipartForm | undefined): Buffer {
  const part = form?.parts.find((candidate) => candidate.name === 'file' && candidate.filename !== undefined);
  if (!form || !part) throw fieldError('file', 'an audio file is required');
  return form.raw.subarray(part.start, part.end);
}

export function transcriptionCall(
  root: string,
  token: string,
  request: Json,
  context: AdapterContext,
  form: MultipartForm | undefined,
): UpstreamCall {
  formatOf(request);
  const audio = audioOf(form);
  const url = `${root}/run/${context.upstreamModel.trim()}`;
  const headers = { ...context.headers, authorization: `Bearer ${token}` };
  if (!JSON_AUDIO.test(context.upstreamModel)) {
    return { url, headers: { ...headers, 'content-type': 'application/octet-stream' }, body: audio };
  }
  const body: Json = { audio: audio.toString('base64') };
  if (typeof request.language === 'string' && request.language) body.language = request.language;
  if (typeof request.prompt === 'string' && request.prompt) body.initial_prompt = request.prompt;
  return { url, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

const text = (bytes: string, contentType: string): BinaryAnswer => ({ contentType, bytes: Buffer.from(bytes, 'utf8') });

export function transcriptionAnswer(body: Buffer, request: Json): Json | BinaryAnswer {
  const answer = upstreamObject(body, 'answer');
  const result = isRecord(answer.result) ? answer.result : undefined;
  if (!result || typeof result.text !== 'string') throw new Error('the transcription answer has no result.text');
  switch (formatOf(request)) {
    case 'text':
      return text(result.text, 'text/plain; charset=utf-8');
    case 'vtt':
      if (typeof result.vtt !== 'string') throw new Error('the model gave no vtt transcript');
      return text(result.vtt, 'text/vtt; charset=utf-8');
    case 'verbose_json': {
      const info = isRecord(result.transcription_info) ? result.transcription_info : {};
      return {
        task: 'transcribe',
        ...(typeof info.language === 'string' ? { language: info.language } : {}),
        ...(typeof info.duration === 'number' ? { duration: info.duration } : {}),
        text: result.text,
        ...(Array.isArray(result.words) ? { words: result.words } : {}),
        ...(Array.isArray(result.segments) ? { segments: result.segments } : {}),
      };
    }
    default:
      return { text: result.text };
  }
}

export function transcriptions(endpoint: {
  credentials(context: AdapterContext): { root: string; token: string };
}): WholeBodyAdapter {
  return {
    build(request, context, form) {
      const { root, token } = endpoint.credentials(context);
      return transcriptionCall(root, token, request, context, form);
    },
    parse: (body, _context, _follow, request = {}) => transcriptionAnswer(body, request),
  };
}
