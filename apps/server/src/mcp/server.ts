import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { UserRow } from '../platform/db/index.js';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { type AvailableModelDeps, availableModelTool } from './tools/available-model.js';
import { calculatorTool } from './tools/calculator.js';
import { currentTimeTool } from './tools/current-time.js';
import { type DashboardDeps, dashboardTool } from './tools/dashboard.js';
import type { McpTool } from './tools/tool.js';

export interface McpToolDeps extends AvailableModelDeps, DashboardDeps {
  logger: Logger;
  /** Name and version announced to clients at initialisation (the site's name may change). */
  serverInfo: () => { name: string; version: string };
}

/** The tools every connection offers, in the order clients list them. */
export function mcpTools(deps: McpToolDeps): McpTool[] {
  return [availableModelTool(deps), calculatorTool, currentTimeTool, dashboardTool(deps)] as McpTool[];
}

/**
 * A refusal the caller can act on keeps its message; anything else is logged here and reaches the
 * client as a bare "internal error", so no detail of the server leaks through a tool.
 */
function failure(error: unknown, tool: string, logger: Logger): CallToolResult {
  if (error instanceof AppError && error.status < 500) {
    return { isError: true, content: [{ type: 'text', text: error.message }] };
  }
  logger.error({ err: error, tool }, 'an MCP tool failed');
  return { isError: true, content: [{ type: 'text', text: `internal error in ${tool}` }] };
}

/** An MCP server acting for one user: built per connection, so every tool knows whose data it reads. */
export function createMcpServer(tools: readonly McpTool[], user: UserRow, deps: McpToolDeps): McpServer {
  const server = new McpServer(deps.serverInfo());
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema },
      async (input: unknown): Promise<CallToolResult> => {
        try {
          const output = await tool.run(input as never, user);
          // Clients that read only text get the same object as JSON (the specification's advice).
          return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
        } catch (error) {
          return failure(error, tool.name, deps.logger);
        }
      },
    );
  }
  return server;
}
