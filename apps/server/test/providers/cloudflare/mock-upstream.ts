import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isRecord, type Json } from '@one-hub/contracts';
import { type ListeningMock, listenMock, pieces, sendJson } from '../../mocks/mock-server.js';
import { hasBearer, jsonObject, readWhole } from '../mock-request.js';

/**
 * A local stand-in for Cloudflare Workers AI's REST API, as its documentation describes it, under
 * `/client/v4/accounts/<account_id>/ai/` with `Authorization: Bearer <api_token>`. Errors are
 * Cloudflare's envelope `{success: false, errors: [{code, message}], messages: []}` (10000 for
 * a bad token, 5006 for input that fails the model's schema, 5007 for an unknown model).
 *
 * - `POST v1/chat/completions`, `POST v1/embeddings`: the OpenAI-compatible endpoints (OpenAI's
 *   bodies; a chat streams as OpenAI's SSE, with a usage chunk when `stream_options.include_usage`).
 * - `POST run/@cf/black-forest-labs/flux-1-schnell`: JSON `{prompt, steps ≤ 8}` only (no other
 *   property); answers `{result: {image: <base64 JPEG>}, success: true, errors: [], messages: []}`.
 * - `POST run/@cf/stabilityai/stable-diffusion-xl-base-1.0`: JSON `{prompt, negative_prompt,
 *   width, height (256–2048), num_steps, guidance, seed}`; answers the PNG bytes (`image/png`).
 * - `POST run/@cf/openai/whisper`: the audio bytes as the body; `POST run/@cf/openai/whisper-large-v3-turbo`:
 *   JSON `{audio: <base64>, language, initial_prompt}`. Both answer `{result: {text, vtt, …}}`, the text
 *   naming how many bytes were heard.
 */

export const ACCOUNT = '0123456789abcdef0123456789abcdef';
export const CHAT_MODEL = '@cf/meta/llama-3.1-8b-instruct';
export const EMBEDDING_MODEL = '@cf/baai/bge-base-en-v1.5';
export const FLUX = '@cf/black-forest-labs/flux-1-schnell';
export const SDXL = '@cf/stabilityai/stable-diffusion-xl-base-1.0';
export const WHISPER = '@cf/openai/whisper';
export const WHISPER_TURBO = '@cf/openai/whisper-large-v3-turbo';
export const CHAT_REPLY = 'Workers AI says hello.';
export const CHAT_USAGE = { prompt_tokens: 17, completion_tokens: 6, total_tokens: 23 };

export interface CloudflareBehaviour {
  token: string;
}

export interface CloudflareRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Json;
  /** The body as sent, for binary bodies (audio). */
  raw: Buffer;
}

export type CloudflareMock = ListeningMock<CloudflareBehaviour, CloudflareRequest>;

const defaults = (): CloudflareBehaviour => ({ token: 'cf-mock-api-token-71c4' });

const envelope = (code: number, message: string) => ({ success: false, errors: [{ code, message }], messages: [] });

/** The image a model makes for an input: the format's signature, then a digest of the input. */
export function mockImage(model: string, input: Json): Buffer {
  const signature =
    model === FLUX
      ? Buffer.from([0xff, 0xd8, 0xff, 0xe0])
      : Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, createHash('sha256').update(JSON.stringify(input)).digest()]);
}

function chat(response: ServerResponse, body: Json) {
  const base = { id: 'chatcmpl-cf1', created: 1_760_000_000, model: body.model };
  if (body.stream !== true) {
    return sendJson(response, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: CHAT_REPLY }, finish_reason: 'stop' }],
      usage: CHAT_USAGE,
    });
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (choices: unknown[], extra: Json = {}) =>
    response.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`);
  for (const piece of pieces(CHAT_REPLY, 3)) chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]);
  chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  if (options.include_usage === true) chunk([], { usage: CHAT_USAGE });
  response.end('data: [DONE]\n\n');
}

function embeddings(response: ServerResponse, body: Json) {
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  if (inputs.some((input) => typeof input !== 'string' || !input)) {
    return sendJson(response, 400, envelope(5006, "Error: required properties at '/' are 'text'"));
  }
  sendJson(response, 200, {
    object: 'list',
    model: body.model,
    data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: [0.125, -0.5, index] })),
  });
}

/** What the mock hears in audio: the byte count, so a test can tell the bytes arrived whole. */
export const heard = (audio: Buffer) => `heard ${audio.length} bytes`;

function transcribe(response: ServerResponse, model: string, raw: Buffer, input: Json) {
  const audio = model === WHISPER_TURBO && typeof input.audio === 'string' ? Buffer.from(input.audio, 'base64') : raw;
  if (audio.length === 0)
    return sendJson(response, 400, envelope(5006, "Error: required properties at '/' are 'audio'"));
  const text = heard(audio);
  const vtt = `WEBVTT\n\n00:00.000 --> 00:01.500\n${text}`;
  const result: Json =
    model === WHISPER_TURBO
      ? {
          text,
          vtt,
          word_count: 3,
          segments: [],
          transcription_info: { language: input.language ?? 'en', duration: 1.5 },
        }
      : { text, vtt, word_count: 3, words: [{ word: 'heard', start: 0, end: 0.5 }] };
  return sendJson(response, 200, { result, success: true, errors: [], messages: [] });
}

function runModel(response: ServerResponse, model: string, input: Json) {
  if (typeof input.prompt !== 'string' || !input.prompt) {
    return sendJson(response, 400, envelope(5006, "Error: required properties at '/' are 'prompt'"));
  }
  if (model === FLUX) {
    const extra = Object.keys(input).find((key) => key !== 'prompt' && key !== 'steps');
    if (extra) return sendJson(response, 400, envelope(5006, `Error: additional property '${extra}' is not allowed`));
    if (input.steps !== undefined && !(Number.isInteger(input.steps) && Number(input.steps) <= 8)) {
      return sendJson(response, 400, envelope(5006, "Error: '/steps' must be <= 8"));
    }
    const image = mockImage(model, input).toString('base64');
    return sendJson(response, 200, { result: { image }, success: true, errors: [], messages: [] });
  }
  if (model === SDXL) {
    for (const side of ['width', 'height']) {
      const value = input[side];
      if (value !== undefined && !(Number.isInteger(value) && Number(value) >= 256 && Number(value) <= 2048)) {
        return sendJson(response, 400, envelope(5006, `Error: '/${side}' must be from 256 to 2048`));
      }
    }
    response.writeHead(200, { 'content-type': 'image/png' });
    return response.end(mockImage(model, input));
  }
  sendJson(response, 400, envelope(5007, `No such model ${model} or task`));
}

export async function startCloudflareMock(): Promise<CloudflareMock> {
  const state = { behaviour: defaults(), received: [] as CloudflareRequest[] };
  const server = createServer(async (request, response) => {
    const { method, path, contentType, raw: bytes } = await readWhole(request);
    let body: Json = {};
    if (!contentType.startsWith('application/octet-stream')) {
      const parsed = jsonObject(bytes);
      if (!parsed) return sendJson(response, 400, envelope(5006, 'Error: the body is not JSON'));
      body = parsed;
    }
    state.received.push({ method, path, headers: request.headers, body, raw: bytes });
    if (!hasBearer(request, state.behaviour.token)) {
      return sendJson(response, 401, envelope(10000, 'Authentication error'));
    }
    const root = `/client/v4/accounts/${ACCOUNT}/ai/`;
    if (method !== 'POST' || !path.startsWith(root)) {
      return sendJson(
        response,
        400,
        envelope(7003, `Could not route to ${path}, perhaps your object identifier is invalid?`),
      );
    }
    const rest = path.slice(root.length);
    if (rest === 'v1/chat/completions') return chat(response, body);
    if (rest === 'v1/embeddings') return embeddings(response, body);
    const model = rest.startsWith('run/') ? rest.slice('run/'.length) : undefined;
    if (model === WHISPER || model === WHISPER_TURBO) return transcribe(response, model, bytes, body);
    if (model) return runModel(response, model, body);
    return sendJson(response, 404, envelope(7000, 'No route for that URI'));
  });
  return listenMock(server, state, defaults);
}
