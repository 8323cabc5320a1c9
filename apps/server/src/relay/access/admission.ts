import type { RelayHttpRequest } from '../../http/relay-front.js';
import { AppError } from '../../platform/errors.js';
import { capUnfundedBody, type FundingDeps } from '../exchange/funding.js';
import type { RelayDeps } from '../exchange/types.js';
import { checkModelName } from '../routing/model-name.js';
import type { RelayCaller } from './keys.js';

/**
 * What a key may do before any channel is chosen, whatever carries the request (an HTTP request,
 * a realtime session, a raw pass-through, a task): the key's model allow-list, the group's and the
 * key's requests per minute and the key's concurrency.
 */

/** Whether the key's model allow-list, when it has one on, names the model. */
export function modelAllowed(caller: RelayCaller, model: string): boolean {
  const rule = caller.setting.limits.limit_model_setting;
  return !rule.enabled || rule.models.includes(model);
}

export function checkModelAllowed(caller: RelayCaller, model: string): void {
  if (!modelAllowed(caller, model)) {
    throw new AppError('forbidden', `model ${model} is not allowed for this API key`, {
      status: 403,
      details: { code: 'model_not_allowed', param: 'model' },
    });
  }
}

/** Sets a header on the refusal (Retry-After) however the caller answers. */
export type HeaderSink = (name: string, value: string) => void;

function tooMany(setHeader: HeaderSink, retryAfterSeconds: number, message: string): AppError {
  setHeader('retry-after', String(retryAfterSeconds));
  return new AppError('rate_limited', message, { details: { code: 'rate_limit_exceeded' } });
}

export const noRelease = (): void => {};

/** Whether the caller's group or key sets any rate or concurrency limit (no promise when none does). */
export function hasLimits(deps: Pick<RelayDeps, 'groups'>, caller: RelayCaller): boolean {
  const { rpm, concurrency } = caller.setting.limits;
  return rpm > 0 || concurrency > 0 || (deps.groups.enabled(caller.user.group)?.api_rate ?? 0) > 0;
}

/** The user group's RPM, the key's own RPM, then the key's concurrency; returns the slot's release. */
export async function enterLimits(
  deps: Pick<RelayDeps, 'groups' | 'limiter' | 'concurrency'>,
  caller: RelayCaller,
  setHeader: HeaderSink,
): Promise<() => void> {
  const groupRate = deps.groups.enabled(caller.user.group)?.api_rate ?? 0;
  if (groupRate > 0) {
    const decision = await deps.limiter.take(`user:${caller.user.id}`, groupRate);
    if (!decision.allowed) {
      const message = `rate limit of ${groupRate} requests per minute reached; retry later`;
      throw tooMany(setHeader, decision.retryAfterSeconds, message);
    }
  }
  const { rpm, concurrency } = caller.setting.limits;
  if (rpm > 0) {
    const decision = await deps.limiter.take(`key:${caller.token.id}`, rpm);
    if (!decision.allowed) {
      const message = `this API key's limit of ${rpm} requests per minute is reached`;
      throw tooMany(setHeader, decision.retryAfterSeconds, message);
    }
  }
  if (concurrency <= 0) return noRelease;
  const release = await deps.concurrency.enter(`key:${caller.token.id}`, concurrency);
  if (!release) throw tooMany(setHeader, 1, `this API key allows ${concurrency} requests at a time`);
  return release;
}

/**
 * Everything the headers decide about a known caller, before its body is read: the model when the
 * path names it (Gemini) against the key's allow-list, whether it can pay for any request
 * (funding.ts), and the group's and the key's rate and concurrency. The concurrency slot is held
 * until the answer ends, whether or not the body was ever read. No promise unless a limit is set.
 */
export function admitCaller(
  deps: FundingDeps & Pick<RelayDeps, 'limiter' | 'concurrency'>,
  caller: RelayCaller,
  request: RelayHttpRequest,
  modelInPath?: string,
): undefined | Promise<void> {
  request.relayCaller = caller;
  if (modelInPath !== undefined) {
    checkModelName(modelInPath);
    checkModelAllowed(caller, modelInPath);
  }
  capUnfundedBody(deps, caller, request);
  if (!hasLimits(deps, caller)) return undefined;
  const response = request.response;
  return enterLimits(deps, caller, (name, value) => response?.setHeader(name, value)).then((release) => {
    request.limitsEntered = true;
    if (response) response.once('close', release);
    else release();
  });
}
