import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyServerFactory } from 'fastify';
import { parse as secureJsonParse } from 'secure-json-parse';
import type { Logger } from '../platform/logger.js';
import type { RelayCaller } from '../relay/access/keys.js';
import { applyCors } from './cors.js';
import { bodyUnread, renderErrorBody, toAppError } from './errors.js';
import { assertJsonDepth } from './json-depth.js';
import { legacyRequestIdHeader, nextRequestId, requestIdHeader } from './request-id.js';
import { applyServerLimits, connectionsCheckingInterval, type ServerLimits } from './server-limits.js';

/**
 * The relay's JSON routes, served straight from Node's HTTP server before Fastify sees the
 * request. On this machine Fastify's per-request work (request and reply objects, a child logger,
 * hooks, the body parser) costs about 40 µs, most of One Hub's added latency over a bare proxy.
 *
 * The caller is admitted from the headers before the body is read (DirectAdmission), so an
 * unknown key is refused without reading what it sent.
 *
 * Only the plain case takes this path: a POST to one of these exact paths with an
 * `application/json` (utf-8) body of a stated length within the body limit. Everything else
 * (other content types, chunked bodies, empty or oversized ones, request logging at debug level,
 * a server that is closing) goes to the same handlers through Fastify, whose rules this path
 * follows: the same JSON parser and prototype-poisoning rule, the same client address behind
 * proxies, the same error bodies with the request-id headers.
 */

/** What the relay reads of a request: Fastify's, or this path's equivalent. */
export interface RelayHttpRequest {
  id: string;
  ip: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  params?: unknown;
  query?: unknown;
  /** The key's caller, authenticated from the headers before the body was read (relay/pipeline.ts). */
  relayCaller?: RelayCaller | undefined;
}

/** What the relay does with a reply: headers for an error answer, or the raw response. */
export interface RelayHttpReply {
  raw: ServerResponse;
  header(name: string, value: string): unknown;
  hijack(): void;
}

export type DirectHandler = (request: RelayHttpRequest, reply: RelayHttpReply) => Promise<void>;

/**
 * Checks a request from its headers alone, before its body is read; throws (or rejects) to refuse
 * it, so an unknown caller cannot make the server read and parse a large body.
 */
export type DirectAdmission = (request: RelayHttpRequest) => void | Promise<void>;

export interface DirectRoutes {
  /** Serves `POST path` on the direct path too; the route must also exist in Fastify. */
  post(path: string, handler: DirectHandler, admit: DirectAdmission): void;
  /** Passes Fastify's HTTP server options on and puts this path in front of its handler. */
  serverFactory: FastifyServerFactory;
  /** From now on every request goes through Fastify, which answers 503 while closing. */
  close(): void;
}

export interface DirectRoutesOptions {
  bodyLimit: number;
  trustProxy: boolean | string[];
  /** Off when requests are logged one by one (debug level): only Fastify writes those lines. */
  enabled: boolean;
  logger: Logger;
  /** Timeouts and the per-address connection cap of the HTTP server (server-limits.ts). */
  limits: ServerLimits;
}

interface DirectRoute {
  handler: DirectHandler;
  admit: DirectAdmission;
}

const trustAll = () => true;
const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

class DirectReply implements RelayHttpReply {
  readonly headers: Record<string, string> = {};
  constructor(readonly raw: ServerResponse) {}
  header(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }
  hijack(): void {}
}

export function createDirectRoutes(options: DirectRoutesOptions): DirectRoutes {
  const routes = new Map<string, DirectRoute>();
  let open = options.enabled;

  // The same rule as Fastify's trustProxy: every peer, none, or the listed proxies.
  const trust = Array.isArray(options.trustProxy)
    ? proxyAddr.compile(options.trustProxy)
    : options.trustProxy
      ? trustAll
      : undefined;
  const clientAddress = (raw: IncomingMessage): string =>
    (trust ? proxyAddr(raw, trust) : raw.socket.remoteAddress) ?? '';

  function fail(error: unknown, request: RelayHttpRequest, reply: DirectReply): void {
    const response = reply.raw;
    if (response.headersSent) {
      // As Fastify does for a hijacked reply: the answer is under way, so only the log learns.
      options.logger.error({ err: error, reqId: request.id }, 'Promise errored, but reply.sent = true was set');
      return;
    }
    const appError = toAppError(error);
    if (appError.status >= 500) options.logger.error({ err: error, reqId: request.id }, 'request failed');
    const body = JSON.stringify(renderErrorBody(appError, request));
    // Refused before its body was read: the connection closes rather than read the rest.
    if (bodyUnread(response.req)) reply.header('connection', 'close');
    response.writeHead(appError.status, {
      ...reply.headers,
      [requestIdHeader]: request.id,
      [legacyRequestIdHeader]: request.id,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  }

  function serve(raw: IncomingMessage, response: ServerResponse, route: DirectRoute): void {
    const request: RelayHttpRequest = {
      id: nextRequestId(),
      ip: clientAddress(raw),
      url: raw.url ?? '/',
      headers: raw.headers,
      body: undefined,
      relayCaller: undefined,
    };
    const reply = new DirectReply(response);
    let admitted: void | Promise<void>;
    try {
      admitted = route.admit(request);
    } catch (error) {
      fail(error, request, reply);
      return;
    }
    // A known key is answered from memory: the body is read at once, without a promise.
    if (admitted instanceof Promise) {
      admitted.then(
        () => readBody(raw, request, reply, route.handler),
        (error: unknown) => fail(error, request, reply),
      );
    } else {
      readBody(raw, request, reply, route.handler);
    }
  }

  function readBody(raw: IncomingMessage, request: RelayHttpRequest, reply: DirectReply, handler: DirectHandler) {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = () => {
      raw.off('data', onData);
      const text =
        chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks, size).toString();
      try {
        assertJsonDepth(text);
        request.body = secureJsonParse(text, { protoAction: 'error', constructorAction: 'error' });
      } catch (error) {
        fail(error, request, reply);
        return;
      }
      handler(request, reply).then(undefined, (error: unknown) => fail(error, request, reply));
    };
    raw.on('data', onData);
    // A client that leaves before the end of its body gets nothing: nothing was started for it.
    raw.once('end', onEnd);
  }

  /** The handler for this request on the direct path, or undefined when Fastify must serve it. */
  function directRoute(raw: IncomingMessage): DirectRoute | undefined {
    if (!open || raw.method !== 'POST') return undefined;
    const url = raw.url ?? '';
    const query = url.indexOf('?');
    const route = routes.get(query < 0 ? url : url.slice(0, query));
    if (!route) return undefined;
    const { headers } = raw;
    const length = Number(headers['content-length']);
    const plainBody =
      length > 0 &&
      length <= options.bodyLimit &&
      headers['transfer-encoding'] === undefined &&
      headers['content-encoding'] === undefined &&
      JSON_TYPE.test(headers['content-type'] ?? '');
    return plainBody ? route : undefined;
  }

  return {
    post(path, handler, admit) {
      routes.set(path, { handler, admit });
    },
    serverFactory(fastifyHandler, serverOptions) {
      const setting = (name: string) => (typeof serverOptions[name] === 'number' ? serverOptions[name] : 0);
      const http: ServerOptions = {
        ...(serverOptions.http as ServerOptions | undefined),
        connectionsCheckingInterval: connectionsCheckingInterval(options.limits),
      };
      const server = createServer(http, (raw, response) => {
        if (applyCors(raw, response)) return;
        const route = directRoute(raw);
        if (route) serve(raw, response, route);
        else fastifyHandler(raw, response);
      });
      // What Fastify sets on the server it creates itself, but for the request timeouts.
      server.keepAliveTimeout = setting('keepAliveTimeout');
      server.setTimeout(setting('connectionTimeout'));
      applyServerLimits(server, options.limits, (address) => trust?.(address, 0) === true);
      if (setting('maxRequestsPerSocket') > 0) server.maxRequestsPerSocket = setting('maxRequestsPerSocket');
      return server;
    },
    close() {
      open = false;
    },
  };
}
