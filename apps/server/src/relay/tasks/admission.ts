import type { ErrorRenderer } from '../../http/errors.js';
import type { RelayHttpRequest, RelayRouteOptions } from '../../http/relay-front.js';
import { admitCaller } from '../access/admission.js';
import type { RelayCaller } from '../access/keys.js';
import { capUnfundedBody } from '../exchange/funding.js';
import type { TaskDeps } from './submission.js';

/**
 * Authenticates a task route's key from a header value (`mj-api-secret`, `Authorization`), before
 * the body is read: a caller who cannot pay for any request gets no more than a stranger's body
 * (exchange/funding.ts), and a submission takes the group's and the key's rate and concurrency here,
 * held until its answer ends (`openSubmission` then takes them no second time).
 */
export function authenticateTaskCaller(
  deps: TaskDeps,
  request: RelayHttpRequest,
  credential: string | undefined,
  submitting = false,
): RelayCaller | Promise<RelayCaller> {
  if (request.relayCaller) return request.relayCaller;
  const admitted = (caller: RelayCaller): RelayCaller | Promise<RelayCaller> => {
    if (!submitting) {
      request.relayCaller = caller;
      capUnfundedBody(deps, caller, request);
      return caller;
    }
    const limits = admitCaller(deps, caller, request);
    return limits ? limits.then(() => caller) : caller;
  };
  const authenticated = deps.keys.authenticate(credential, request.ip);
  return authenticated instanceof Promise ? authenticated.then(admitted) : admitted(authenticated);
}

/** Where a task surface's clients put their key (`mj-api-secret`, `Authorization`). */
export type CredentialOf = (request: RelayHttpRequest) => string | undefined;

export const bearerCredential: CredentialOf = (request) => request.headers.authorization;

/**
 * The two admissions of a task surface's keyed routes, both from the headers before a body is read:
 * `authed` (a fetch, a list) and `submitting` (a submission, which also takes its rate and
 * concurrency here). Either leaves the caller on the request for the handler.
 */
export function keyedRouteOptions(
  deps: TaskDeps,
  render: ErrorRenderer,
  credentialOf: CredentialOf,
): { authed: RelayRouteOptions; submitting: RelayRouteOptions } {
  const admit = (submitting: boolean) => async (request: RelayHttpRequest) => {
    request.relayCaller = await authenticateTaskCaller(deps, request, credentialOf(request), submitting);
  };
  return { authed: { render, admit: admit(false) }, submitting: { render, admit: admit(true) } };
}

/** The caller an admission left on the request. */
export function callerOf(request: RelayHttpRequest): RelayCaller {
  return request.relayCaller as RelayCaller;
}
