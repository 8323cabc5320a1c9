import { SAFE_TOOL_NAMES, updateOptionBody } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { OptionService } from './service.js';

export function optionRoutes(app: FastifyInstance, deps: { auth: Auth; options: OptionService }): void {
  const { auth, options } = deps;

  app.get('/api/option/', { onRequest: auth.requireRoot }, async () => ok(options.list()));

  // Secrets are write-only: the console learns whether each is set, never what it is.
  app.get('/api/option/secrets', { onRequest: auth.requireRoot }, async () => ok(options.secretStatus()));

  app.get('/api/option/safe_tools', { onRequest: auth.requireRoot }, async () => ok([...SAFE_TOOL_NAMES]));

  app.put('/api/option/', { onRequest: auth.requireRoot }, async (request) => {
    const body = parseInput(updateOptionBody, request.body);
    await options.update(body.key, body.value);
    return ok();
  });
}
