import type { RelayDeps } from '../exchange/types.js';
import { accountKeyword, adminMessage, disableKeywords, type UpstreamFailure } from '../exchange/upstream-errors.js';
import type { RouterChannel } from './router.js';

/**
 * What one channel's failure does to it: counted, logged (the detail names its address), counted
 * in its health (health.ts: transient failures degrade or open it, never disable it), cooled down
 * after a 429 or a timeout, and disabled for an account-level failure (a revoked key, no balance at
 * the vendor, a DisableChannelKeywords entry in the vendor's structured error message that the
 * client did not send) when AutomaticDisableChannelEnabled.
 */
export function handleChannelFailure(
  deps: Pick<RelayDeps, 'observer' | 'logger' | 'router' | 'options' | 'disableChannel'>,
  channel: RouterChannel,
  model: string,
  failure: UpstreamFailure,
  requestId?: string,
  clientSent: () => string = () => '',
): UpstreamFailure {
  deps.observer?.upstreamFailed(channel.id);
  if (failure.detail) deps.logger.warn({ channel: channel.id, requestId, detail: failure.detail }, 'upstream failed');
  const judged = withKeywordVerdict(deps, failure, clientSent);
  if (judged.class) deps.router.health.recordFailure(channel.id, model, judged.class, judged.error.message);
  if (judged.coolDown) deps.router.coolDown(channel.id, model, deps.options.getNumber('RetryCooldownSeconds'));
  if (judged.disable && deps.options.getBoolean('AutomaticDisableChannelEnabled')) {
    const reason = adminMessage(judged);
    deps.logger.warn({ channel: channel.id, reason }, 'disabling channel after an upstream failure');
    // Off the request's path: the answer does not wait for the database or the notice.
    deps.disableChannel(channel, reason).catch((error: unknown) => {
      deps.logger.error({ err: error, channel: channel.id }, 'disabling the channel failed');
    });
  }
  return judged;
}

/** The failure, made account-level when the vendor's structured message holds a disable keyword. */
function withKeywordVerdict(
  deps: Pick<RelayDeps, 'options'>,
  failure: UpstreamFailure,
  clientSent: () => string,
): UpstreamFailure {
  if (failure.disable || !failure.upstreamMessage) return failure;
  const keyword = accountKeyword(failure, disableKeywords(deps.options.get('DisableChannelKeywords')), clientSent);
  return keyword ? { ...failure, disable: true, class: 'account' } : failure;
}
