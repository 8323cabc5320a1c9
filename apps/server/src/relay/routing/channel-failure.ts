import type { RelayDeps } from '../exchange/types.js';
import { adminMessage, type UpstreamFailure } from '../exchange/upstream-errors.js';
import type { RouterChannel } from './router.js';

/** What one channel's failure does to it: counted, logged (the detail names its address), cooled down, disabled. */
export function handleChannelFailure(
  deps: Pick<RelayDeps, 'observer' | 'logger' | 'router' | 'options' | 'disableChannel'>,
  channel: RouterChannel,
  model: string,
  failure: UpstreamFailure,
  requestId?: string,
): void {
  deps.observer?.upstreamFailed(channel.id);
  if (failure.detail) deps.logger.warn({ channel: channel.id, requestId, detail: failure.detail }, 'upstream failed');
  if (failure.coolDown) deps.router.coolDown(channel.id, model, deps.options.getNumber('RetryCooldownSeconds'));
  if (failure.disable && deps.options.getBoolean('AutomaticDisableChannelEnabled')) {
    const reason = adminMessage(failure);
    deps.logger.warn({ channel: channel.id, reason }, 'disabling channel after an upstream failure');
    // Off the request's path: the answer does not wait for the database or the notice.
    deps.disableChannel(channel, reason).catch((error: unknown) => {
      deps.logger.error({ err: error, channel: channel.id }, 'disabling the channel failed');
    });
  }
}
