import { createServer, type IncomingMessage } from 'node:http';
import { isRecord, type Json } from '@one-hub/contracts';
import { type ListeningMock, listenMock, sendJson } from '../../mocks/mock-server.js';

/**
 * A local stand-in for MiniMax's API (`api.minimax.chat`), as its documentation describes it:
 *
 * - `POST /v1/t2a_v2` (T2A v2, non-streaming): `Authorization: Bearer <key>`, a JSON body with
 *   `model`, `text`, `stream: false`, `voice_setting.voice_id` (one of its system voices),
 *   `voice_setting.speed` within 0.5–2, optional `emotion`, `audio_setting.format` one of mp3,
 *   wav, flac, pcm. It answers HTTP 200 with the audio HEX-encoded in `data.audio`,
 *   `extra_info` and `base_resp: {status_code: 0}`; failures also come as HTTP 200 with
 *   `base_resp.status_code` ≠ 0 (1004 a bad key, 2013 invalid parameters, 2054 an unknown voice,
 *   1002 the rate limit when `rateLimited` is set).
 * - `POST /v1/chat/completions`: OpenAI's format (MiniMax's compatible chat), a fixed reply.
 */

export const MINIMAX_VOICES = new Set([
  'female-chengshu',
  'male-qn-qingse',
  'male-qn-jingying',
  'presenter_male',
  'presenter_female',
  'audiobook_female_1',
  'female-tianmei',
]);
const FORMATS = new Set(['mp3', 'wav', 'flac', 'pcm']);
const EMOTIONS = new Set(['happy', 'sad', 'angry', 'fearful', 'disgusted', 'surprised', 'neutral']);

export interface MinimaxBehaviour {
  apiKey: string;
  reply: string;
  /** Answer every synthesis with base_resp 1002 (rate limited). */
  rateLimited: boolean;
}

export interface MinimaxRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Json;
}

export type MinimaxMock = ListeningMock<MinimaxBehaviour, MinimaxRequest>;

const defaults = (): MinimaxBehaviour => ({
  apiKey: 'minimax-mock-key-31c9',
  reply: 'Hello from MiniMax.',
  rateLimited: false,
});

/** The audio the mock makes for a synthesis: its format, voice and text. */
export function minimaxAudio(format: string, voice: string, text: string): Buffer {
  return Buffer.from(`${format}|${voice}|${text}`, 'utf8');
}

const failure = (code: number, message: string) => ({ base_resp: { status_code: code, status_msg: message } });

function speechProblem(body: Json): { code: number; message: string } | undefined {
  const voice = isRecord(body.voice_setting) ? body.voice_setting : undefined;
  const audio = isRecord(body.audio_setting) ? body.audio_setting : undefined;
  if (typeof body.model !== 'string' || !body.model) return { code: 2013, message: 'invalid params, model' };
  if (typeof body.text !== 'string' || !body.text) return { code: 2013, message: 'invalid params, text' };
  if (body.stream !== false && body.stream !== undefined) return { code: 2013, message: 'invalid params, stream' };
  if (!voice || typeof voice.voice_id !== 'string') return { code: 2013, message: 'invalid params, voice_id' };
  if (!MINIMAX_VOICES.has(voice.voice_id)) return { code: 2054, message: 'voice id not exist' };
  const speed = voice.speed;
  if (speed !== undefined && (typeof speed !== 'number' || speed < 0.5 || speed > 2)) {
    return { code: 2013, message: 'invalid params, speed' };
  }
  if (voice.emotion !== undefined && !EMOTIONS.has(String(voice.emotion))) {
    return { code: 2013, message: 'invalid params, emotion' };
  }
  if (!audio || !FORMATS.has(String(audio.format))) return { code: 2013, message: 'invalid params, format' };
  return undefined;
}

export async function startMinimaxMock(): Promise<MinimaxMock> {
  const state = { behaviour: defaults(), received: [] as MinimaxRequest[] };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body: Json = {};
    try {
      const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (isRecord(parsed)) body = parsed;
    } catch {
      return sendJson(response, 200, failure(2013, 'invalid params, body is not JSON'));
    }
    const path = request.url ?? '/';
    state.received.push({ path, headers: request.headers, body });
    const authorized = request.headers.authorization === `Bearer ${state.behaviour.apiKey}`;
    if (path === '/v1/chat/completions') {
      if (!authorized) return sendJson(response, 401, { error: { message: 'invalid api key', type: 'auth_error' } });
      return sendJson(response, 200, {
        id: 'chatcmpl-minimax',
        object: 'chat.completion',
        created: 1_760_000_000,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: state.behaviour.reply }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 },
      });
    }
    if (path !== '/v1/t2a_v2' || request.method !== 'POST') return sendJson(response, 404, { message: 'not found' });
    if (request.headers['content-type'] !== 'application/json') {
      return sendJson(response, 200, failure(2013, 'invalid params, content-type'));
    }
    if (!authorized) {
      return sendJson(
        response,
        200,
        failure(1004, "login fail: Please carry the API secret key in the 'Authorization' field"),
      );
    }
    if (state.behaviour.rateLimited) return sendJson(response, 200, failure(1002, 'rate limit exceeded(RPM)'));
    const problem = speechProblem(body);
    if (problem) return sendJson(response, 200, failure(problem.code, problem.message));
    const voice = body.voice_setting as Json;
    const format = String((body.audio_setting as Json).format);
    const audio = minimaxAudio(format, String(voice.voice_id), String(body.text));
    sendJson(response, 200, {
      data: { audio: audio.toString('hex'), status: 2, ced: '' },
      extra_info: {
        audio_length: 1200,
        audio_sample_rate: 32000,
        audio_size: audio.length,
        bitrate: 128000,
        word_count: 3,
        invisible_character_ratio: 0,
        usage_characters: [...String(body.text)].length,
        audio_format: format,
        audio_channel: 1,
      },
      trace_id: '01b8bf9bb7433cc75c18eee6cfa8fe21',
      base_resp: { status_code: 0, status_msg: 'success' },
    });
  });
  return listenMock(server, state, defaults);
}
