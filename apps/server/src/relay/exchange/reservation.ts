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
  const sizing = new RequestSizing(
    deps,
    attempt,
    first,
    reservedPromptTokens(endpoint, attempt, first.channel.pre_cost),
  );
  const plan = planOf(deps, attempt.caller.user.id, attempt.input.model);
  return plan instanceof Promise
    ? plan.then((resolved) => reserveSized(deps, sizing, resolved, request, reply))
    : reserveSized(deps, sizing, plan, request, reply);
}

/**
 * What a request holds, asked again on each resize: a waiting request is sized by what the node has
 * learned meanwhile. A class rather than closures made per request, whose optimised code V8 drops
 * at a full collection when none of them is alive and compiles again.
 */
class RequestSizing {
  private readonly requested: number | undefined;

  constructor(
    private readonly deps: ReservationDeps,
    readonly attempt: Attempt,
    private readonly first: { price: Price; billedModel: string },
    readonly promptTokens: number,
  ) {
    this.requested = requestedCompletionTokens(attempt.input.fields);
  }

  completionTokens(): number | undefined {
    return this.requested ?? this.deps.completions?.estimate(this.first.billedModel);
  }

  quota(): number {
    return reservationQuota({
      price: this.first.price,
      groupRatio: this.attempt.groupRatio,
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens(),
      preConsumedQuota: this.deps.options.getNumber('PreConsumedQuota'),
    });
  }
}

function reserveSized(
  deps: ReservationDeps,
  sizing: RequestSizing,
  plan: ActivePlan | undefined,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
): Reservation | Promise<Reservation> {
  const { caller, startedAt } = sizing.attempt;
  const key = keyRefOf(deps, caller, sizing.promptTokens + (sizing.completionTokens() ?? 0), plan);
  return deps.ledger.reserve(caller.user.id, key, sizing.quota(), () =>
    quotaWait(deps, startedAt, request, reply.raw, () => sizing.quota()),
  );
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
