import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** API_ERRORS_HTTP_200: `/api` failures answer 200 with the envelope, as One Hub does (but 401 and 429). */
    apiFailuresAs200: boolean;
  }
}

/**
 * Every failure becomes an AppError here and is rendered once, in the format of the surface the
 * request came to: each relay route declares its surface's renderer (relay/routes.ts); `/api` and
 * the rest use the management envelope.
 */
export type ErrorRenderer = (error: AppError, request: ErrorRequest) => unknown;

/** What a renderer may read of the request. */
export interface ErrorRequest {
  id: string;
  url: string;
  /** The route's renderer; the management envelope when absent. */
  errorRenderer?: ErrorRenderer;
}

/** `{success: false, message}`, plus `field` when the refusal is about one input field. */
const renderManagementError: ErrorRenderer = (error) =>
  error.field === undefined
    ? { success: false, message: error.message }
    : { success: false, message: error.message, field: error.field };

/** Maps framework and parser errors onto AppError; anything unknown is an internal error. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as Partial<FastifyError> & { type?: string };
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'request body is larger than the server accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'unsupported Content-Type; send application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return AppError.badRequest('request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return AppError.badRequest('Content-Length does not match the body');
  }
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return AppError.badRequest('request body is not valid JSON');
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new AppError(status === 404 ? 'not_found' : 'bad_request', fastifyError.message ?? 'bad request', {
      status,
    });
  }
  return new AppError('internal', 'internal server error', { cause: error });
}

/** The error's body in the format of the surface the request came to. */
export function renderErrorBody(error: AppError, request: ErrorRequest): unknown {
  return (request.errorRenderer ?? renderManagementError)(error, request);
}

/** Whether the request declares a body that has not been read to its end (it was refused first). */
export function bodyUnread(raw: IncomingMessage): boolean {
  if (raw.complete) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function sendError(error: AppError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // Refused before its body was read (a guard, a limit, a timeout): the connection closes rather
  // than read the rest of a body nobody will use.
  if (bodyUnread(request.raw)) reply.header('connection', 'close');
  return reply.status(statusOf(error, request)).send(renderErrorBody(error, request));
}

/**
 * The real status, unless the site keeps One Hub's console or scripts, which read `success:false`
 * from an HTTP 200 and treat any other status as a second, generic failure. Even then "not signed
 * in" stays 401 (One Hub's console signs out on it) and a rate limit 429 (with its Retry-After).
 */
function statusOf(error: AppError, request: FastifyRequest): number {
  if (!request.server.apiFailuresAs200 || error.status === 401 || error.status === 429) {
    return error.status;
  }
  return (request.url.split('?')[0] ?? '').startsWith('/api/') ? 200 : error.status;
}

/**
 * Failures nobody planned (a bug, a lost database) are logged as errors with their stack; a refusal
 * the code chose with a 5xx status (a feature not set up, an upstream that failed, no channel) is
 * a warning naming it, with no stack, so it does not bury real errors in the system log.
 */
export function logFailure(
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  error: unknown,
  appError: AppError,
  requestId: string,
): void {
  if (appError.status < 500) return;
  if (error instanceof AppError && error.code !== 'internal' && error.cause === undefined) {
    log.warn({ reqId: requestId, code: error.code, status: error.status, reason: error.message }, 'request refused');
  } else {
    log.error({ err: error, reqId: requestId }, 'request failed');
  }
}

/** The route's body limit in the 413 message, so the client knows what to send instead. */
function withLimit(error: AppError, request: FastifyRequest): AppError {
  if (error.code !== 'payload_too_large') return error;
  const limit = request.routeOptions.bodyLimit;
  return new AppError(
    'payload_too_large',
    `request body is larger than the server accepts (at most ${limit} bytes here)`,
  );
}

export function installErrorHandling(app: FastifyInstance, options: { apiFailuresAs200: boolean }): void {
  app.decorate('apiFailuresAs200', options.apiFailuresAs200);
  app.setErrorHandler((error, request, reply) => {
    const appError = withLimit(toAppError(error), request);
    logFailure(request.log, error, appError, request.id);
    return sendError(appError, request, reply);
  });
}
