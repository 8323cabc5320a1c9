import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from './document.js';

/**
 * `GET /api/openapi.json`: public, since it describes the API and reveals no data. Built and
 * serialised on the first request, then the same text is answered every time.
 */
export function openApiRoutes(app: FastifyInstance, deps: { version: string }): void {
  let text: string | undefined;
  app.get('/api/openapi.json', async (_request, reply) => {
    text ??= JSON.stringify(buildOpenApiDocument(deps.version));
    return reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(text);
  });
}
