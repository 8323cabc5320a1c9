import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import type { PriceService } from './service.js';

export function priceRoutes(_app: FastifyInstance, _deps: { auth: Auth; prices: PriceService }): void {}
