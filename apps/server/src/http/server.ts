import { createServer, type ServerOptions } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyServerFactory } from 'fastify';
import { applyCors } from './cors.js';
import type { RelayFront } from './relay-front.js';
import { nameRequest } from './request-id.js';
import { applyServerLimits, connectionsCheckingInterval, type ServerLimits } from './server-limits.js';

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
    // What Fastify sets on the server it creates itself, but for the request timeouts.
    server.keepAliveTimeout = setting('keepAliveTimeout');
    server.setTimeout(setting('connectionTimeout'));
    applyServerLimits(server, options.limits, (address) => trusted(address, 0));
    if (setting('maxRequestsPerSocket') > 0) server.maxRequestsPerSocket = setting('maxRequestsPerSocket');
    return server;
  };
}
