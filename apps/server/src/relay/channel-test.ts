import type { FastifyInstance } from 'fastify';
import type { Auth } from '../http/auth.js';
import type { Logger } from '../platform/logger.js';
import type { Services } from '../services.js';

/** Channel tests, balances and upstream model lists (admin API) and the periodic test job. */
export function installChannelTests(
  _app: FastifyInstance,
  _deps: { auth: Auth; services: Services; logger: Logger },
): void {}
