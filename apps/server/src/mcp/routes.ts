import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { UserStatus } from '@one-hub/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Auth, currentUser } from '../http/auth.js';
import { AppError } from '../platform/errors.js';
import { createMcpServer, type McpToolDeps, mcpTools } from './server.js';
import { SseSessions } from './sse-sessions.js';

export interface McpRouteDeps extends McpToolDeps {
  /** MCP_ENABLE: off, every /mcp path answers 404. */
  enabled: boolean;
  auth: Pick<Auth, 'accessTokenUser'>;
  /** JSON-RPC messages are small: the management API's body limit. */
  bodyLimit: number;
}

/** Comment lines on an open SSE stream, so proxies do not cut a quiet connection. */
const SSE_KEEP_ALIVE_MS = 25_000;

function accessTokenOf(request: FastifyRequest): string {
  return (request.params as { accessToken?: string }).accessToken ?? '';
}

/**
 * The access token in the path names the user, as the reference does (`/mcp/<token>`): MCP
 * clients are configured with a URL. Checked from the path alone, before the body is read.
 */
function authenticate(auth: McpRouteDeps['auth']) {
  return async (request: FastifyRequest) => {
    const token = accessTokenOf(request);
    const user = token ? await auth.accessTokenUser(token) : null;
    if (!user || user.status !== UserStatus.enabled) {
      throw AppError.unauthorized('the access token in the URL is not valid, or its user is disabled');
    }
    request.user = user;
  };
}

/** After a hijacked reply failed: answer if nothing was sent yet, else cut the connection. */
function abandon(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  request.log.error({ err: error, reqId: request.id }, 'an MCP request failed');
  if (reply.raw.headersSent) reply.raw.destroy();
  else
    reply.raw
      .writeHead(500, { 'content-type': 'application/json' })
      .end('{"success":false,"message":"internal server error"}');
}

/**
 * `/mcp` (reference `SetMcpRouter`): the streamable HTTP transport, stateless (one server and
 * transport per request, so any node of a cluster can answer), and the older SSE transport, whose
 * connections live on the node that opened them.
 */
export function mcpRoutes(app: FastifyInstance, deps: McpRouteDeps): void {
  const notFound = async () => {
    throw AppError.notFound(deps.enabled ? 'no such MCP path' : 'the MCP server is not enabled on this site');
  };
  // Unknown paths under /mcp answer JSON (never the console's page), without echoing a token.
  app.route({ method: ['GET', 'POST', 'DELETE'], url: '/mcp/*', onRequest: notFound, handler: notFound });
  if (!deps.enabled) return;

  const tools = mcpTools(deps);
  const sessions = new SseSessions();
  const guarded = { onRequest: authenticate(deps.auth), bodyLimit: deps.bodyLimit };
  app.addHook('preClose', async () => sessions.closeAll());

  app.post('/mcp/:accessToken', guarded, async (request, reply) => {
    const server = createMcpServer(tools, currentUser(request), deps);
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    reply.hijack();
    reply.raw.once('close', () => void server.close());
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      abandon(request, reply, error);
    }
  });
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

  app.get('/mcp/sse/:accessToken', guarded, async (request, reply) => {
    const user = currentUser(request);
    sessions.assertRoomFor(user.id);
    const endpoint = `/mcp/message/${encodeURIComponent(accessTokenOf(request))}`;
    const transport = new SSEServerTransport(endpoint, reply.raw);
    const server = createMcpServer(tools, user, deps);
    sessions.add({ userId: user.id, transport });
    reply.hijack();
    const keepAlive = setInterval(() => reply.raw.write(': keep-alive\n\n'), SSE_KEEP_ALIVE_MS);
    reply.raw.once('close', () => {
      clearInterval(keepAlive);
      sessions.remove(transport.sessionId);
      void server.close();
    });
    try {
      await server.connect(transport);
    } catch (error) {
      abandon(request, reply, error);
    }
  });

  app.post('/mcp/message/:accessToken', guarded, async (request, reply) => {
    const { sessionId } = request.query as { sessionId?: unknown };
    if (typeof sessionId !== 'string' || !sessionId) {
      throw AppError.badRequest(
        'the sessionId query parameter is required (the SSE endpoint event gives it)',
        'sessionId',
      );
    }
    const session = sessions.find(sessionId, currentUser(request).id);
    if (!session) throw AppError.notFound('no open MCP SSE connection has this sessionId; connect again', 'sessionId');
    reply.hijack();
    try {
      await session.transport.handlePostMessage(request.raw, reply.raw, request.body);
    } catch (error) {
      abandon(request, reply, error);
    }
  });
}
