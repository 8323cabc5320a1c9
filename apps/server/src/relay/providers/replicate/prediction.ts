import { AppError, fieldError } from '../../../platform/errors.js';
import { parseOpenAiError } from '../openai/adapter.js';
import type { AdapterContext, FollowUp, Json, UpstreamCall, UpstreamErrorInfo } from '../types.js';
import { isRecord, upstreamObject } from '../values.js';

/**
 * Replicate's predictions (HTTP API): a model run is created with `POST /v1/models/<owner>/<name>/predictions`
 * (or `POST /v1/predictions` with a `version` for `owner/name:version`), asked to wait for the
 * result (`Prefer: wait`, up to a minute). An answer still `starting` or `processing` is polled at
 * `urls.get` with growing pauses until it `succeeded`, `failed` or was `canceled`; a run that
 * outlasts the deadline is canceled and reported, so an exchange never hangs.
 */

/** How the polling waits; tests shorten it. */
export interface PollTiming {
  /** The pauses before each poll in turn; the last repeats. */
  delaysMs: readonly number[];
  /** How long a prediction may run, from the first answer, before it is canceled. */
  deadlineMs: number;
  sleep(ms: number): Promise<void>;
  now(): number;
}

export const DEFAULT_POLL_TIMING: PollTiming = {
  delaysMs: [500, 1000, 1000, 2000, 2000, 3000, 5000],
  deadlineMs: 5 * 60_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: Date.now,
};

const RUNNING = new Set(['starting', 'processing']);
const FINISHED = new Set(['succeeded', 'failed', 'canceled']);

/** The API root: the channel's base URL without a `/v1` it may end in. */
const rootOf = (context: AdapterContext): string => context.baseUrl.replace(/\/v1$/, '');

export const replicateAuth = (context: AdapterContext): Record<string, string> => ({
  ...context.headers,
  authorization: `Bearer ${context.key}`,
});

/** The call that creates a prediction of the channel's model with `input`. */
export function createPredictionCall(context: AdapterContext, input: Json): UpstreamCall {
  const [name = '', version] = context.upstreamModel.trim().split(':');
  if (!/^[\w.-]+\/[\w.-]+$/.test(name) || version === '') {
    throw fieldError(
      'model',
      `Replicate models are named owner/name or owner/name:version, not ${context.upstreamModel}`,
    );
  }
  const url = version ? `${rootOf(context)}/v1/predictions` : `${rootOf(context)}/v1/models/${name}/predictions`;
  return {
    url,
    headers: { ...replicateAuth(context), 'content-type': 'application/json', prefer: 'wait' },
    body: JSON.stringify(version ? { version, input } : { input }),
  };
}

/** Where the prediction is read: its `urls.get` when it is on the channel's own host, else by its id. */
function pollUrl(prediction: Json, context: AdapterContext): string {
  const root = rootOf(context);
  const get = isRecord(prediction.urls) ? prediction.urls.get : undefined;
  if (typeof get === 'string' && URL.canParse(get) && new URL(get).origin === new URL(root).origin) return get;
  if (typeof prediction.id !== 'string' || !prediction.id)
    throw new Error('the prediction has neither urls.get nor an id');
  return `${root}/v1/predictions/${encodeURIComponent(prediction.id)}`;
}

function statusOf(prediction: Json): string {
  const { status } = prediction;
  if (typeof status !== 'string' || !(RUNNING.has(status) || FINISHED.has(status))) {
    throw new Error(`the prediction's status ${JSON.stringify(status)} is not one Replicate documents`);
  }
  return status;
}

async function cancel(prediction: Json, context: AdapterContext, follow: FollowUp): Promise<void> {
  const url = `${pollUrl(prediction, context).replace(/\/+$/, '')}/cancel`;
  await follow({ url, method: 'POST', headers: replicateAuth(context) }).catch(() => undefined);
}

/**
 * The prediction of a create answer once it has finished, polled through `follow`. A failed or
 * canceled run, or one past the deadline (then canceled), is an AppError saying so.
 */
export async function finishedPrediction(
  body: Buffer,
  context: AdapterContext,
  follow: FollowUp,
  timing: PollTiming,
): Promise<Json> {
  let prediction = upstreamObject(body, 'prediction');
  const started = timing.now();
  let polls = 0;
  while (RUNNING.has(statusOf(prediction))) {
    const left = timing.deadlineMs - (timing.now() - started);
    if (left <= 0) {
      await cancel(prediction, context, follow);
      const minutes = Math.round(timing.deadlineMs / 6000) / 10;
      throw new AppError(
        'upstream_error',
        `the Replicate prediction did not finish within ${minutes} min and was canceled`,
        {
          status: 504,
          details: { code: 'upstream_timeout' },
        },
      );
    }
    const delays = timing.delaysMs;
    await timing.sleep(Math.min(left, delays[Math.min(polls, delays.length - 1)] ?? 1000));
    polls += 1;
    const answer = await follow({ url: pollUrl(prediction, context), method: 'GET', headers: replicateAuth(context) });
    prediction = upstreamObject(answer.body, 'prediction');
  }
  const status = statusOf(prediction);
  if (status === 'failed') {
    const reason = typeof prediction.error === 'string' && prediction.error ? prediction.error : 'no reason given';
    throw new AppError('upstream_error', `the Replicate prediction failed: ${reason}`, { status: 502 });
  }
  if (status === 'canceled')
    throw new AppError('upstream_error', 'the Replicate prediction was canceled', { status: 502 });
  return prediction;
}

/** Replicate's errors are problem details: `{title, detail, status}`. */
export function parseReplicateError(status: number, body: Buffer): UpstreamErrorInfo {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return parseOpenAiError(status, body);
  }
  if (!isRecord(parsed) || typeof parsed.detail !== 'string') return parseOpenAiError(status, body);
  const title = typeof parsed.title === 'string' && parsed.title ? `${parsed.title}: ` : '';
  const message = `${title}${parsed.detail}`;
  if (status === 401) return { status, message, type: 'authentication_error' };
  if (status === 402) return { status, message, type: 'insufficient_quota' };
  return { status, message };
}
