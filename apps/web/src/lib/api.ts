import { type ApiResponse, isRecord } from '@one-hub/contracts';
import { i18n } from '../i18n/index.js';
import { signalUnauthorized } from './session.js';

/**
 * A failed API call. `status` is the HTTP status, 0 when the server could not be reached, and the
 * real status with `success: false` bodies answered with 200 (the reference's habit).
 */
export class ApiError extends Error {
  readonly status: number;
  /** The input field the server's refusal is about (the envelope's `field`), where a form shows it. */
  readonly field: string | undefined;

  constructor(status: number, message: string, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.field = field;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** The plain text of any error, for inline display (toasts use showError from lib/notify). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return i18n.t('common:error.unknown');
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function isEnvelope(value: unknown): value is ApiResponse {
  return isRecord(value) && typeof value.success === 'boolean';
}

async function readBody(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/** A successful envelope: its `data` and the server's `message` (e.g. "bind" from an OAuth return). */
export interface ApiAnswer<T> {
  data: T;
  message: string;
  /** The whole envelope, for the few answers that carry more beside `data` (a reset's passkeys). */
  envelope: Record<string, unknown>;
}

async function request<T>(method: Method, path: string, body?: unknown): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, i18n.t('common:error.network'));
  }

  if (response.status === 401) signalUnauthorized();
  const payload = await readBody(response);
  const envelope = isEnvelope(payload) ? payload : null;
  if (!response.ok || !envelope?.success) {
    // The body's message wins over the status text (spec §8).
    const serverMessage = isRecord(payload) && typeof payload.message === 'string' ? payload.message : '';
    const message = serverMessage || response.statusText || i18n.t('common:error.unexpectedResponse');
    const field = isRecord(payload) && typeof payload.field === 'string' ? payload.field : undefined;
    throw new ApiError(response.status, message, field);
  }
  const message = typeof envelope.message === 'string' ? envelope.message : '';
  return { data: envelope.data as T, message, envelope: isRecord(payload) ? payload : {} };
}

const dataOf = <T>(answer: Promise<ApiAnswer<T>>) => answer.then((answered) => answered.data);

/**
 * The management API client: `{success, message, data}` envelopes in, `data` out, ApiError thrown
 * otherwise. Paths are absolute (`/api/...`) and do not depend on the console's base path.
 */
export const api = {
  get: <T>(path: string) => dataOf(request<T>('GET', path)),
  /** Like `get`, for the few calls whose success message carries meaning. */
  getAnswer: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => dataOf(request<T>('POST', path, body ?? {})),
  /** Like `post`, with the whole answer. */
  postAnswer: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => dataOf(request<T>('PUT', path, body ?? {})),
  patch: <T>(path: string, body?: unknown) => dataOf(request<T>('PATCH', path, body ?? {})),
  delete: <T>(path: string) => dataOf(request<T>('DELETE', path)),
  /** A GET whose answer is not an envelope (a third party's JSON the server relays as it is). */
  getPlain: async <T>(path: string): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    } catch {
      throw new ApiError(0, i18n.t('common:error.network'));
    }
    if (response.status === 401) signalUnauthorized();
    const payload = await readBody(response);
    if (!response.ok) {
      const serverMessage = isRecord(payload) && typeof payload.message === 'string' ? payload.message : '';
      throw new ApiError(response.status, serverMessage || response.statusText);
    }
    return payload as T;
  },
};

/** Builds `path?query` from the defined, non-empty values of `query`. */
export function withQuery(path: string, query: Record<string, string | number | boolean | null | undefined>): string {
  const parameters = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') parameters.set(key, String(value));
  }
  const text = parameters.toString();
  return text ? `${path}?${text}` : path;
}
