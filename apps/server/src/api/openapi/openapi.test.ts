import { readFileSync } from 'node:fs';
import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../../test/app.js';
import { buildOpenApiDocument, type OpenApiDocument } from './document.js';
import type { Access, ApiOperation } from './operation.js';
import { renderReferencePage } from './reference-page.js';
import { API_RESOURCES } from './resources.js';
import { openApiPath } from './schemas.js';

/** Every route the app registers, as `METHOD url`, recorded by an onRoute hook on the real app. */
const registered = vi.hoisted(() => [] as string[]);

vi.mock('fastify', async (importOriginal) => {
  const fastify = await importOriginal<typeof import('fastify')>();
  const recording = ((options: Parameters<typeof fastify.default>[0]) => {
    const app = fastify.default(options);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registered.push(`${method} ${route.url}`);
    });
    return app;
  }) as typeof fastify.default;
  return { ...fastify, default: recording };
});

/** Methods a route answers that an OpenAPI operation can describe; HEAD comes with every GET. */
const DESCRIBED_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);

/** `GET /api/user/{}`: parameter names differ (`:id(^\d+$)`, `*`), their places do not. */
const comparable = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

/** The /api routes, with a route registered for every method (a webhook) standing for its GET and POST. */
function registeredApiRoutes(): Set<string> {
  const methodsByUrl = new Map<string, Set<string>>();
  for (const entry of registered) {
    const [method = '', url = ''] = entry.split(' ');
    if (!url.startsWith('/api/') && url !== '/api') continue;
    methodsByUrl.set(url, (methodsByUrl.get(url) ?? new Set()).add(method));
  }
  const routes = new Set<string>();
  for (const [url, methods] of methodsByUrl) {
    const anyMethod = methods.has('TRACE');
    for (const method of anyMethod ? ['GET', 'POST'] : methods) {
      if (DESCRIBED_METHODS.has(method)) routes.add(comparable(method, openApiPath(url)));
    }
  }
  return routes;
}

function documentedRoutes(document: OpenApiDocument): Set<string> {
  const routes = new Set<string>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const method of Object.keys(methods)) routes.add(comparable(method, path));
  }
  return routes;
}

/** Every schema an operation carries inline, named by where it sits. */
function operationSchemas(operation: Record<string, unknown>): Array<[string, object]> {
  const parameters = (operation.parameters ?? []) as Array<{ name: string; schema: object }>;
  const content = (holder: unknown) => (holder as { content?: Record<string, { schema: object }> })?.content ?? {};
  const responses = operation.responses as Record<string, unknown>;
  return [
    ...parameters.map((parameter): [string, object] => [`parameter ${parameter.name}`, parameter.schema]),
    ...Object.values(content(operation.requestBody)).map(({ schema }): [string, object] => ['body', schema]),
    ...Object.values(content(responses['200'])).map(({ schema }): [string, object] => ['answer', schema]),
  ];
}

let t: TestApp;
let document: OpenApiDocument;

beforeAll(async () => {
  t = await startTestApp();
  document = buildOpenApiDocument('test');
});
afterAll(async () => {
  await t.close();
});

describe('the OpenAPI document of the management API', () => {
  it('describes every /api route the app registers, and no route it does not', () => {
    const routes = registeredApiRoutes();
    const described = documentedRoutes(document);
    expect(routes.size).toBeGreaterThan(150);
    const leftOut = [...routes].filter((route) => !described.has(route)).sort();
    const withoutRoute = [...described].filter((route) => !routes.has(route)).sort();
    expect({ leftOut, withoutRoute }).toEqual({ leftOut: [], withoutRoute: [] });
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    // validate() dereferences in place: it gets a copy.
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.specification).toBe('OpenAPI');
    expect(document.openapi).toBe('3.1.0');
  });

  it('holds only valid JSON Schema 2020-12 in its parameters, bodies and answers', () => {
    // The OpenAPI validator does not look inside schemas; Ajv checks each against the 2020-12 meta-schema.
    const ajv = new Ajv2020({ strict: false });
    const invalid: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [where, schema] of operationSchemas(operation)) {
          if (!ajv.validateSchema(schema)) invalid.push(`${method} ${path} ${where}: ${ajv.errorsText()}`);
        }
      }
    }
    expect(invalid).toEqual([]);
  });

  it('is served at GET /api/openapi.json without signing in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const served = response.json() as OpenApiDocument;
    expect(served.openapi).toBe('3.1.0');
    // Built in turns for the server, it is the same document, and two early callers share one build.
    expect(served).toEqual(
      JSON.parse(JSON.stringify({ ...document, info: { ...document.info, version: served.info.version } })),
    );
    const [first, second] = await Promise.all(
      [1, 2].map(() => t.app.inject({ method: 'GET', url: '/api/openapi.json' })),
    );
    expect(first?.body).toBe(response.body);
    expect(second?.body).toBe(response.body);
    expect(served.paths['/api/token/']?.post?.security).toEqual([{ session: [] }, { accessToken: [] }]);
  });

  it('keeps docs/api-reference.md in step with the document (npm run docs:api rewrites it)', () => {
    const page = readFileSync(new URL('../../../../../docs/api-reference.md', import.meta.url), 'utf8');
    expect(page === renderReferencePage(buildOpenApiDocument('reference')), 'run `npm run docs:api`').toBe(true);
  });
});

/** The described body of an operation, compiled; it must refuse what the server refuses. */
function bodyValidator(method: string, path: string) {
  const operation = document.paths[path]?.[method] as { requestBody?: { content: Record<string, { schema: object }> } };
  const schema = operation?.requestBody?.content['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${path} describes no JSON body`);
  return new Ajv2020({ strict: false }).compile(schema);
}

describe('the described bodies agree with the server', () => {
  const cases: Array<{ method: 'POST' | 'PUT'; url: string; path: string; refused: object; accepted?: object }> = [
    {
      method: 'POST',
      url: '/api/token/',
      path: '/api/token/',
      refused: { remain_quota: 5 },
      accepted: { name: 'spot key' },
    },
    { method: 'POST', url: '/api/user/login', path: '/api/user/login', refused: { username: 'root' } },
    { method: 'POST', url: '/api/user/', path: '/api/user/', refused: { username: 'no-password' } },
    { method: 'PUT', url: '/api/option/', path: '/api/option/', refused: { value: 'x' } },
    { method: 'POST', url: '/api/channel/', path: '/api/channel/', refused: { key: 'sk-x' } },
    { method: 'POST', url: '/api/user/topup', path: '/api/user/topup', refused: {} },
    { method: 'POST', url: '/api/redemption/', path: '/api/redemption/', refused: { count: 1 } },
  ];

  for (const { method, url, path, refused, accepted } of cases) {
    it(`${method} ${url}: what the server refuses with 400, the schema refuses`, async () => {
      const check = bodyValidator(method.toLowerCase(), path);
      const headers = { authorization: ROOT_TOKEN };
      const response = await t.app.inject({ method, url, payload: refused, headers });
      expect(response.statusCode, response.body).toBe(400);
      expect(check(refused)).toBe(false);
      if (accepted) {
        const done = await t.app.inject({ method, url, payload: accepted, headers });
        expect(done.statusCode, done.body).toBe(200);
        expect(check(accepted), JSON.stringify(check.errors)).toBe(true);
      }
    });
  }
});

/** A URL for an operation: each path parameter filled with a value its schema accepts (ids of no record). */
function sampleUrl(operation: ApiOperation): string {
  return openApiPath(operation.path, operation.wildcardName).replace(/\{[^}]+\}/g, (name) =>
    name === '{tag}' ? 'tag' : name === '{status}' ? 'enable' : name === '{time}' ? '2026-01' : '999999',
  );
}

/** The lowest role a route lets in, as each caller sees it: refused at the door (401 / 403) or let in. */
const LETS_IN: Record<'anonymous' | 'user' | 'admin', Access[]> = {
  anonymous: ['public', 'optional', 'webhook', 'basic'],
  user: ['public', 'optional', 'webhook', 'basic', 'user', 'session'],
  admin: ['public', 'optional', 'webhook', 'basic', 'user', 'session', 'admin'],
};

type Caller = keyof typeof LETS_IN;

/** Whether an auth guard refused the call (a handler's own 401 or 403, e.g. a missing OAuth state, is not one). */
async function refusedAtTheDoor(operation: ApiOperation, headers: Record<string, string>) {
  const method = operation.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE';
  const body = method === 'GET' ? {} : { payload: {} };
  const response = await t.app.inject({ method, url: sampleUrl(operation), headers, ...body });
  const status = response.statusCode;
  const message = status === 401 || status === 403 ? (response.json() as { message: string }).message : '';
  const refused =
    (status === 401 && message.startsWith('not signed in')) ||
    (status === 403 && message.startsWith('permission denied'));
  return { refused, status };
}

describe('the described access is what the route guards enforce', () => {
  it('refuses anonymous callers, users and admins exactly where the document says', async () => {
    const user = await t.createUser('oa-user');
    const admin = await t.createUser('oa-admin');
    const promoted = await t.app.inject({
      method: 'POST',
      url: '/api/user/manage',
      headers: { authorization: ROOT_TOKEN },
      payload: { username: 'oa-admin', action: 'promote' },
    });
    expect(promoted.statusCode).toBe(200);
    const callers = { anonymous: {}, user: { cookie: user.cookie }, admin: { cookie: admin.cookie } };
    const wrong: string[] = [];
    for (const operation of API_RESOURCES.flatMap((resource) => resource.operations)) {
      // Answers only with HTTP Basic or a third party's secret: nothing a session changes.
      if (operation.access === 'basic' || operation.access === 'webhook') continue;
      // Signing out ends every session of the caller, the ones this test goes on with too.
      if (operation.path === '/api/user/logout') continue;
      for (const [caller, headers] of Object.entries(callers) as Array<[Caller, Record<string, string>]>) {
        const refused = await refusedAtTheDoor(operation, headers);
        if (LETS_IN[caller].includes(operation.access) === refused.refused) {
          wrong.push(`${operation.method} ${operation.path} as ${caller}: ${refused.status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
