import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocumentInTurns } from './document.js';

/**
 * `GET /api/openapi.json`: public, since it describes the API and reveals no data. Built (in turns,
 * see buildOpenApiDocumentInTurns) and serialised on the first request, then the same text is
 * answered every time; requests that come while it is built wait for the same build.
 */
export function openApiRoutes(app: FastifyInstance, deps: { version: string }): void {
  let text: Promise<string> | undefined;
  app.get('/api/openapi.json', async (_request, reply) => {
    text ??= buildOpenApiDocumentInTurns(deps.version)
      .then((document) => JSON.stringify(document))
      .catch((error: unknown) => {
        text = undefined;
        throw error;
      });
    return reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(await text);
  });
}
