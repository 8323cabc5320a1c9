import type { z } from 'zod';
import { AppError } from '../platform/errors.js';

/**
 * Parses input with a shared contract schema; failures become a 400 naming each bad field in its
 * message, and the first one in the envelope's `field`, where a form shows the message.
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  source = 'body',
): z.output<Schema> {
  const result = schema.safeParse(input ?? (source === 'body' ? undefined : {}));
  if (result.success) return result.data;
  const messages = result.error.issues.map((issue) => {
    if (issue.path.length === 0) {
      return source === 'body' ? 'request body must be a JSON object' : `${source}: ${issue.message}`;
    }
    const field = issue.path.join('.');
    // Our schemas phrase messages starting with the field name; zod's own ones do not.
    return issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`;
  });
  const named = result.error.issues.find((issue) => issue.path.length > 0);
  throw new AppError('bad_request', [...new Set(messages)].join('; '), { field: named?.path.join('.') });
}
