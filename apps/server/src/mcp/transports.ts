import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../http/auth.js';
import { AppError } from '../platform/errors.js';
import { accessTokenOf } from './access.js';
import { createMcpServer, type McpToolDeps, mcpTools } from './server.js';
import { SseSessions } from './sse-sessions.js';

/** Comment lines on an open SSE stream, so proxies do not cut a quiet connection. */
const SSE_KEEP_ALIVE_MS = 25_000;

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface McpHandlers {
  /** `POST /mcp/:accessToken`: one message of the streamable HTTP transport. */
  streamable: Handler;
  /** `GET /mcp/sse/:accessToken`: opens an SSE connection. */
  openSse: Handler;
  /** `POST /mcp/message/:accessToken?sessionId=`: a message for an open SSE connection. */
  sseMessage: Handler;
  /** Ends every open SSE connection (at shutdown). */
  close(): Promise<void>;
}

/** After a hijacked reply failed: answer if nothing was sent yet, else cut the connection. */
function abandon(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  request.log.error({ err: error, reqId: request.id }, 'an MCP request failed');
  if (reply.raw.headersSent) reply.raw.destroy();
  else {
    reply.raw
      .writeHead(500, { 'content-type': 'application/json' })
      .end('{"success":false,"message":"internal server error"}');
  }
}

/**
 * The transports of the official SDK on the raw Node request and response (the reply is
 * hijacked). Streamable HTTP is stateless: one server and transport per request, so any node of a
 * cluster can answer. SSE connections live on the node that opened them.
 */
export function createMcpHandlers(deps: McpToolDeps): McpHandlers {
  const tools = mcpTools(deps);
  const sessions = new SseSessions();

  return {
    async streamable(request, reply) {
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
    },

    async openSse(request, reply) {
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
    },

    async sseMessage(request, reply) {
      const { sessionId } = request.query as { sessionId?: unknown };
      if (typeof sessionId !== 'string' || !sessionId) {
        throw AppError.badRequest(
          'the sessionId query parameter is required (the SSE endpoint event gives it)',
          'sessionId',
        );
      }
      const session = sessions.find(sessionId, currentUser(request).id);
      if (!session) {
        throw AppError.notFound('no open MCP SSE connection has this sessionId; connect again', 'sessionId');
      }
      reply.hijack();
      try {
        await session.transport.handlePostMessage(request.raw, reply.raw, request.body);
      } catch (error) {
        abandon(request, reply, error);
      }
    },

    close: () => sessions.closeAll(),
  };
}
