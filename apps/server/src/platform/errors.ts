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
  /** The input field the refusal is about (`price.input`), so a form can show it beside that field. */
  field?: string;
  /** Sent as Retry-After with the refusal (a rate or budget limit). */
  retryAfterSeconds?: number;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details: NonNullable<AppErrorOptions['details']>;
  readonly field: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? defaultStatus[code];
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /**
   * The helpers below take the field a refusal is about, when there is one: the message then starts
   * with it (`username: 'ann' is already taken`, as people and scripts read it) and `field` names it
   * for forms, so no client has to guess the field from the text.
   */
  static badRequest(message: string, field?: string): AppError {
    return AppError.about('bad_request', message, field);
  }
  static unauthorized(message: string): AppError {
    return new AppError('unauthorized', message);
  }
  static forbidden(message: string, field?: string): AppError {
    return AppError.about('forbidden', message, field);
  }
  static notFound(message: string, field?: string): AppError {
    return AppError.about('not_found', message, field);
  }
  static conflict(message: string, field?: string): AppError {
    return AppError.about('conflict', message, field);
  }

  private static about(code: ErrorCode, message: string, field: string | undefined): AppError {
    return field === undefined ? new AppError(code, message) : new AppError(code, `${field}: ${message}`, { field });
  }
}

/**
 * A 400 naming the field: the request's own fault. Thrown by a relay endpoint reading the request, or
 * by an adapter for what its vendor cannot take (the relay then tries another channel, if any).
 */
export function fieldError(field: string, message: string): AppError {
  return new AppError('bad_request', `${field}: ${message}`, { details: { param: field } });
}
