import type WebSocket from 'ws';
import { mapModel } from '../../domain/model-mapping.js';
import { keyRefOf, planOf } from '../access/budget-rules.js';
import type { Reservation } from '../billing/ledger.js';
import type { Price } from '../billing/quota.js';
import { refuseUnpricedModel, unpricedModelRefusal } from '../billing/unpriced.js';
import type { Attempt, RelayDeps } from '../exchange/types.js';
import { isFailure, type UpstreamFailure, withoutChannelKey } from '../exchange/upstream-errors.js';
import { noChannelError } from '../routing/backup-group.js';
import { handleChannelFailure } from '../routing/channel-failure.js';
import type { RouterChannel } from '../routing/router.js';
import { nextRealtimeChannel } from './admission.js';
import { realtimeReservation } from './billing.js';
import { connectUpstream, realtimeTarget, type UpstreamOptions } from './upstream.js';

/**
 * Picks channels for a session and opens the upstream session on them in turn, as the HTTP relay
 * retries a request (exchange/pipeline.ts): `RetryTimes` more channels after the first, within
 * `RetryTimeOut`, only for failures another channel may not have (a refused upgrade, a connection
 * error); a 429 or a timeout rests the channel, a refused key disables it when that is on.
 */
export interface OpenedChannel {
  upstream: WebSocket;
  channel: RouterChannel;
  billedModel: string;
  price: Price;
  /** The quota held for the session's first response. */
  reservation: Reservation;
}

const throwError = (error: Error): never => {
  throw error;
};

export async function openChannel(
  deps: RelayDeps,
  attempt: Attempt,
  beta: string | undefined,
  options: UpstreamOptions,
  abandoned: () => boolean,
): Promise<OpenedChannel> {
  const { caller, input } = attempt;
  const excluded = new Set<number>(caller.skippedChannelIds);
  const serves = (channel: RouterChannel) =>
    realtimeTarget(channel, deps.baseUrlOf(channel), input.model, beta) !== undefined;
  let channel = nextRealtimeChannel(deps, attempt, excluded, serves) ?? throwError(noChannelError(deps, attempt));
  const first = mapModel(channel, input.model).billedModel;
  refuseUnpricedModel(deps.options, deps.prices.lookup(first), first);
  const reserving = deps.ledger.reserve(
    caller.user.id,
    keyRefOf(deps, caller, 0, await planOf(deps, caller.user.id, input.model)),
    realtimeReservation(deps, first, deps.prices.lookup(first), attempt.groupRatio),
  );
  const reservation = reserving instanceof Promise ? await reserving : reserving;
  const retries = caller.forcedChannelId ? 0 : Math.max(0, deps.options.getNumber('RetryTimes'));
  const retryDeadline = attempt.startedAt + deps.options.getNumber('RetryTimeOut') * 1000;
  try {
    for (let tries = 0; ; tries++) {
      attempt.channelsTried.push(channel.id);
      const connectingAt = Date.now();
      const opened = await openOn(deps, channel, input.model, beta, options);
      if (!isFailure(opened)) {
        // A session that opened is the channel's success (its health counts failures to open too).
        const ms = Date.now() - connectingAt;
        deps.router.health.recordSuccess(channel.id, input.model, ms, ms);
        return { ...opened, reservation };
      }
      const failure = withoutChannelKey(opened, channel);
      handleChannelFailure(deps, channel, input.model, failure);
      const late = !failure.timedOut && Date.now() > retryDeadline;
      if (tries >= retries || !failure.retry || late || abandoned()) throw failure.error;
      excluded.add(channel.id);
      channel = nextRealtimeChannel(deps, attempt, excluded, serves) ?? throwError(failure.error);
    }
  } catch (error) {
    await deps.ledger.settle(reservation, 0);
    throw error;
  }
}

/** One channel: its model mapping and price, then the upstream's answer to the upgrade. */
async function openOn(
  deps: RelayDeps,
  channel: RouterChannel,
  model: string,
  beta: string | undefined,
  options: UpstreamOptions,
): Promise<Omit<OpenedChannel, 'reservation'> | UpstreamFailure> {
  const { upstreamModel, billedModel } = mapModel(channel, model);
  const price = deps.prices.lookup(billedModel);
  // A retry's channel may map the model to an unpriced one: passed over unsent, like the HTTP relay does.
  const refused = unpricedModelRefusal(deps.options, price, billedModel);
  if (refused) return { error: refused, retry: true, disable: false, coolDown: false };
  const target = realtimeTarget(channel, deps.baseUrlOf(channel), upstreamModel, beta);
  if (!target) throw new Error(`channel ${channel.id} has no realtime API`);
  const upstream = await connectUpstream(target, options);
  if (isFailure(upstream)) return upstream;
  return { upstream, channel, billedModel, price };
}
