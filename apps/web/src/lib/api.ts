import type { ApiResponse } from '@one-hub/contracts';
import { strings } from '../i18n/strings.js';
import { isRecord, removeItem, storageKeys } from './storage.js';

/** A failed API call: `status` is the HTTP status (0 when the server was unreachable). */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return strings.app.unexpectedResponse;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function isEnvelope(value: unknown): value is ApiResponse {
  return isRecord(value) && typeof value.success === 'boolean' && typeof value.message === 'string';
}

async function readEnvelope(response: Response): Promise<ApiResponse | null> {
  try {
    const body: unknown = await response.json();
    return isEnvelope(body) ? body : null;
  } catch {
    return null;
  }
}

async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
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
    throw new ApiError(0, strings.app.networkError);
  }

  if (response.status === 401) removeItem(storageKeys.user);
  const envelope = await readEnvelope(response);
  if (!response.ok || !envelope?.success) {
    const message = envelope?.message || response.statusText || strings.app.unexpectedResponse;
    throw new ApiError(response.status, message);
  }
  return envelope.data as T;
}

/** The management API client. Paths are absolute (`/api/...`), independent of the console's base path. */
export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body ?? {}),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
