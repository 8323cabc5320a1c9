import type { RelayFront, RelayHttpReply, RelayHttpRequest, RelayRouteOptions } from '../../http/relay-front.js';
import type { InFlightRequests } from '../in-flight.js';
import { surfaceErrors } from '../surfaces/errors.js';
import { type RawDeps, relayRaw } from './relay.js';

/**
 * OpenAI's stateful APIs, passed through whatever the method (reference §2.1): each path itself and
 * everything under it. Deleting a fine-tuned model (`DELETE /v1/models/:model`) is one of them.
 */
export const RAW_PREFIXES = [
  '/v1/files',
  '/v1/fine_tuning',
  '/v1/assistants',
  '/v1/threads',
  '/v1/batches',
  '/v1/vector_stores',
] as const;

export function rawRoutes(front: RelayFront, deps: RawDeps, inFlight: InFlightRequests): void {
  const options: RelayRouteOptions = {
    render: surfaceErrors.openAi,
    body: 'stream',
    // The key is checked from the headers alone: an unknown caller is refused before its body is read.
    admit: (request) => {
      const caller = deps.keys.authenticate(request.headers.authorization, request.ip);
      if (!(caller instanceof Promise)) {
        request.relayCaller = caller;
        return;
      }
      return caller.then((known) => {
        request.relayCaller = known;
      });
    },
  };
  const handler = (route: string) => (request: RelayHttpRequest, reply: RelayHttpReply) =>
    inFlight.track(relayRaw(deps, route, request, reply), () => reply.raw.destroy());
  for (const prefix of RAW_PREFIXES) {
    front.route('*', prefix, options, handler(prefix));
    front.route('*', `${prefix}/*`, options, handler(prefix));
  }
  front.route('DELETE', '/v1/models/:model', options, handler('/v1/models'));
}
