import { isRecord, type Json } from '@one-hub/contracts';
import { AppError } from '../../platform/errors.js';

/** Reading the JSON the task surfaces' clients and upstreams send, field by field. */

/** An object's field as text ('' when absent or not a string/number). */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** A JSON object's members, or none when the value is not an object. */
export function objectOf(value: unknown): Json {
  return isRecord(value) ? value : {};
}

/** A client's request body, which must be a JSON object (400 otherwise). */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw AppError.badRequest('request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** A client's callback address (`notifyHook`, `notify_hook`, `callback_url`): an http(s) URL, else undefined. */
export function clientHookAddress(value: unknown): string | undefined {
  return typeof value === 'string' && /^https?:\/\//i.test(value) && value.length <= 2048 ? value : undefined;
}
