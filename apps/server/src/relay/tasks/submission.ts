import type { Json } from '@one-hub/contracts';
import type { RelayHttpReply, RelayHttpRequest } from '../../http/relay-front.js';
import { AppError } from '../../platform/errors.js';
import { checkModelAllowed, enterLimits, hasLimits, noRelease } from '../access/admission.js';
import { keyRefOf, planOf } from '../access/budget-rules.js';
import { primaryGroupOf, type RelayCaller } from '../access/keys.js';
import { recordCharge } from '../billing/consume-log.js';
import type { Reservation } from '../billing/ledger.js';
import { type Price, reservationQuota, settledQuota } from '../billing/quota.js';
import { refuseUnpricedModel } from '../billing/unpriced.js';
import { pickChannel } from '../exchange/pipeline.js';
import type { Attempt, RelayDeps } from '../exchange/types.js';
import type { RouterChannel } from '../routing/router.js';
import { budgetUseColumn } from './refund.js';

/**
 * What every asynchronous task (Midjourney, Suno, Kling) does at submission, whatever its wire
 * format: the caller's key and limits, a channel of the caller's group that serves the billed model
 * (or the one a task is bound to), its per-call price reserved, then either charged with a consume
 * log when the upstream accepts the task or handed back when it refuses. A task that later fails
 * is refunded by `refundTask` (refund.ts).
 */

/** A task is billed per call: it reports no tokens. */
const NO_USAGE = { prompt_tokens: 0, completion_tokens: 0 };

export type TaskDeps = Pick<
  RelayDeps,
  | 'keys'
  | 'router'
  | 'ledger'
  | 'groups'
  | 'plans'
  | 'limiter'
  | 'concurrency'
  | 'options'
  | 'prices'
  | 'writeLog'
  | 'commitJournal'
  | 'logger'
  | 'upstream'
  | 'baseUrlOf'
  | 'remindLowBalance'
>;

export interface TaskSubmission {
  caller: RelayCaller;
  /** The channel the task goes to; later calls about the task go to the same one. */
  channel: RouterChannel;
  /** The billed model (`mj_imagine`, `chirp-v3-5`, `kling-video_kling-v1_std_5`…). */
  model: string;
  group: string;
  groupRatio: number;
  price: Price;
  /** What the task costs: 1000 × the per-call price × the group ratio (0 for a free action). */
  quota: number;
  reservation: Reservation;
  startedAt: number;
  /** Releases the key's concurrency slot; called by confirm and cancel. */
  release(): void;
}

export interface OpenSubmission {
  caller: RelayCaller;
  model: string;
  /** The channel the task must go to (an action on an earlier task); else one is picked for the model. */
  channelId?: number;
  /** Channel types that can take the task; a bound channel of another type is refused. */
  channelTypes: readonly number[];
  /** Sets a header on a refusal (Retry-After). */
  setHeader(name: string, value: string): void;
  /** The rate and concurrency were taken when the caller was admitted (`authenticateTaskCaller`). */
  limitsEntered?: boolean | undefined;
}

/** Admits, picks the channel and reserves the price; the caller must confirm or cancel it. */
export async function openSubmission(deps: TaskDeps, open: OpenSubmission): Promise<TaskSubmission> {
  const { caller, model } = open;
  checkModelAllowed(caller, model);
  const group = primaryGroupOf(caller);
  if (!deps.groups.enabled(group)) throw AppError.forbidden(`user group ${group} does not exist or is disabled`);
  const attempt: Attempt = {
    caller,
    input: { model, stream: false, fields: {} as Json },
    group,
    groupRatio: deps.groups.enabled(group)?.ratio ?? 1,
    startedAt: Date.now(),
    channelsTried: [],
  };
  const channel =
    open.channelId === undefined
      ? pickChannel(deps as RelayDeps, attempt, new Set(), false)
      : bound(deps, open.channelId);
  if (!open.channelTypes.includes(channel.type)) {
    throw AppError.badRequest(`channel ${channel.id} cannot take ${model} tasks`);
  }
  const price = deps.prices.lookup(model);
  refuseUnpricedModel(deps.options, price, model);
  const quota = reservationQuota({ price, groupRatio: attempt.groupRatio, promptTokens: 0, preConsumedQuota: 0 });
  const release =
    !open.limitsEntered && hasLimits(deps, caller) ? await enterLimits(deps, caller, open.setHeader) : noRelease;
  try {
    const reserving = deps.ledger.reserve(
      caller.user.id,
      keyRefOf(deps, caller, 0, await planOf(deps, caller.user.id, model)),
      quota,
    );
    const reservation = reserving instanceof Promise ? await reserving : reserving;
    return {
      caller,
      channel,
      model,
      group: attempt.group,
      groupRatio: attempt.groupRatio,
      price,
      quota,
      reservation,
      startedAt: attempt.startedAt,
      release,
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** The channel an earlier task went to: it alone knows the task. */
function bound(deps: Pick<TaskDeps, 'router'>, channelId: number): RouterChannel {
  const channel = deps.router.byChannelId(channelId);
  if (!channel)
    throw new AppError('unavailable', `channel ${channelId}, which holds this task, is disabled or gone`, {
      status: 503,
    });
  return channel;
}

export interface Confirmation {
  request: Pick<RelayHttpRequest, 'id' | 'ip'>;
  /** The consume log's content ("Midjourney IMAGINE 1712…"). */
  content: string;
  /** Charged instead of the reserved price (a free action: 0). */
  quota?: number;
}

/** What the task row keeps of its charge, so a failure gives back exactly that (refund.ts). */
export interface TaskCharge {
  /** What the balance was charged. */
  quota: number;
  /** What the budget windows counted (budgetUseColumn). */
  budget_use: string | null;
}

/** The upstream took the task: the price is charged and a consume log written. */
export async function confirmSubmission(
  deps: TaskDeps,
  submission: TaskSubmission,
  confirmation: Confirmation,
): Promise<TaskCharge> {
  submission.release();
  const cost = confirmation.quota ?? submission.quota;
  const result = await deps.ledger.settle(submission.reservation, cost, submission.channel.id, { tokens: 0 });
  const settled = {
    ...settledQuota({ price: submission.price, groupRatio: submission.groupRatio, usage: NO_USAGE }),
    quota: cost,
  };
  // Durable before the submission is answered (journal.ts).
  await recordCharge(
    deps,
    {
      caller: submission.caller,
      requestId: confirmation.request.id,
      sourceIp: confirmation.request.ip,
      model: submission.model,
      channelId: submission.channel.id,
      group: submission.group,
      groupRatio: submission.groupRatio,
      price: submission.price,
      settled,
      usage: NO_USAGE,
      startedAt: submission.startedAt,
      firstByteMs: undefined,
      stream: false,
      clientGone: false,
    },
    result,
    confirmation.content,
  );
  return { quota: result.charged, budget_use: budgetUseColumn(result.windows) };
}

/** The upstream refused the task (or never answered): nothing is charged. */
export async function cancelSubmission(deps: Pick<TaskDeps, 'ledger'>, submission: TaskSubmission): Promise<void> {
  submission.release();
  await deps.ledger.settle(submission.reservation, 0);
}

/** The vendor's part of a submission (runSubmission). */
export interface SubmissionSteps<Accepted> {
  /** Asks the upstream; throws its refusal (or the channel's failure) when it did not take a task. */
  send(submission: TaskSubmission): Promise<Accepted>;
  /** The consume log's content for the accepted task, and what is charged if not the price. */
  confirmation(accepted: Accepted): Omit<Confirmation, 'request'>;
  /** Keeps the accepted task for the pollers and fetches, with what it was charged. */
  record(accepted: Accepted, submission: TaskSubmission, charge: TaskCharge): Promise<void>;
}

/**
 * A submission from start to end, whatever the vendor: the price reserved (openSubmission), the
 * upstream asked, and then either the reservation handed back (the upstream refused, did not answer,
 * or gave no task id: `send` threw) or the price charged and the task recorded.
 */
export async function runSubmission<Accepted>(
  deps: TaskDeps,
  request: RelayHttpRequest,
  reply: Pick<RelayHttpReply, 'header'>,
  target: Pick<OpenSubmission, 'model' | 'channelId' | 'channelTypes'>,
  steps: SubmissionSteps<Accepted>,
): Promise<Accepted> {
  const submission = await openSubmission(deps, {
    ...target,
    // The key route's admission left the caller on the request (admission.ts).
    caller: request.relayCaller as RelayCaller,
    setHeader: (name, value) => reply.header(name, value),
    limitsEntered: request.limitsEntered,
  });
  let accepted: Accepted;
  try {
    accepted = await steps.send(submission);
  } catch (error) {
    await cancelSubmission(deps, submission);
    throw error;
  }
  const charge = await confirmSubmission(deps, submission, { request, ...steps.confirmation(accepted) });
  await steps.record(accepted, submission, charge);
  return accepted;
}
