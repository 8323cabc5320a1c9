import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import proxyAddr from '@fastify/proxy-addr';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { RelayCaller } from '../relay/access/keys.js';
import { BodyBudget, bodyBudgetLimits } from './body-budget.js';
import { bodyUnread, type ErrorRenderer, logFailure, toAppError } from './errors.js';
import { type BodyCap, readRelayBody } from './relay-body.js';

/**
 * The relay's HTTP front: every route of the relay surfaces (/v1, /claude, /gemini, /dashboard)
 * is served here, on Node's HTTP server, and Fastify never sees those requests; it serves /api and
 * the console. Fastify's per-request work (request and reply objects, a child logger, hooks, the
 * body parser) measured about 40 µs of CPU per request, a third of what the relay adds over a bare
 * proxy (BENCHMARKS.md), and the relay needs none of it.
 *
 * A route names its method, its path (`:name` for one path segment), how its body is read and the
 * surface's error format. The caller may be admitted from the headers before the body is read, so
 * an unknown key is refused without reading what it sent. Bodies follow the same rules as /api's:
 * the same JSON parser and prototype-poisoning rule, the same nesting limit, the same messages.
 *
 * A route that checks no caller from the headers (no `admit`: a vendor's callback, an image proxy)
 * is held to what /api gives strangers: a small body (OPEN_ROUTE_BODY_LIMIT_BYTES unless it sets a
 * smaller one), /api's time to send it, and the per-address request limit.
 */

/** What a route that authenticates nobody reads at most: its callers send a small JSON object. */
export const OPEN_ROUTE_BODY_LIMIT_BYTES = 16 * 1024;

/** What the relay reads of a request. */
export interface RelayHttpRequest {
  id: string;
  ip: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  params?: unknown;
  query?: unknown;
  /** The key's caller, authenticated from the headers before the body was read (relay/exchange/pipeline.ts). */
  relayCaller?: RelayCaller | undefined;
  /** Set by admission: this caller's body is refused past these bytes (a caller who cannot pay). */
  bodyCap?: BodyCap | undefined;
  /** Set by admission when it took the caller's rate and concurrency limits (released when the answer ends). */
  limitsEntered?: boolean | undefined;
  /** The answer being written: admission may set headers on a refusal and hook the answer's end. */
  response?: ServerResponse | undefined;
  /** The route's error format (its surface's). */
  errorRenderer: ErrorRenderer;
}

/** What the relay does with a reply: headers for any answer, or the raw response. */
export interface RelayHttpReply {
  raw: ServerResponse;
  header(name: string, value: string): unknown;
  /** Kept for handlers that also answer on Fastify's reply (where it is required); nothing here. */
  hijack(): void;
}

/** Answers with what it returns (as JSON, status 200) unless it wrote the answer itself. */
export type RelayHandler = (request: RelayHttpRequest, reply: RelayHttpReply) => Promise<unknown>;

/**
 * Checks a request from its headers alone, before its body is read; throws (or rejects) to refuse
 * it, so an unknown caller cannot make the server read and parse a large body.
 */
export type RelayAdmission = (request: RelayHttpRequest) => void | Promise<void>;

export interface RelayRouteOptions {
  /** The surface's error format for every failure of this route. */
  render: ErrorRenderer;
  /**
   * `json` (the default for POST), `multipart` (the form kept as raw bytes; JSON is read too), or
   * `stream`: left unread, for the handler to read from `reply.raw.req` (a raw pass-through).
   */
  body?: 'json' | 'multipart' | 'stream';
  /** Checks the caller from the headers (any method, GET too) before a body is read or the handler runs. */
  admit?: RelayAdmission;
  /**
   * This route's own body limit in bytes, below the front's (a hook or callback that expects a small
   * body); a route without `admit` never reads more than OPEN_ROUTE_BODY_LIMIT_BYTES.
   */
  bodyLimit?: number;
}

/** One declared route, as `routes()` lists it. */
export interface RelayRouteInfo {
  method: RelayMethod;
  path: string;
  /** Whether the caller is checked from the headers before the body is read. */
  admits: boolean;
  /** `json`, `multipart` or `stream` (read by the handler). */
  body: 'json' | 'multipart' | 'stream';
  /** The most this route reads of a body before it knows its caller. */
  unauthenticatedBodyLimit: number;
}

/** The per-address limit: resolves with the seconds to wait when the address is over it, else undefined. */
export type AddressLimit = (address: string) => Promise<number | undefined>;

/** An answer written as it is, in no surface's error format (the reference's own shapes). */
export interface RelayRefusal {
  status: number;
  body: unknown;
}

/** A route's method; `*` takes any (a raw pass-through), after the routes that name theirs. */
export type RelayMethod = 'GET' | 'POST' | 'DELETE' | '*';

export interface RelayFront {
  /** A last path segment `*` matches one or more segments, given as the parameter `*` (joined by `/`). */
  route(method: RelayMethod, path: string, options: RelayRouteOptions, handler: RelayHandler): void;
  /**
   * Claims a path prefix for the relay: requests under it that match no route get a 404 (and a
   * URL that cannot be decoded a 400) in this error format.
   */
  surface(prefix: string, render: ErrorRenderer): void;
  /**
   * Refuses every route under a path prefix while `refusal` answers something (a surface switched
   * off in the settings): checked before the caller is admitted or the body read.
   */
  gate(prefix: string, refusal: () => RelayRefusal | undefined): void;
  /** Whether this front serves the request (the rest goes to Fastify). */
  serves(url: string): boolean;
  /** Every declared route (a test walks them all without credentials). */
  routes(): RelayRouteInfo[];
  /** The per-address request limit for routes that authenticate nobody (/api's, http/rate-limit.ts). */
  limitOpenRoutes(limit: AddressLimit): void;
  /** Bytes of bodies being received now from an address, or for a user (body-budget.ts). */
  bodyBytesInFlight(address: string, user?: number): number;
  handle(raw: IncomingMessage, response: ServerResponse, id: string): void;
  /** From now on new requests are answered 503, as Fastify answers them while closing. */
  close(): void;
}

export interface RelayFrontOptions {
  bodyLimit: number;
  trustProxy: boolean | string[];
  logger: Logger;
  /** One log line per request and answer (debug level), as Fastify writes them. */
  logRequests: boolean;
  /** How long a route that authenticates nobody waits for its body (API_REQUEST_TIMEOUT_MS). */
  openRequestTimeoutMs?: number | undefined;
}

interface Route {
  method: string;
  segments: string[];
  options: RelayRouteOptions;
  handler: RelayHandler;
}

interface Match {
  route: Route;
  params: Record<string, string>;
}

/** Fastify's limit on one path parameter (app.ts routerOptions). */
const MAX_PARAM_LENGTH = 500;
const trustAll = () => true;
const mediaType = (header: string | undefined) => (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';

class FrontReply implements RelayHttpReply {
  constructor(readonly raw: ServerResponse) {}
  header(name: string, value: string): this {
    // Node merges it into the head the handler writes later.
    this.raw.setHeader(name, value);
    return this;
  }
  hijack(): void {}
}

/** Refuses the request (429) when its address has used up the per-address limit. */
async function limitAddress(limit: AddressLimit, request: RelayHttpRequest, response: ServerResponse): Promise<void> {
  const waitSeconds = await limit(request.ip);
  if (waitSeconds === undefined) return;
  response.setHeader('retry-after', String(waitSeconds));
  throw new AppError('rate_limited', `too many requests from this address; try again in ${waitSeconds} seconds`);
}

/** The path without its query and a trailing slash, split into decoded segments. */
function pathSegments(url: string): string[] {
  const query = url.indexOf('?');
  let path = query < 0 ? url : url.slice(0, query);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const segments = path.split('/');
  if (!path.includes('%')) return segments;
  try {
    return segments.map((segment) => decodeURIComponent(segment));
  } catch {
    throw AppError.badRequest(`'${path}' is not a valid url component`);
  }
}

function matchRoute(route: Route, method: string, segments: string[]): Match | undefined {
  if (route.method !== method && route.method !== '*') return undefined;
  const rest = route.segments.at(-1) === '*';
  if (rest ? segments.length < route.segments.length : route.segments.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < segments.length; index++) {
    const pattern = route.segments[index] as string;
    const segment = segments[index] as string;
    if (rest && index === route.segments.length - 1) {
      params['*'] = segments.slice(index).join('/');
      break;
    }
    if (pattern.startsWith(':')) {
      if (segment === '' || segment.length > MAX_PARAM_LENGTH) return undefined;
      params[pattern.slice(1)] = segment;
    } else if (pattern !== segment) return undefined;
  }
  return { route, params };
}

/** A handler's result, when it returned one and nothing was sent yet: a 200 with it as JSON. */
function answerJson(this: FrontReply, result: unknown): void {
  const response = this.raw;
  if (result === undefined || response.headersSent) return;
  const body = JSON.stringify(result);
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

export function createRelayFront(options: RelayFrontOptions): RelayFront {
  const exact = new Map<string, Route>();
  const patterns: Route[] = [];
  const surfaces: Array<{ prefix: string; render: ErrorRenderer }> = [];
  const gates: Array<{ prefix: string; refusal: () => RelayRefusal | undefined }> = [];
  let closing = false;
  let addressLimit: AddressLimit | undefined;
  const declared: Array<{ method: RelayMethod; path: string; route: Route }> = [];
  const budget = new BodyBudget(bodyBudgetLimits(options.bodyLimit));
  const openTimeoutMs = options.openRequestTimeoutMs;
  /** The route's limit; one that authenticates nobody never reads more than a few KiB. */
  const bodyLimitOf = (route: Route) => {
    const own = Math.min(route.options.bodyLimit ?? options.bodyLimit, options.bodyLimit);
    return route.options.admit ? own : Math.min(own, OPEN_ROUTE_BODY_LIMIT_BYTES);
  };

  // The same rule as Fastify's trustProxy: every peer, none, or the listed proxies.
  const trust = Array.isArray(options.trustProxy)
    ? proxyAddr.compile(options.trustProxy)
    : options.trustProxy
      ? trustAll
      : undefined;
  const clientAddress = (raw: IncomingMessage): string =>
    (trust ? proxyAddr(raw, trust) : raw.socket.remoteAddress) ?? '';

  const surfaceOf = (url: string) =>
    surfaces.find(({ prefix }) => url.startsWith(prefix) || url === prefix.slice(0, -1));

  function fail(error: unknown, request: RelayHttpRequest, response: ServerResponse, limit = options.bodyLimit): void {
    if (response.headersSent) {
      // The answer is under way, so only the log learns.
      options.logger.error({ err: error, reqId: request.id }, 'relay request failed after its answer began');
      return;
    }
    let appError = toAppError(error);
    if (appError.code === 'payload_too_large') {
      appError = new AppError(
        'payload_too_large',
        `request body is larger than the server accepts (at most ${limit} bytes here)`,
      );
    }
    logFailure(options.logger, error, appError, request.id);
    const body = JSON.stringify(request.errorRenderer(appError, request));
    // Refused before its body was read: the connection closes rather than read the rest.
    if (bodyUnread(response.req)) response.setHeader('connection', 'close');
    if (appError.retryAfterSeconds !== undefined) response.setHeader('retry-after', String(appError.retryAfterSeconds));
    response.writeHead(appError.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  }

  function run(request: RelayHttpRequest, reply: FrontReply, handler: RelayHandler): void {
    // Functions made once, bound per request (V8 compiled arrows made per request again and again).
    handler(request, reply).then(answerJson.bind(reply), failRun.bind(reply, request));
  }

  function failRun(this: FrontReply, request: RelayHttpRequest, error: unknown): void {
    fail(error, request, this.raw);
  }

  /**
   * Once the caller is admitted. A GET has no body; a pass-through's body is read by its handler.
   * A function of the front, not a closure per request, so its optimised code survives collections.
   */
  function proceed(raw: IncomingMessage, request: RelayHttpRequest, reply: FrontReply, route: Route): void {
    if (route.method === 'GET' || route.options.body === 'stream') run(request, reply, route.handler);
    else readBody(raw, request, reply, route);
  }

  /** Reads the body within the route's limits, then runs the handler. */
  function readBody(raw: IncomingMessage, request: RelayHttpRequest, reply: FrontReply, route: Route): void {
    const { headers } = raw;
    const declared = headers['content-length'];
    const hasBody = headers['transfer-encoding'] !== undefined || (declared !== undefined && declared !== '0');
    const type = mediaType(headers['content-type']);
    const form = route.options.body === 'multipart' && type === 'multipart/form-data';
    if (!hasBody) {
      if (type === 'application/json' || declared === '0') {
        fail(AppError.badRequest('request body is empty; send a JSON object'), request, reply.raw);
      } else run(request, reply, route.handler);
      return;
    }
    if (type !== 'application/json' && !form) {
      fail(
        new AppError('unsupported_media_type', 'unsupported Content-Type; send application/json'),
        request,
        reply.raw,
      );
      return;
    }
    const open = route.options.admit === undefined;
    const limit = bodyLimitOf(route);
    const plan = {
      form,
      limit,
      cap: request.bodyCap,
      timeoutMs: open ? openTimeoutMs : undefined,
      budget,
      address: request.ip,
      user: request.relayCaller?.user.id,
    };
    readRelayBody(raw, reply.raw, plan, (error, body) => {
      if (error) return fail(error, request, reply.raw, limit);
      request.body = body;
      run(request, reply, route.handler);
    });
  }

  /** The first gate under whose prefix the URL falls that refuses it now. */
  function refuse(url: string): RelayRefusal | undefined {
    for (const gate of gates) {
      if (!url.startsWith(gate.prefix)) continue;
      const refusal = gate.refusal();
      if (refusal) return refusal;
    }
    return undefined;
  }

  function find(method: string, segments: string[]): Match | undefined {
    const path = segments.join('/');
    const route = exact.get(`${method} ${path}`) ?? exact.get(`* ${path}`);
    if (route) return { route, params: {} };
    for (const pattern of patterns) {
      const match = matchRoute(pattern, method, segments);
      if (match) return match;
    }
    return undefined;
  }

  function logRequest(raw: IncomingMessage, response: ServerResponse, request: RelayHttpRequest): void {
    const started = performance.now();
    options.logger.info(
      { reqId: request.id, req: { method: raw.method, url: request.url, remoteAddress: request.ip } },
      'incoming request',
    );
    response.once('close', () => {
      options.logger.info(
        { reqId: request.id, res: { statusCode: response.statusCode }, responseTime: performance.now() - started },
        'request completed',
      );
    });
  }

  return {
    route(method, path, routeOptions, handler) {
      const route: Route = { method, segments: path.split('/'), options: routeOptions, handler };
      declared.push({ method, path, route });
      if (path.includes('/:') || path.endsWith('/*')) patterns.push(route);
      else exact.set(`${method} ${path}`, route);
    },
    gate(prefix, refusal) {
      gates.push({ prefix, refusal });
    },
    surface(prefix, render) {
      surfaces.push({ prefix, render });
      surfaces.sort((left, right) => right.prefix.length - left.prefix.length);
    },
    serves(url) {
      return surfaceOf(url) !== undefined;
    },
    routes() {
      return declared.map(({ method, path, route }) => ({
        method,
        path,
        admits: route.options.admit !== undefined,
        body: route.options.body ?? 'json',
        unauthenticatedBodyLimit: route.options.admit ? 0 : bodyLimitOf(route),
      }));
    },
    limitOpenRoutes(limit) {
      addressLimit = limit;
    },
    bodyBytesInFlight(address, user) {
      return budget.held(address, user);
    },
    handle(raw, response, id) {
      const url = raw.url ?? '/';
      const request: RelayHttpRequest = {
        id,
        ip: clientAddress(raw),
        url,
        headers: raw.headers,
        body: undefined,
        params: undefined,
        query: undefined,
        relayCaller: undefined,
        response,
        errorRenderer: (surfaceOf(url) as { render: ErrorRenderer }).render,
      };
      const reply = new FrontReply(response);
      if (options.logRequests) logRequest(raw, response, request);
      if (closing) {
        response.setHeader('connection', 'close');
        fail(new AppError('unavailable', 'the server is shutting down'), request, response);
        return;
      }
      let match: Match | undefined;
      try {
        match = find(raw.method === 'HEAD' ? 'GET' : (raw.method ?? ''), pathSegments(url));
      } catch (error) {
        fail(error, request, response);
        return;
      }
      if (!match) {
        fail(new AppError('not_found', `Route ${raw.method}:${url} not found`), request, response);
        return;
      }
      const { route, params } = match;
      const refused = refuse(url);
      if (refused) {
        const body = JSON.stringify(refused.body);
        if (bodyUnread(raw)) response.setHeader('connection', 'close');
        response.writeHead(refused.status, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        });
        response.end(body);
        return;
      }
      request.errorRenderer = route.options.render;
      request.params = params;
      const query = url.indexOf('?');
      request.query = query < 0 ? {} : parseQuery(url.slice(query + 1));
      let admitted: void | Promise<void>;
      try {
        const { admit } = route.options;
        admitted = admit ? admit(request) : addressLimit && limitAddress(addressLimit, request, response);
      } catch (error) {
        fail(error, request, response);
        return;
      }
      // A known key is answered from memory: the body is read at once, without a promise.
      if (admitted instanceof Promise) {
        admitted.then(
          () => proceed(raw, request, reply, route),
          (error: unknown) => fail(error, request, response),
        );
      } else proceed(raw, request, reply, route);
    },
    close() {
      closing = true;
    },
  };
}
