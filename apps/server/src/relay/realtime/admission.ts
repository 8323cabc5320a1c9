import { AppError } from '../../platform/errors.js';
import { checkModelAllowed } from '../access/admission.js';
import { primaryGroupOf, type RelayCaller } from '../access/keys.js';
import type { Attempt, RelayDeps } from '../exchange/types.js';
import { backupGroupOf } from '../routing/backup-group.js';
import { checkModelName } from '../routing/model-name.js';
import type { RouterChannel } from '../routing/router.js';

/**
 * What a realtime session must pass before any upstream is called, the same checks as every relay
 * request (exchange/pipeline.ts): the model named and allowed for the key, the group enabled, the
 * group's and the key's requests per minute and the key's concurrency (a session holds its slot
 * until it ends: access/admission.ts); then the channels of the group (or the key's backup group)
 * that serve the model.
 */

export function modelRequired(): AppError {
  return new AppError('bad_request', 'model is required: open the session at /v1/realtime?model=<model>', {
    details: { code: 'model_name_required', param: 'model' },
  });
}

export function checkSessionModel(caller: RelayCaller, model: string | undefined): string {
  if (!model) throw modelRequired();
  checkModelName(model);
  checkModelAllowed(caller, model);
  return model;
}

/** A new attempt for the session, in the caller's first group. */
export function sessionAttempt(deps: Pick<RelayDeps, 'groups'>, caller: RelayCaller, model: string): Attempt {
  const group = primaryGroupOf(caller);
  if (!deps.groups.enabled(group)) throw AppError.forbidden(`user group ${group} does not exist or is disabled`);
  return {
    caller,
    input: { model, stream: true, fields: {} },
    group,
    groupRatio: deps.groups.enabled(group)?.ratio ?? 1,
    startedAt: Date.now(),
    channelsTried: [],
  };
}

/**
 * The next channel for the session among those `serves` accepts, in the attempt's group, else the
 * key's backup group (whose ratio the session is then billed at). Channels `serves` refuses (no
 * realtime API) are passed over without counting as a try.
 */
export function nextRealtimeChannel(
  deps: Pick<RelayDeps, 'router' | 'groups'>,
  attempt: Attempt,
  excluded: Set<number>,
  serves: (channel: RouterChannel) => boolean,
): RouterChannel | undefined {
  const { caller } = attempt;
  if (caller.forcedChannelId !== undefined) {
    const forced = excluded.has(caller.forcedChannelId) ? undefined : deps.router.byChannelId(caller.forcedChannelId);
    if (!forced && attempt.channelsTried.length === 0) {
      throw AppError.forbidden(`channel ${caller.forcedChannelId} does not exist or is disabled`);
    }
    return forced;
  }
  const pick = (group: string) => {
    for (;;) {
      const channel = deps.router.select({
        group,
        model: attempt.input.model,
        excluded,
        hasTools: false,
        stream: false,
      });
      if (!channel || serves(channel)) return channel;
      excluded.add(channel.id);
    }
  };
  const same = pick(attempt.group);
  if (same) return same;
  const backup = backupGroupOf(deps, attempt);
  const fallback = backup ? pick(backup) : undefined;
  if (backup && fallback) {
    attempt.group = backup;
    attempt.groupRatio = deps.groups.enabled(backup)?.ratio ?? 1;
  }
  return fallback;
}
