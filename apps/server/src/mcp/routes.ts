import type { FastifyInstance } from 'fastify';
import type { Auth } from '../http/auth.js';
import { AppError } from '../platform/errors.js';
import { authenticateByPath } from './access.js';
import type { McpToolDeps } from './server.js';

export interface McpRouteDeps extends McpToolDeps {
  /** MCP_ENABLE: off, every /mcp path answers 404. */
  enabled: boolean;
  auth: Pick<Auth, 'accessTokenUser'>;
  /** JSON-RPC messages are small: the management API's body limit. */
  bodyLimit: number;
}

/**
 * `/mcp` (reference `SetMcpRouter`): the streamable HTTP transport at `/mcp/<access token>`, the
 * older SSE transport at `/mcp/sse/<access token>` with its messages at `/mcp/message/<access token>`.
 */
export async function mcpRoutes(app: FastifyInstance, deps: McpRouteDeps): Promise<void> {
  const notFound = async () => {
    throw AppError.notFound(deps.enabled ? 'no such MCP path' : 'the MCP server is not enabled on this site');
  };
  // Unknown paths under /mcp answer JSON (never the console's page), without echoing a token.
  app.route({ method: ['GET', 'POST', 'DELETE'], url: '/mcp/*', onRequest: notFound, handler: notFound });
  if (!deps.enabled) return;

  // The SDK and what it brings load only when the server is on: about half a second of start-up
  // and 30 MB that a site without MCP would spend for nothing.
  const { createMcpHandlers } = await import('./transports.js');
  const handlers = createMcpHandlers(deps);
  const guarded = { onRequest: authenticateByPath(deps.auth), bodyLimit: deps.bodyLimit };
  app.addHook('preClose', () => handlers.close());

  app.post('/mcp/:accessToken', guarded, handlers.streamable);
  // Stateless: no stream the server could push to outside a request, and no session to end.
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp/:accessToken',
    onRequest: guarded.onRequest,
    handler: async (_request, reply) =>
      reply
        .status(405)
        .header('allow', 'POST')
        .send({ success: false, message: 'this MCP endpoint is stateless: send each message with POST' }),
  });
  app.get('/mcp/sse/:accessToken', guarded, handlers.openSse);
  app.post('/mcp/message/:accessToken', guarded, handlers.sseMessage);
}
