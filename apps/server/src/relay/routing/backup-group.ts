import { Role } from '@one-hub/contracts';
import { AppError } from '../../platform/errors.js';
import type { Attempt, RelayDeps } from '../exchange/types.js';

/**
 * The groups a request may be served in (its own, then the key's backup group) and what "no
 * channel" means for it, for every carrier of a request (HTTP, realtime, raw pass-through).
 */

/** The key's backup group when it may stand in: set, another group, and not disabled by an administrator. */
export function backupGroupOf(deps: Pick<RelayDeps, 'groups'>, attempt: Attempt): string | undefined {
  const backup = attempt.caller.token.backup_group;
  return backup && backup !== attempt.group && deps.groups.enabled(backup) ? backup : undefined;
}

/**
 * Why no channel took the request: a model no channel of the groups serves is the client's mistake
 * (OpenAI answers it with 404); one whose channels are all cooling down or filtered out is the
 * gateway's (503).
 */
export function noChannelError(deps: Pick<RelayDeps, 'router' | 'groups'>, attempt: Attempt): AppError {
  const model = attempt.input.model;
  const backup = backupGroupOf(deps, attempt);
  const groups = backup ? [attempt.group, backup] : [attempt.group];
  if (!groups.some((group) => deps.router.serves(group, model))) {
    // An administrator can fix it, and on a new install it is the usual first stumble: say how.
    const message =
      attempt.caller.user.role >= Role.admin
        ? `model ${model} is not served by any enabled channel in group ${groups.join(' or ')}: add a channel that lists it (Channels), or enable one`
        : `model ${model} does not exist or is not available to this API key`;
    return new AppError('not_found', message, { details: { code: 'model_not_found', param: 'model' } });
  }
  return new AppError('unavailable', `no available channel for model ${model} in group ${attempt.group}`, {
    status: 503,
    details: { code: 'model_not_available', param: 'model' },
  });
}
