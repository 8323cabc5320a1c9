import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import type { LogService } from './service.js';

export function logRoutes(_app: FastifyInstance, _deps: { auth: Auth; logs: LogService }): void {}
