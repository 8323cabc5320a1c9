import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import type { TokenService } from './service.js';

export function tokenRoutes(_app: FastifyInstance, _deps: { auth: Auth; tokens: TokenService }): void {}
