import type { z } from 'zod';
import type { UserRow } from '../../platform/db/index.js';

/**
 * One MCP tool: its schemas (zod objects, published to clients as JSON Schema) and what it does
 * for the user whose access token opened the connection. A refusal the caller can fix is an
 * AppError with a 4xx status; its message reaches the client as the tool's error.
 */
export interface McpTool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  inputSchema: Input;
  outputSchema: Output;
  run(input: z.output<Input>, user: UserRow): Promise<z.output<Output>>;
}

/** Declares a tool with its input and output types tied to its schemas. */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  tool: McpTool<Input, Output>,
): McpTool<Input, Output> {
  return tool;
}

/** Binary noise off an amount of money (0.30000000000000004 → 0.3). */
export function tidyAmount(value: number): number {
  return Number(value.toPrecision(12));
}
