import { apiFailureSchema, apiSuccessSchema, pagedSchema } from '@one-hub/contracts';
import { z } from 'zod';
import type { Access, ApiOperation, ResourceOperations } from './operation.js';
import { API_RESOURCES } from './resources.js';
import { acceptsNothing, type JsonSchema, openApiPath, parametersOf, pathParameters, toJsonSchema } from './schemas.js';

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, JsonSchema>>;
  components: JsonSchema;
};

/** Refusals, each the `{success: false, message}` envelope with its real status. */
const FAILURES = {
  '400': ['BadRequest', 'The input is invalid; `message` names the field (and `field` holds its path).'],
  '401': ['Unauthorized', 'Not signed in, or the access token or credentials are wrong.'],
  '403': ['Forbidden', "The caller's role or status does not allow this, or a write came from another site."],
  '404': ['NotFound', 'No such record.'],
  '409': ['Conflict', 'The write collides with existing state (a name in use, a run already going).'],
  '413': ['PayloadTooLarge', 'The request body is larger than the API allows.'],
  '429': ['TooManyRequests', 'Too many requests from this address or for this account; retry later.'],
} as const;
type FailureStatus = keyof typeof FAILURES;

const SECURITY: Record<Access, Array<Record<string, string[]>>> = {
  public: [],
  webhook: [],
  optional: [{}, { session: [] }, { accessToken: [] }],
  user: [{ session: [] }, { accessToken: [] }],
  admin: [{ session: [] }, { accessToken: [] }],
  root: [{ session: [] }, { accessToken: [] }],
  session: [{ session: [] }],
  basic: [{ metricsBasic: [] }],
};

/** How docs/api-reference.md and each operation's description name who may call it. */
export const ACCESS_TEXT: Record<Access, string> = {
  public: 'none (public)',
  webhook: 'none (a third party’s delivery, checked by its secret)',
  optional: 'optional (a signed-in caller sees more)',
  user: 'signed-in user',
  admin: 'administrator',
  root: 'root',
  session: 'session cookie of a signed-in user (no access token)',
  basic: 'HTTP Basic (METRICS_USER, METRICS_PASSWORD)',
};

function failureStatuses(operation: ApiOperation): FailureStatus[] {
  const statuses: FailureStatus[] = [];
  if (operation.query || operation.params || operation.body || operation.path.includes(':')) statuses.push('400');
  const authenticated = !['public', 'optional', 'webhook'].includes(operation.access);
  if (authenticated) statuses.push('401', '403');
  if (operation.path.includes(':') || operation.path.endsWith('*')) statuses.push('404');
  if (operation.method === 'post' || operation.method === 'put') statuses.push('409');
  if (operation.body) statuses.push('413');
  statuses.push('429');
  return statuses;
}

function successResponse(operation: ApiOperation): JsonSchema {
  if (operation.answer) {
    const { contentTypes, description, schema } = operation.answer;
    const content = Object.fromEntries(
      contentTypes.map((type) => [type, { schema: schema ? toJsonSchema(schema) : {} }]),
    );
    return { description, content };
  }
  const data = operation.paged ? pagedSchema(operation.data ?? z.unknown()) : (operation.data ?? z.unknown());
  const schema = toJsonSchema(apiSuccessSchema(data));
  return {
    description: 'Done: the `{success: true, message, data}` envelope.',
    content: { 'application/json': { schema } },
  };
}

function requestBody(body: z.ZodType): JsonSchema {
  return { required: !acceptsNothing(body), content: { 'application/json': { schema: toJsonSchema(body) } } };
}

function describeOperation(operation: ApiOperation, tag: string): JsonSchema {
  const path = openApiPath(operation.path, operation.wildcardName);
  const responses: JsonSchema = { '200': successResponse(operation) };
  for (const status of failureStatuses(operation)) {
    responses[status] = { $ref: `#/components/responses/${FAILURES[status][0]}` };
  }
  const described: JsonSchema = {
    operationId: operationIdOf(operation),
    summary: operation.summary,
    description: [operation.description, `Access: ${ACCESS_TEXT[operation.access]}.`].filter(Boolean).join('\n\n'),
    tags: [tag],
    security: SECURITY[operation.access],
    'x-access': operation.access,
    parameters: [...pathParameters(path, operation.params), ...parametersOf(operation.query, 'query')],
    responses,
  };
  if (operation.body) described.requestBody = requestBody(operation.body);
  return described;
}

/** `get /api/token/:id` → `get_api_token_id`: unique because method and path are. */
export function operationIdOf(operation: ApiOperation): string {
  const words = openApiPath(operation.path, operation.wildcardName).match(/[A-Za-z0-9]+/g) ?? [];
  return [operation.method, ...words].join('_');
}

function components(): JsonSchema {
  const failure = toJsonSchema(apiFailureSchema);
  const responses: JsonSchema = {};
  for (const [name, description] of Object.values(FAILURES)) {
    responses[name] = {
      description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    };
  }
  return {
    schemas: { Failure: failure },
    responses,
    securitySchemes: {
      session: { type: 'apiKey', in: 'cookie', name: 'session', description: 'Set by POST /api/user/login.' },
      accessToken: {
        type: 'http',
        scheme: 'bearer',
        description:
          'The user’s access token (POST /api/user/token) in `Authorization`; the `Bearer ` prefix is optional.',
      },
      metricsBasic: { type: 'http', scheme: 'basic' },
    },
  };
}

function addOperations(paths: OpenApiDocument['paths'], resource: ResourceOperations): void {
  for (const operation of resource.operations) {
    const path = openApiPath(operation.path, operation.wildcardName);
    paths[path] ??= {};
    paths[path][operation.method] = describeOperation(operation, resource.tag);
  }
}

function documentOf(
  version: string,
  resources: readonly ResourceOperations[],
  paths: OpenApiDocument['paths'],
): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: {
      title: 'One Hub management API',
      version,
      description:
        'The console’s API under /api. Every JSON answer is the `{success, message, data}` envelope with the real HTTP status; paged lists put `{data, page, size, total_count}` in `data`.',
    },
    tags: resources.map(({ tag, description }) => ({ name: tag, description })),
    paths,
    components: components(),
  };
}

/** The OpenAPI 3.1 document of the management API, built from the resources' operations. */
export function buildOpenApiDocument(
  version: string,
  resources: readonly ResourceOperations[] = API_RESOURCES,
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const resource of resources) addOperations(paths, resource);
  return documentOf(version, resources, paths);
}

/**
 * The same document, built one resource per turn of the event loop: converting every schema takes
 * about 100 ms of CPU, which in one piece would hold up every request in flight on this process.
 */
export async function buildOpenApiDocumentInTurns(version: string): Promise<OpenApiDocument> {
  const paths: OpenApiDocument['paths'] = {};
  for (const resource of API_RESOURCES) {
    addOperations(paths, resource);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return documentOf(version, API_RESOURCES, paths);
}
