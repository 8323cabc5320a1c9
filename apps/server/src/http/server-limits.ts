import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * What one client may hold of the server while it sends a request: time for its headers, time for
 * the whole request, and open connections per address. Answers are not covered: Node's request
 * timeout ends when the request has arrived, so a long streamed answer runs on.
 */
export interface ServerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** 0: no cap. */
  maxConnectionsPerAddress: number;
}

/** How often Node looks for requests past their timeouts: often enough for the shortest one. */
export function connectionsCheckingInterval(limits: ServerLimits): number {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return Math.max(50, Math.min(30_000, Math.floor(shortest / 4)));
}

/**
 * Applies the timeouts and the per-address cap. `trusted` says whether a peer is a proxy named in
 * TRUST_PROXY: all clients arrive through it, so its connections are not capped.
 */
export function applyServerLimits(server: Server, limits: ServerLimits, trusted: (address: string) => boolean): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  const cap = limits.maxConnectionsPerAddress;
  if (cap <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (trusted(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > cap) {
      // Nothing has been read from this connection: closing it costs the server nothing more.
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
