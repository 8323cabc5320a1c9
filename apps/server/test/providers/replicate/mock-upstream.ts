import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { isRecord, type Json } from '@one-hub/contracts';
import { type ListeningMock, listenMock, sendJson } from '../../mocks/mock-server.js';
import { hasBearer, jsonObject, readWhole } from '../mock-request.js';

/**
 * A local stand-in for Replicate's HTTP API, as its reference describes it. Every call needs
 * `Authorization: Bearer <token>`; errors are problem details `{title, detail, status}`.
 *
 * - `POST /v1/models/<owner>/<name>/predictions` `{input}` (official models) and
 *   `POST /v1/predictions` `{version, input}` create a prediction and answer it
 *   (`{id, model, version, input, status, output, error, metrics, urls: {get, cancel, stream}}`).
 * - `GET /v1/predictions/<id>` reads it; `POST /v1/predictions/<id>/cancel` cancels it.
 * - `GET /files/<name>` serves an output file (as replicate.delivery does).
 *
 * A prediction goes through `behaviour.steps` (e.g. starting → processing) one state per answer,
 * the create answer being the first, then ends as `behaviour.end` (succeeded, failed) — or never,
 * with `neverFinish`. Language models (names with "llama") output text pieces and report token
 * counts in `metrics` (unless `reportTokens` is off); image models (names with "flux") output
 * `num_outputs` (default 1) file URLs. Inputs are checked: `prompt` is required, `max_tokens` at
 * most 4096 (a 422 otherwise, as Replicate answers input that fails the model's schema).
 */

export const LLAMA = 'meta/meta-llama-3-8b-instruct';
export const FLUX = 'black-forest-labs/flux-schnell';
export const REPLY_PIECES = ['Hello', ' from', ' the', ' llama.'];
export const REPORTED_TOKENS = { input: 21, output: 6 };
const MAX_TOKENS = 4096;

export interface ReplicateBehaviour {
  apiKey: string;
  steps: string[];
  end: 'succeeded' | 'failed';
  /** The `error` of a failed prediction. */
  error: string;
  neverFinish: boolean;
  reportTokens: boolean;
}

export interface ReplicateRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Json;
}

interface Prediction {
  id: string;
  model: string;
  version: string;
  input: Json;
  /** Answers given so far. */
  answers: number;
  canceled: boolean;
}

export type ReplicateMock = ListeningMock<ReplicateBehaviour, ReplicateRequest> & {
  /** The bytes of an output file. */
  fileBytes(name: string): Buffer;
};

export const replicateDefaults = (): ReplicateBehaviour => ({
  apiKey: 'r8_mock_replicate_token_0b9c',
  steps: [],
  end: 'succeeded',
  error: 'CUDA out of memory',
  neverFinish: false,
  reportTokens: true,
});

/** Replicate's error body: problem details. */
export const problem = (status: number, title: string, detail: string) => ({ title, detail, status });

export function mockFileBytes(name: string): Buffer {
  return Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'), createHash('sha256').update(name).digest()]);
}

function outputOf(prediction: Prediction, baseUrl: string): unknown {
  if (prediction.model.includes('flux')) {
    const count = typeof prediction.input.num_outputs === 'number' ? prediction.input.num_outputs : 1;
    return Array.from({ length: count }, (_, index) => `${baseUrl}/files/${prediction.id}-${index}.webp`);
  }
  return REPLY_PIECES;
}

export async function startReplicateMock(): Promise<ReplicateMock> {
  const state = { behaviour: replicateDefaults(), received: [] as ReplicateRequest[] };
  const predictions = new Map<string, Prediction>();
  let baseUrl = '';
  let sequence = 0;

  const view = (prediction: Prediction): Json => {
    const { behaviour } = state;
    const states = [...behaviour.steps, behaviour.end];
    const status = prediction.canceled
      ? 'canceled'
      : behaviour.neverFinish
        ? 'processing'
        : (states[Math.min(prediction.answers, states.length - 1)] ?? 'succeeded');
    prediction.answers += 1;
    const done = status === 'succeeded';
    const language = !prediction.model.includes('flux');
    return {
      id: prediction.id,
      model: prediction.model,
      version: prediction.version,
      input: prediction.input,
      logs: '',
      output: done ? outputOf(prediction, baseUrl) : null,
      error: status === 'failed' ? behaviour.error : null,
      status,
      created_at: '2025-01-01T00:00:00.000Z',
      data_removed: false,
      metrics:
        done && language && behaviour.reportTokens
          ? {
              predict_time: 0.4,
              input_token_count: REPORTED_TOKENS.input,
              output_token_count: REPORTED_TOKENS.output,
            }
          : done
            ? { predict_time: 0.4 }
            : {},
      urls: {
        get: `${baseUrl}/v1/predictions/${prediction.id}`,
        cancel: `${baseUrl}/v1/predictions/${prediction.id}/cancel`,
        stream: `${baseUrl}/v1/stream/${prediction.id}`,
      },
    };
  };

  const server = createServer(async (request, response) => {
    const { method, path, raw } = await readWhole(request);
    const body = jsonObject(raw);
    if (!body) return sendJson(response, 400, problem(400, 'Bad request', 'the body is not JSON'));
    state.received.push({ method, path, headers: request.headers, body });
    const file = /^\/files\/([\w.-]+)$/.exec(path)?.[1];
    if (method === 'GET' && file) {
      response.writeHead(200, { 'content-type': 'image/webp' });
      return response.end(mockFileBytes(file));
    }
    if (!hasBearer(request, state.behaviour.apiKey)) {
      return sendJson(response, 401, problem(401, 'Unauthenticated', 'You did not pass a valid authentication token'));
    }
    const official = /^\/v1\/models\/([\w.-]+\/[\w.-]+)\/predictions$/.exec(path)?.[1];
    if (method === 'POST' && (official || path === '/v1/predictions')) {
      const model = official ?? 'owner/versioned-llama';
      if (!official && typeof body.version !== 'string') {
        return sendJson(response, 422, problem(422, 'Input validation failed', '- version: version is required'));
      }
      if (official && !official.includes('llama') && !official.includes('flux')) {
        return sendJson(response, 404, problem(404, 'Not found', 'The requested resource could not be found.'));
      }
      const input = isRecord(body.input) ? body.input : undefined;
      if (!input || typeof input.prompt !== 'string' || !input.prompt) {
        return sendJson(response, 422, problem(422, 'Input validation failed', '- input: prompt is required'));
      }
      if (typeof input.max_tokens === 'number' && input.max_tokens > MAX_TOKENS) {
        return sendJson(
          response,
          422,
          problem(422, 'Input validation failed', `- input.max_tokens: Must be less than or equal to ${MAX_TOKENS}`),
        );
      }
      sequence += 1;
      const prediction: Prediction = {
        id: `pred${sequence}x${Date.now().toString(36)}`,
        model,
        version: official ? 'official' : String(body.version),
        input,
        answers: 0,
        canceled: false,
      };
      predictions.set(prediction.id, prediction);
      return sendJson(response, 201, view(prediction));
    }
    const read = /^\/v1\/predictions\/(\w+)(\/cancel)?$/.exec(path);
    const prediction = read?.[1] ? predictions.get(read[1]) : undefined;
    if (read && !prediction) return sendJson(response, 404, problem(404, 'Not found', 'No such prediction.'));
    if (prediction && method === 'GET' && !read?.[2]) return sendJson(response, 200, view(prediction));
    if (prediction && method === 'POST' && read?.[2]) {
      prediction.canceled = true;
      return sendJson(response, 200, view(prediction));
    }
    return sendJson(response, 404, problem(404, 'Not found', `${method} ${path}`));
  });
  const mock = await listenMock(server, state, replicateDefaults);
  baseUrl = mock.url;
  return Object.assign(mock, { fileBytes: mockFileBytes });
}
