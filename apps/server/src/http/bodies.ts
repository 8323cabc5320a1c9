import type { FastifyInstance } from 'fastify';
import { parse as secureJsonParse } from 'secure-json-parse';
import { AppError } from '../platform/errors.js';
import { authenticatesCaller } from './auth.js';
import { bodyUnread } from './errors.js';
import { assertJsonDepth } from './json-depth.js';

/** An /api route as declared: its methods, path, body limit and whether it authenticates first. */
export interface ApiRouteInfo {
  methods: string[];
  url: string;
  bodyLimit: number;
  authenticates: boolean;
}

const declaredRoutes = new WeakMap<FastifyInstance, ApiRouteInfo[]>();

/** Every /api route declared on the app (a test walks them all without credentials). */
export function apiRoutesOf(app: FastifyInstance): ApiRouteInfo[] {
  return declaredRoutes.get(app) ?? [];
}

export interface BodyRules {
  /** Body limit of /api routes; the relay keeps the server's larger one for images and audio. */
  apiBodyLimit: number;
  /** How long an /api body may take to arrive once its headers are in. */
  apiRequestTimeoutMs: number;
}

const isApi = (url: string) => url.startsWith('/api/');

/**
 * What an /api route that authenticates nobody before its body (sign-in, registration, password
 * reset, passkey sign-in, the Telegram webhook) reads at most: its callers send a small JSON
 * object. A route may set its own limit (the payment vendors' callbacks, api/payment/routes.ts).
 */
export const OPEN_API_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * How Fastify reads bodies: JSON within the nesting limit (json-depth.ts), parsed with the same
 * prototype-poisoning rule as before; /api with a small body limit and a short time to send it.
 * Call before any route is declared.
 */
export function installBodyRules(app: FastifyInstance, rules: BodyRules): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    if (text === '') {
      done(AppError.badRequest('request body is empty; send a JSON object'), undefined);
      return;
    }
    try {
      assertJsonDepth(text as string);
      done(null, secureJsonParse(text as string, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  // A guard that authenticates from the headers runs before the body is read; without one, the
  // body comes from a stranger and stays small.
  const declared: ApiRouteInfo[] = [];
  declaredRoutes.set(app, declared);
  app.addHook('onRoute', (route) => {
    if (!isApi(route.url)) return;
    const guarded = authenticatesCaller(route.onRequest);
    route.bodyLimit ??= guarded ? rules.apiBodyLimit : Math.min(OPEN_API_BODY_LIMIT_BYTES, rules.apiBodyLimit);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    declared.push({ methods, url: route.url, bodyLimit: route.bodyLimit, authenticates: guarded });
  });

  // The server's own request timeout (REQUEST_TIMEOUT_MS) is sized for uploads to the relay; an
  // /api body is small and gets a much shorter time.
  app.addHook('preParsing', (request, reply, payload, done) => {
    // No route: Fastify would read the body (within the server's large limit) before answering 404.
    if (request.is404 && bodyUnread(request.raw)) {
      const path = request.url.split('?')[0];
      done(AppError.notFound(`${isApi(request.url) ? 'no such API path' : 'not found'}: ${request.method} ${path}`));
      return;
    }
    if (!isApi(request.url) || !bodyUnread(request.raw)) {
      done(null, payload);
      return;
    }
    const seconds = rules.apiRequestTimeoutMs / 1000;
    const timer = setTimeout(() => {
      const error = new AppError('bad_request', `the request body did not arrive within ${seconds} s`, {
        status: 408,
      });
      // The body reader listens for errors and answers with this one; without a reader, close.
      if (payload.listenerCount('error') > 0) payload.emit('error', error);
      else payload.destroy(error);
    }, rules.apiRequestTimeoutMs);
    const clear = () => clearTimeout(timer);
    payload.once('end', clear);
    reply.raw.once('close', clear);
    done(null, payload);
  });
}
