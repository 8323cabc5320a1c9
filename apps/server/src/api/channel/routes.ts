import type { FastifyInstance } from 'fastify';
import type { Auth } from '../../http/auth.js';
import type { ChannelService } from './service.js';

export function channelRoutes(_app: FastifyInstance, _deps: { auth: Auth; channels: ChannelService }): void {}
