import { z } from 'zod';
import { EXPRESSION_MAX_LENGTH, evaluateArithmetic } from './arithmetic.js';
import { defineTool } from './tool.js';

export const calculatorTool = defineTool({
  name: 'calculator',
  description:
    'Evaluates an arithmetic expression exactly as written: decimal numbers, + - * / % (remainder), ' +
    '^ (power) and parentheses. Returns the result, or an error naming the problem and its position.',
  inputSchema: z.object({
    expression: z.string().max(EXPRESSION_MAX_LENGTH).describe('The expression, for example "(1.5 + 2) * 3 ^ 2 % 7"'),
  }),
  outputSchema: z.object({ expression: z.string(), result: z.number() }),
  run: async ({ expression }) => ({ expression, result: evaluateArithmetic(expression) }),
});
