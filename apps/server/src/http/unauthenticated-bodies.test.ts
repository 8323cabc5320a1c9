import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { partialPost } from '../../test/partial-request.js';
import { apiRoutesOf } from './bodies.js';

/**
 * No route, present or future, reads more than a few KiB from a caller it has not authenticated.
 * Every registered route of both fronts (the relay front's list and Fastify's /api routes) is sent,
 * without credentials, a request that declares a body just over the ceiling and sends only its first
 * bytes: the server must refuse it without waiting for the rest. A route that waited would get the
 * short request timeouts set here (408), which the test refuses, so it fails instead of hanging.
 */

/** The most any route reads before it knows its caller: the payment vendors' callbacks' limit. */
const CEILING = 64 * 1024;
const REFUSALS = [400, 401, 403, 404, 405, 413, 415, 429];
const BODY_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** A concrete path for a declared pattern: every parameter and wildcard filled. */
function concrete(pattern: string): string {
  return pattern
    .split('/')
    .map((segment) => {
      if (segment === '*') return 'x';
      if (segment.startsWith(':')) return segment.includes('(') ? '1' : 'x';
      return segment;
    })
    .join('/');
}

describe('bodies from callers nobody has authenticated', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { REQUEST_TIMEOUT_MS: '5000', API_REQUEST_TIMEOUT_MS: '1000' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => t?.close());

  /** Every route that may read a body, as [method, path]. */
  function bodyRoutes(): Array<[string, string, string]> {
    const relay = t.app.relayFront
      .routes()
      .filter((route) => route.method !== 'GET')
      .map((route): [string, string, string] => [
        route.method === '*' ? 'POST' : route.method,
        concrete(route.path),
        route.path,
      ]);
    const api = apiRoutesOf(t.app).flatMap((route) =>
      route.methods
        .filter((method) => BODY_METHODS.includes(method))
        .map((method): [string, string, string] => [method, concrete(route.url), route.url]),
    );
    // Paths no route serves: answered 404 without reading either.
    const unknown: Array<[string, string, string]> = [
      ['POST', '/api/no-such-path', '/api/no-such-path'],
      ['PUT', '/no-such-page', '/no-such-page'],
    ];
    return [...relay, ...api, ...unknown];
  }

  it('lists the routes of both fronts, the keyless hooks among them', () => {
    const paths = bodyRoutes().map(([, , pattern]) => pattern);
    expect(paths).toContain('/mj/notify');
    expect(paths).toContain('/mj-fast/mj/notify');
    expect(paths).toContain('/v1/chat/completions');
    expect(paths).toContain('/api/user/login');
    expect(paths).toContain('/api/payment/notify/:uuid');
    expect(paths.length).toBeGreaterThan(100);
  });

  it('gives every route that authenticates nobody a body limit of a few KiB', () => {
    for (const route of t.app.relayFront.routes()) {
      if (!route.admits && route.body !== 'stream') {
        expect(route.unauthenticatedBodyLimit, route.path).toBeLessThanOrEqual(16 * 1024);
      }
    }
    for (const route of apiRoutesOf(t.app)) {
      if (!route.authenticates) expect(route.bodyLimit, route.url).toBeLessThanOrEqual(CEILING);
    }
  });

  it('refuses every route at once, without reading the rest of a body just over the ceiling', async () => {
    const routes = bodyRoutes();
    const answers: Array<[string, number]> = [];
    // A few at a time: the per-address connection cap is far above this.
    for (let index = 0; index < routes.length; index += 8) {
      const batch = routes.slice(index, index + 8);
      const results = await Promise.all(
        batch.map(async ([method, path]) => {
          const answer = await partialPost(base, path, {}, CEILING + 1, '{"id":"', method);
          return [`${method} ${path}`, answer.status] as [string, number];
        }),
      );
      answers.push(...results);
    }
    const unexpected = answers.filter(([, status]) => !REFUSALS.includes(status));
    expect(unexpected).toEqual([]);
  });
});
