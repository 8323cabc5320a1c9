import { request } from 'undici';
import { AppError } from '../../../platform/errors.js';
import { readBody } from '../../../platform/read-body.js';

/** One JSON call to an identity provider (GitHub, Feishu, an OIDC issuer, a WeChat server, Turnstile). */
export interface JsonCall {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  /** The largest answer read (default 1 MiB); a longer one fails the call. */
  maxBytes?: number;
}

export interface JsonAnswer {
  status: number;
  body: unknown;
}

const TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Calls a provider and parses its JSON answer, whatever the status. `provider` names it in error
 * messages; URLs and headers are left out of errors because they may carry codes or tokens.
 */
export async function callJson(url: string, call: JsonCall, provider: string): Promise<JsonAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'one-hub', ...call.headers };
  let body: string | undefined;
  if (call.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(call.form).toString();
  } else if (call.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.json);
  }
  let status: number;
  let text: string;
  try {
    const response = await request(url, {
      method: call.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body: body ?? null,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    status = response.statusCode;
    text = (await readBody(response.body, call.maxBytes ?? MAX_BODY_BYTES)).toString('utf8');
  } catch (error) {
    const reason = (error as { code?: string }).code ?? 'network error';
    throw new AppError('upstream_error', `${provider} could not be reached (${reason})`, { retryable: true });
  }
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch {
    throw new AppError('upstream_error', `${provider} answered HTTP ${status} with a body that is not JSON`);
  }
}

/** A JSON object's string field, or '' when absent or of another type. */
export function textField(source: unknown, field: string): string {
  const value = (source as Record<string, unknown> | null)?.[field];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
