import { AppError } from '../platform/errors.js';
import { readBody } from '../platform/read-body.js';
import { adminMessage, classifyUpstreamError, maskKey, networkFailure } from '../relay/exchange/upstream-errors.js';
import type { UpstreamClient } from '../relay/transport/executor.js';

/** A bounded JSON GET to a vendor's account endpoints (balance, model list). */
export interface VendorGet {
  url: string;
  key: string;
  headers?: Record<string, string>;
  proxy?: string;
}

const MAX_ACCOUNT_ANSWER = 4 * 1024 * 1024;
const ACCOUNT_TIMEOUT_MS = 20_000;

/**
 * Joins a vendor path that may or may not live under /v1 to a base URL that may or may not end
 * in /v1: `https://api.deepseek.com/v1` + `/user/balance` is `https://api.deepseek.com/user/balance`.
 */
export function vendorUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (!base.endsWith('/v1')) return `${base}${path}`;
  return path.startsWith('/v1/') ? `${base}${path.slice(3)}` : `${base.slice(0, -3)}${path}`;
}

/** GETs JSON; an upstream error becomes a 502 carrying the upstream's message (never the key). */
export async function getVendorJson(upstream: UpstreamClient, request: VendorGet): Promise<unknown> {
  let status: number;
  let text: string;
  try {
    const response = await upstream.send({
      url: request.url,
      method: 'GET',
      headers: { ...request.headers, accept: 'application/json', authorization: `Bearer ${request.key}` },
      proxy: request.proxy ?? '',
      signal: AbortSignal.timeout(ACCOUNT_TIMEOUT_MS),
    });
    status = response.status;
    text = (await readBody(response.body, MAX_ACCOUNT_ANSWER)).toString('utf8');
  } catch (error) {
    // Administrators only: the detail names the address that could not be reached.
    throw new AppError('upstream_error', maskKey(adminMessage(networkFailure(error)), request.key), { status: 502 });
  }
  if (status < 200 || status >= 300) {
    const { error } = classifyUpstreamError(status, text, []);
    // A bad key is the channel's problem, not the administrator's request: always a 502 here.
    throw new AppError('upstream_error', maskKey(error.message, request.key), { status: 502 });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('upstream_error', 'the upstream answered with something that is not JSON');
  }
}

/** A number the vendor may send as a JSON number or as a decimal string. */
export function numberField(value: unknown): number | undefined {
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : undefined;
}
