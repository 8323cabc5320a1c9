import { providerType } from '../../../src/domain/channel-types/registry.js';
import { LLAMA, problem as problemDetails, replicateDefaults } from '../../providers/replicate/mock-upstream.js';
import {
  type Answer,
  type ErrorKind,
  imageArrives,
  isRecord,
  type Json,
  json,
  type ProviderEntry,
  type Received,
  type Reply,
  type Responder,
  tokensOnly,
} from '../scenario-mock.js';

/**
 * Replicate's predictions (channel type `replicate`) as api.replicate.com answers them: `POST
 * /v1/models/<owner>/<name>/predictions` with a bearer API token and `{input: {prompt, …}}` creates
 * a run and answers it (`{id, status, output, error, metrics, urls}`); a run still `starting` or
 * `processing` is read again at `GET /v1/predictions/<id>` until it has `succeeded`. A language
 * model's output is a list of text pieces; its token counts are in `metrics`
 * (`input_token_count`, `output_token_count`). Errors are problem details `{title, detail, status}`.
 * Here every run answers `processing` first, so each answer is polled once; the failure scenarios
 * (errors, malformed bodies) answer the create call, and the poll (`side`) finds the finished run.
 */

const { apiKey: TOKEN } = replicateDefaults();
const CREATE_PATH = `/v1/models/${LLAMA}/predictions`;
const POLL = /^\/v1\/predictions\/([\w-]+)$/;

const problem = (status: number, title: string, detail: string, headers: Record<string, string> = {}): Reply =>
  json(status, problemDetails(status, title, detail), headers);

function replicateError(kind: ErrorKind): Reply {
  if (kind === 'auth') return problem(401, 'Unauthenticated', 'You did not pass a valid authentication token');
  if (kind === 'rate') {
    return problem(429, 'Request was throttled.', 'Request was throttled. Expected available in 1 second.', {
      'retry-after': '1',
    });
  }
  return problem(500, 'Internal Server Error', 'An unexpected error occurred. Please try again.');
}

const authorized = (request: Received) => request.headers.authorization === `Bearer ${TOKEN}`;

function replicateResponder(): Responder {
  /** Finished runs by id, read by the poll that follows each create answer. */
  const finished = new Map<string, Json>();
  let sequence = 0;
  /** The input of the last run created, echoed in its answers as Replicate does. */
  let lastInput: Json = {};
  const prediction = (id: string, input: Json, status: string, answer?: Answer): Json => {
    // Replicate counts input and output tokens only: cached prompt tokens are plain ones there.
    const usage = answer?.usage;
    return {
      id,
      model: LLAMA,
      version: 'dp-contract0123456789',
      input,
      logs: '',
      output: answer ? answer.pieces : null,
      error: null,
      status,
      created_at: '2025-11-27T09:30:15.000Z',
      data_removed: false,
      metrics: usage
        ? {
            predict_time: 0.42,
            input_token_count: usage.input + usage.cacheRead,
            output_token_count: usage.output,
          }
        : {},
      urls: {
        get: `https://api.replicate.com/v1/predictions/${id}`,
        cancel: `https://api.replicate.com/v1/predictions/${id}/cancel`,
        stream: `https://stream.replicate.com/v1/files/${id}`,
      },
    };
  };
  return {
    side(request) {
      const id = POLL.exec(request.path)?.[1];
      if (request.method !== 'GET' || !id) return undefined;
      if (!authorized(request)) return replicateError('auth');
      const run = finished.get(id);
      return run ? json(200, run) : problem(404, 'Not found', 'No such prediction.');
    },
    read(request) {
      if (request.method !== 'POST' || request.path !== CREATE_PATH) {
        return problem(404, 'Not found', 'The requested resource could not be found.');
      }
      if (!authorized(request)) return replicateError('auth');
      const given = isRecord(request.body?.input) ? request.body.input : undefined;
      if (!given || typeof given.prompt !== 'string' || !given.prompt) {
        return problem(422, 'Input validation failed', '- input: prompt is required');
      }
      lastInput = given;
      return { model: LLAMA, stream: false, tools: [], images: imageArrives(given.image) ? 1 : 0, api: 'chat' };
    },
    whole(answer) {
      sequence += 1;
      const id = `c0ntract${sequence}rep`;
      finished.set(id, prediction(id, lastInput, 'succeeded', answer));
      return prediction(id, lastInput, 'processing');
    },
    stream: () => {
      throw new Error('Replicate chats are answered whole here');
    },
    error: (kind) => replicateError(kind),
  };
}

const NO_STREAM = 'the gateway answers Replicate chats whole (a stream is a 400, tested in replicate/relay.test.ts)';
const METRICS = "Replicate's metrics count input and output tokens only";

export const replicateProvider: ProviderEntry = {
  name: 'Replicate (predictions)',
  type: providerType('replicate'),
  model: LLAMA,
  setup: () => ({ responder: replicateResponder(), channel: (url) => ({ key: TOKEN, base_url: url }) }),
  authStatus: 502,
  usage: tokensOnly(METRICS),
  skip: {
    'text stream': NO_STREAM,
    'usage_rich stream': NO_STREAM,
    cut: NO_STREAM,
    'anthropic sdk stream': NO_STREAM,
    'gemini sdk stream': NO_STREAM,
    tool_call: 'Replicate models are given a prompt, not tools: a 400, tested in replicate/relay.test.ts',
    'tool_call stream': 'Replicate models are given a prompt, not tools, and are not streamed here',
    image_echo:
      "Replicate's vision models take one image (the `image` input) and the case sends two, a 400; one image is tested in replicate/relay.test.ts",
  },
};
