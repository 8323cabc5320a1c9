import type { FastifyInstance } from 'fastify';
import { handleUpgrades } from '../../http/server.js';
import type { RelayDeps } from '../exchange/types.js';
import type { InFlightRequests } from '../in-flight.js';
import type { UpstreamTimeouts } from '../transport/executor.js';
import { DEFAULT_REALTIME_OPTIONS, RealtimeSurface } from './session.js';

export { DEFAULT_REALTIME_OPTIONS, type RealtimeOptions, RealtimeSurface } from './session.js';

/**
 * Serves `/v1/realtime` on the server's WebSocket upgrades. The upstream's timeouts are the HTTP
 * relay's: accepting the session within the connect timeout, and no message either way for the
 * idle timeout. Sessions count as requests in flight, so a shutdown ends and bills them.
 */
export function installRealtime(
  app: FastifyInstance,
  deps: RelayDeps,
  inFlight: InFlightRequests,
  timeouts: Pick<UpstreamTimeouts, 'connectMs' | 'idleMs'> | undefined,
): RealtimeSurface {
  const surface = new RealtimeSurface(
    deps,
    {
      ...DEFAULT_REALTIME_OPTIONS,
      ...(timeouts ? { handshakeMs: timeouts.connectMs, idleMs: timeouts.idleMs } : {}),
    },
    inFlight,
  );
  handleUpgrades(app.server, (raw, socket, head, ip) => surface.handle(raw, socket, head, ip));
  app.addHook('preClose', (done) => {
    surface.close();
    done();
  });
  return surface;
}
