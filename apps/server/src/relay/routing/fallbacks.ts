import type { RelayHttpReply } from '../../http/relay-front.js';
import { AppError } from '../../platform/errors.js';
import { modelAllowed } from '../access/admission.js';
import { primaryGroupOf } from '../access/keys.js';
import type { Attempt, RelayDeps, RelayInput } from '../exchange/types.js';
import { modelNameProblem } from './model-name.js';

/**
 * Model fallbacks (issue 34): when every channel of the requested model has failed, or none can
 * take it now, the request is tried again on the models its API key (`setting.fallbacks`) or, for
 * a model the key does not name, its user group (`fallbacks`) lists for it, in order, until one
 * answers. Each model is a fresh round: its own channels (RetryTimes of them), its own price and
 * reservation, starting again in the user's own group. Fallbacks of a fallback are not followed.
 */
export type FallbackDeps = Pick<RelayDeps, 'groups' | 'options'>;

/** The models to try after `model` for this caller: the key's list when it names the model, else the group's. */
export function fallbacksOf(deps: Pick<RelayDeps, 'groups'>, attempt: Attempt, model: string): string[] {
  const own = attempt.caller.setting.fallbacks[model];
  if (own) return own;
  return deps.groups.enabled(primaryGroupOf(attempt.caller))?.fallbacks[model] ?? [];
}

/**
 * Whether the round that just failed leaves room for another model: nothing was sent to the client,
 * the request is not pinned to a channel, RetryTimeOut has not passed, and the failure was the
 * channels' (every one failed in a way another could avoid, or none was there to take it), not the
 * client's (a bad request, an unaffordable one) — those would fail the same on any model.
 */
function mayFallBack(deps: FallbackDeps, attempt: Attempt, reply: RelayHttpReply, error: unknown): boolean {
  if (reply.raw.headersSent || attempt.caller.forcedChannelId !== undefined) return false;
  const failure = attempt.lastFailure;
  const late = Date.now() > attempt.startedAt + deps.options.getNumber('RetryTimeOut') * 1000;
  if (failure) return failure.retry && (failure.timedOut === true || !late);
  return !late && error instanceof AppError && isNoChannel(error);
}

/** No channel could take the model: none serves it (404) or all of them rest or were skipped (503). */
function isNoChannel(error: AppError): boolean {
  const code = error.details?.code;
  return code === 'model_not_found' || code === 'model_not_available';
}

/** A fallback the key may call: its allow-list (when on) must name it, and the name must be one we can send. */
function usable(attempt: Attempt, model: string): boolean {
  return modelAllowed(attempt.caller, model) && modelNameProblem(model) === undefined;
}

/** The request as the fallback model's round sees it: the same body, the model replaced, no translation kept. */
function inputFor(requested: RelayInput, model: string): RelayInput {
  const { chat: _translatedForAnotherModel, ...rest } = requested;
  return { ...rest, model };
}

/**
 * Runs `round` for the requested model, then for each fallback while the last round's failure
 * allows one. When a fallback serves, the attempt names it (`input.model`, so translated answers
 * carry it) and keeps the requested model in `requestedModel` for the log row. When none serves,
 * the requested model's own failure is what the client gets, and the attempt names it again.
 */
export function withFallbacks(
  deps: FallbackDeps,
  attempt: Attempt,
  reply: RelayHttpReply,
  round: () => Promise<void>,
): Promise<void> {
  // Not an async function: a request served by its own model (nearly all) makes no frame here.
  const requested = attempt.input;
  return round().catch((error: unknown) => fallBack(deps, attempt, reply, round, requested, error));
}

/** The rounds after the requested model's failed: each fallback in turn, else that failure again. */
async function fallBack(
  deps: FallbackDeps,
  attempt: Attempt,
  reply: RelayHttpReply,
  round: () => Promise<void>,
  requested: RelayInput,
  error: unknown,
): Promise<void> {
  let last: unknown = error;
  for (const model of fallbacksOf(deps, attempt, requested.model)) {
    if (!mayFallBack(deps, attempt, reply, last)) break;
    if (!usable(attempt, model)) continue;
    attempt.input = inputFor(requested, model);
    attempt.requestedModel = requested.model;
    attempt.group = primaryGroupOf(attempt.caller);
    attempt.lastFailure = undefined;
    delete attempt.cacheKey;
    try {
      await round();
      return;
    } catch (next) {
      last = next;
    }
  }
  attempt.input = requested;
  delete attempt.requestedModel;
  throw error;
}
