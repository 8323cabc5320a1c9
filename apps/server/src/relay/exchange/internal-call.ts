import type { Json } from '@one-hub/contracts';
import type { RelayHttpReply, RelayHttpRequest } from '../../http/relay-front.js';
import { primaryGroupOf } from '../access/keys.js';
import { RouteTrace } from '../routing/route-trace.js';
import { relayToChannels, strategyOf } from './pipeline.js';
import type { Attempt, Endpoint, RelayDeps, WholeAnswer } from './types.js';

/**
 * A request the gateway makes on a client's behalf while serving it (the query of a `#search`
 * chat): routed in the caller's group (or its backup group), reserved, retried, settled and logged
 * exactly as the caller's own request for that model would be — a consume log row of its own, under
 * the client's request id — but not streamed, and its answer comes back here instead of going to
 * the client. The client's reply is only watched (quota waits end when the client leaves).
 */
export type CompleteForCaller = (
  endpoint: Endpoint,
  parent: Attempt,
  fields: Json & { model: string },
  request: RelayHttpRequest,
  reply: RelayHttpReply,
) => Promise<WholeAnswer>;

/** Rejects as the relay would refuse the caller (no channel, no quota, every channel failed). */
export function completerFor(deps: RelayDeps): CompleteForCaller {
  return async (endpoint, parent, fields, request, reply) => {
    const group = primaryGroupOf(parent.caller);
    let kept: WholeAnswer | undefined;
    const attempt: Attempt = {
      caller: parent.caller,
      input: { model: fields.model, stream: false, fields: { ...fields, stream: false } },
      group,
      groupRatio: 1,
      startedAt: Date.now(),
      channelsTried: [],
      route: new RouteTrace(strategyOf(deps, group)),
      keepAnswer: (answer) => {
        kept = answer;
      },
    };
    await relayToChannels(deps, endpoint, attempt, request, reply);
    if (!kept) throw new Error('the channel answered without a whole answer');
    return kept;
  };
}
