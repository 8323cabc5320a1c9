import { systemLogBody } from '@one-hub/contracts';
import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import { ok } from '../../http/reply.js';
import { parseInput } from '../../http/validate.js';
import type { SystemLogService } from './service.js';

/** The reference serves the viewer on two paths; its console polls the first. */
const PATHS = ['/api/system_info/log', '/api/option/system_info/log'];

export function systemLogRoutes(app: FastifyInstance, deps: { auth: Auth; systemLog: SystemLogService }): void {
  const { auth, systemLog } = deps;
  for (const path of PATHS) {
    app.post(path, { onRequest: auth.requireRoot }, async (request) => {
      const body = parseInput(systemLogBody, request.body);
      return ok(systemLog.recent(body.count));
    });
  }
}
