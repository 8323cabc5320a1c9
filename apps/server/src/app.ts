import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Redis } from 'ioredis';
import { accountRoutes } from './api/account/routes.js';
import { channelRoutes } from './api/channel/routes.js';
import { logRoutes } from './api/log/routes.js';
import { optionRoutes } from './api/option/routes.js';
import { priceRoutes } from './api/price/routes.js';
import { siteRoutes } from './api/site/routes.js';
import { tokenRoutes } from './api/token/routes.js';
import { userRoutes } from './api/user/routes.js';
import { userGroupRoutes } from './api/user-group/routes.js';
import type { Config } from './config.js';
import { createAuth } from './http/auth.js';
import { installConsole } from './http/console.js';
import { installErrorHandling } from './http/errors.js';
import { installRateLimit } from './http/rate-limit.js';
import { legacyRequestIdHeader, nextRequestId, requestIdHeader } from './http/request-id.js';
import { createSessionCodec } from './http/session.js';
import type { Logger } from './platform/logger.js';
import { installChannelTests } from './relay/channel-test.js';
import { installRelay, type RelayHandle } from './relay/index.js';
import type { Services } from './services.js';

declare module 'fastify' {
  interface FastifyInstance {
    relay: RelayHandle;
  }
}

export interface AppOptions {
  config: Config;
  services: Services;
  logger: Logger;
  consoleDirectory: string;
  /** Shares rate-limit counters between nodes when set. */
  redis?: Redis | undefined;
}

/** Registers plugins and route modules; nothing else. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, services } = options;
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    // One line per request is noise at info level; debug and trace get it.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    genReqId: nextRequestId,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });

  installErrorHandling(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header(requestIdHeader, request.id);
    reply.header(legacyRequestIdHeader, request.id);
  });
  app.decorateRequest('user', null);
  await app.register(cookie);

  const sessions = createSessionCodec(config.sessionSecret);
  const auth = createAuth(sessions, services.userRepository);
  const critical = await installRateLimit(app, { ...config.criticalRateLimit, redis: options.redis });

  siteRoutes(app, { options: services.options, version: config.version, startTime: Math.floor(Date.now() / 1000) });
  optionRoutes(app, { auth, options: services.options });
  accountRoutes(app, { auth, accounts: services.accounts, sessions, critical });
  userRoutes(app, { auth, users: services.users });
  userGroupRoutes(app, { auth, groups: services.groups });
  tokenRoutes(app, { auth, tokens: services.tokens });
  channelRoutes(app, { auth, channels: services.channels });
  priceRoutes(app, { auth, prices: services.prices });
  logRoutes(app, { auth, logs: services.logs });
  app.decorate('relay', await installRelay(app, services, options.logger, options.redis));
  installChannelTests(app, { auth, services, logger: options.logger });

  await installConsole(app, { directory: options.consoleDirectory, basePath: config.basePath });
  return app;
}
