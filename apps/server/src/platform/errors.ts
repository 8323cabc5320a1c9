/** The one error type of the server. Thrown anywhere, rendered once per surface (see http/errors.ts). */

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'upstream_error'
  | 'unavailable'
  | 'internal';

const defaultStatus: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  upstream_error: 502,
  unavailable: 503,
  internal: 500,
};

export interface AppErrorOptions {
  status?: number;
  retryable?: boolean;
  cause?: unknown;
  /** Surface-specific detail, e.g. OpenAI's error `type`, `code` and `param`. */
  details?: { type?: string; code?: string; param?: string };
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details: NonNullable<AppErrorOptions['details']>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? defaultStatus[code];
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }

  static badRequest(message: string): AppError {
    return new AppError('bad_request', message);
  }
  static unauthorized(message: string): AppError {
    return new AppError('unauthorized', message);
  }
  static forbidden(message: string): AppError {
    return new AppError('forbidden', message);
  }
  static notFound(message: string): AppError {
    return new AppError('not_found', message);
  }
  static conflict(message: string): AppError {
    return new AppError('conflict', message);
  }
}

/**
 * A 400 naming the field: the request's own fault. Thrown by a relay endpoint reading the request, or
 * by an adapter for what its vendor cannot take (the relay then tries another channel, if any).
 */
export function fieldError(field: string, message: string): AppError {
  return new AppError('bad_request', `${field}: ${message}`, { details: { param: field } });
}
