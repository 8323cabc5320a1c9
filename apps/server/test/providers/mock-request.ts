import type { IncomingMessage } from 'node:http';
import { isRecord, type Json } from '@one-hub/contracts';

/**
 * Reading the requests a provider mock receives, shared by the mocks (their answers, each in its
 * vendor's documented format, stay their own): the whole body, a JSON or multipart body, and the
 * bearer check.
 */

/** A request read to its end. */
export interface WholeRequest {
  method: string;
  /** The path with its query string. */
  path: string;
  contentType: string;
  raw: Buffer;
}

export async function readWhole(request: IncomingMessage): Promise<WholeRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return {
    method: request.method ?? 'GET',
    path: request.url ?? '/',
    contentType: request.headers['content-type'] ?? '',
    raw: Buffer.concat(chunks),
  };
}

/**
 * A JSON body as an object: `{}` when it is empty or not an object, undefined when it is not
 * JSON (each mock answers that in its vendor's error format).
 */
export function jsonObject(raw: Buffer): Json | undefined {
  if (raw.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    return isRecord(parsed) ? parsed : {};
  } catch {
    return undefined;
  }
}

/** A `multipart/form-data` body as the platform's FormData; undefined when it does not parse. */
export function multipartForm(raw: Buffer, contentType: string): Promise<FormData | undefined> {
  return new Request('http://mock/', { method: 'POST', headers: { 'content-type': contentType }, body: raw })
    .formData()
    .catch(() => undefined);
}

/** Whether the request carries `Authorization: Bearer <token>`. */
export const hasBearer = (request: IncomingMessage, token: string): boolean =>
  request.headers.authorization === `Bearer ${token}`;
