import type { ServerResponse } from 'node:http';
import type { ActivePlan } from '../../domain/active-plan.js';
import type { RelayHttpReply, RelayHttpRequest } from '../../http/relay-front.js';
import { type GroupsDep, keyRefOf, type PlansDep, planOf } from '../access/budget-rules.js';
import { requestedCompletionTokens } from '../billing/completion-estimates.js';
import type { QuotaWait, Reservation } from '../billing/ledger.js';
import { type Price, reservationQuota } from '../billing/quota.js';
import type { RouterChannel } from '../routing/router.js';
import type { Attempt, Endpoint, RelayDeps } from './types.js';

/**
 * The quota a relay request holds before its first channel is called (issue 30): sized from the
 * request (its counted prompt and the completion it may produce), and, when the payer's other
 * running requests hold what it needs, waiting for them as QuotaWaitSeconds and the client allow.
 */
export type ReservationDeps = Pick<RelayDeps, 'ledger' | 'options' | 'completions'> & GroupsDep & PlansDep;

/** The refusal reaches the client this long before its own timeout would end the request. */
const CLIENT_TIMEOUT_MARGIN_MS = 1000;

export function reserveForRequest(
  deps: ReservationDeps,
  endpoint: Endpoint,
  attempt: Attempt,
  first: { channel: RouterChannel; price: Price; billedModel: string },
  request: RelayHttpRequest,
  reply: RelayHttpReply,
): Reservation | Promise<Reservation> {
  const { caller } = attempt;
  const promptTokens = reservedPromptTokens(endpoint, attempt, first.channel.pre_cost);
  const requested = requestedCompletionTokens(attempt.input.fields);
  // Asked again on each resize: a waiting request is sized by what the node has learned meanwhile.
  const completionTokens = () => requested ?? deps.completions?.estimate(first.billedModel);
  const size = () =>
    reservationQuota({
      price: first.price,
      groupRatio: attempt.groupRatio,
      promptTokens,
      completionTokens: completionTokens(),
      preConsumedQuota: deps.options.getNumber('PreConsumedQuota'),
    });
  const reserve = (plan: ActivePlan | undefined) => {
    const key = keyRefOf(deps, caller, promptTokens + (completionTokens() ?? 0), plan);
    return deps.ledger.reserve(caller.user.id, key, size(), () =>
      quotaWait(deps, attempt.startedAt, request, reply.raw, size),
    );
  };
  const plan = planOf(deps, caller.user.id, attempt.input.model);
  return plan instanceof Promise ? plan.then(reserve) : reserve(plan);
}

/**
 * How long this request may wait for quota: QuotaWaitSeconds from now, never past the client's
 * own timeout (the `x-stainless-timeout` header of the OpenAI and Anthropic SDKs, in seconds from
 * when it sent the request), and not after the client leaves. Undefined: refuse at once.
 */
export function quotaWait(
  deps: Pick<RelayDeps, 'options'>,
  startedAt: number,
  request: Pick<RelayHttpRequest, 'headers'>,
  response: ServerResponse,
  resize?: () => number,
): QuotaWait | undefined {
  const seconds = deps.options.getNumber('QuotaWaitSeconds');
  if (!(seconds > 0)) return undefined;
  let until = Date.now() + seconds * 1000;
  const clientTimeout = clientTimeoutMs(request.headers['x-stainless-timeout']);
  if (clientTimeout !== undefined) until = Math.min(until, startedAt + clientTimeout - CLIENT_TIMEOUT_MARGIN_MS);
  return { until, watchClient: (gone) => watchClient(response, gone), ...(resize ? { resize } : {}) };
}

/** The client's timeout in milliseconds from its SDK's header (seconds, maybe fractional); undefined when absent or unreadable. */
export function clientTimeoutMs(header: string | string[] | undefined): number | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  if (text === undefined || text.trim() === '') return undefined;
  const seconds = Number(text);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** Calls `gone` when the client closes the connection before its answer is written. */
function watchClient(response: ServerResponse, gone: () => void): () => void {
  if (response.destroyed) {
    gone();
    return () => {};
  }
  const onClose = () => {
    if (!response.writableFinished) gone();
  };
  response.once('close', onClose);
  return () => response.off('close', onClose);
}

/**
 * The prompt tokens reserved for, by the first channel's `pre_cost`: 1 (or unset) the whole
 * estimate, 2 without images, 3 none. It is about chat prompts (reference §5.3); other endpoints'
 * counts are what they bill. It sizes the reservation only: a prompt the upstream reports no
 * usage for is still counted whole at settlement.
 */
function reservedPromptTokens(endpoint: Endpoint, attempt: Attempt, preCost: number | undefined): number {
  if (!endpoint.surface || preCost === undefined || preCost <= 1) return endpoint.estimatePrompt(attempt.input);
  if (preCost >= 3) return 0;
  return endpoint.estimatePrompt(attempt.input, { images: false });
}
