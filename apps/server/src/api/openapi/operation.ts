import type { z } from 'zod';

/**
 * Who may call an operation, as its route's guard decides:
 * - `public`: anyone; `optional`: anyone, and a signed-in caller gets more (their own group's view);
 * - `user` / `admin` / `root`: a session cookie or an access token of a user of at least that role;
 * - `session`: the session cookie only (passkey enrolment refuses access tokens);
 * - `basic`: HTTP Basic credentials (METRICS_USER, METRICS_PASSWORD);
 * - `webhook`: a third party's delivery, checked by a secret it carries (payment gateways, Telegram).
 */
export type Access = 'public' | 'optional' | 'user' | 'admin' | 'root' | 'session' | 'basic' | 'webhook';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

/** A success that is not the `{success, message, data}` envelope (a file, a stream, another API's shape). */
export interface OtherAnswer {
  /** One or more: an export answers CSV or JSON lines as its `format` asks. */
  contentTypes: string[];
  description: string;
  schema?: z.ZodType;
}

/** One route of the management API, as the OpenAPI document describes it. */
/** A streamed export (logs, audit log): every row the list would show under the same filters, as a download. */
export const FILE_EXPORT: OtherAnswer = {
  contentTypes: ['text/csv', 'application/x-ndjson'],
  description: 'A file (attachment): CSV, or JSON lines with `format=jsonl`.',
};

export interface ApiOperation {
  method: HttpMethod;
  /** As registered with Fastify: `/api/token/:id`, `/api/user/:id(^\d+$)`, `/api/prices/single/*`. */
  path: string;
  summary: string;
  description?: string;
  access: Access;
  /** The schemas the handler parses (`parseInput(schema, request.query | params | body)`). */
  query?: z.ZodType;
  params?: z.ZodType;
  body?: z.ZodType;
  /** The envelope's `data`, where the contracts define it; a paged list when `paged` is set. */
  data?: z.ZodType;
  paged?: boolean;
  answer?: OtherAnswer;
  /** The OpenAPI name of Fastify's `*` wildcard in the path. */
  wildcardName?: string;
}

/** One resource's operations: they share a tag in the document and a section in docs/api-reference.md. */
export interface ResourceOperations {
  tag: string;
  description: string;
  operations: ApiOperation[];
}
