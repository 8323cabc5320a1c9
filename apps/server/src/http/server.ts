import { createServer, type IncomingMessage, type Server, type ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyServerFactory } from 'fastify';
import { applyCors } from './cors.js';
import type { RelayFront } from './relay-front.js';
import { nameRequest } from './request-id.js';
import { applyServerLimits, connectionsCheckingInterval, type ServerLimits } from './server-limits.js';

/** Answers a WebSocket upgrade request (the relay's `/v1/realtime`); `ip` is the client's under the trustProxy rule. */
export type UpgradeHandler = (raw: IncomingMessage, socket: Duplex, head: Buffer, ip: string) => void;

const upgradeHandlers = new WeakMap<Server, UpgradeHandler>();

/** Sets who answers WebSocket upgrades on a server made here; until then they are cut. */
export function handleUpgrades(server: Server, handler: UpgradeHandler): void {
  upgradeHandlers.set(server, handler);
}

export interface FrontServerOptions {
  trustProxy: boolean | string[];
  /** Timeouts and the per-address connection cap of the HTTP server (server-limits.ts). */
  limits: ServerLimits;
  relay: RelayFront;
}

/**
 * The HTTP server in front of both fronts. Every request is named and given its CORS headers
 * here, once; then the relay's surfaces go to the relay front (relay-front.ts) and everything else
 * (/api, the console) to Fastify. Passes Fastify's HTTP server options on.
 */
export function frontServerFactory(options: FrontServerOptions): FastifyServerFactory {
  const trusted = Array.isArray(options.trustProxy)
    ? proxyAddr.compile(options.trustProxy)
    : () => options.trustProxy === true;
  return (fastifyHandler, serverOptions) => {
    const setting = (name: string) => (typeof serverOptions[name] === 'number' ? serverOptions[name] : 0);
    const http: ServerOptions = {
      ...(serverOptions.http as ServerOptions | undefined),
      connectionsCheckingInterval: connectionsCheckingInterval(options.limits),
    };
    const server = createServer(http, (raw, response) => {
      const id = nameRequest(raw, response);
      if (applyCors(raw, response)) return;
      if (options.relay.serves(raw.url ?? '/')) options.relay.handle(raw, response, id);
      else fastifyHandler(raw, response);
    });
    server.on('upgrade', (raw: IncomingMessage, socket: Duplex, head: Buffer) => {
      const handler = upgradeHandlers.get(server);
      if (handler) handler(raw, socket, head, proxyAddr(raw, trusted));
      else socket.destroy();
    });
    // What Fastify sets on the server it creates itself, but for the request timeouts.
    server.keepAliveTimeout = setting('keepAliveTimeout');
    server.setTimeout(setting('connectionTimeout'));
    applyServerLimits(server, options.limits, (address) => trusted(address, 0));
    if (setting('maxRequestsPerSocket') > 0) server.maxRequestsPerSocket = setting('maxRequestsPerSocket');
    return server;
  };
}
