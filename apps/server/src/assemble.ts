import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { ensureRootUser } from './api/account/bootstrap.js';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { startChannelTestJob } from './jobs/channel-test-job.js';
import { type Cache, createCache, createRedisClient } from './platform/cache/index.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './platform/db/index.js';
import type { Logger } from './platform/logger.js';
import { createServices, type Services } from './services.js';

export interface AssembledServer {
  app: FastifyInstance;
  services: Services;
  database: DatabaseHandle;
  /** Closes the HTTP server first (letting requests in flight finish), then the connections. */
  close(): Promise<void>;
}

export interface AssembleOptions {
  consoleDirectory: string;
  /** Tests pass a memory cache; otherwise it follows REDIS_CONN_STRING. */
  cache?: Cache;
}

/** Database, migrations, caches, services, first-start data and the HTTP app, in that order. */
export async function assembleServer(
  config: Config,
  logger: Logger,
  options: AssembleOptions,
): Promise<AssembledServer> {
  const database = openDatabase({
    ...config,
    onIdleError: (error) => logger.warn({ err: error }, 'an idle database connection failed; it will be replaced'),
  });
  const applied = await migrateToLatest(database);
  logger.info({ database: database.describe, migrations: applied }, 'database ready');

  const cache = options.cache ?? createCache(config.redisUrl);
  const redis: Redis | undefined = config.redisUrl && !options.cache ? createRedisClient(config.redisUrl) : undefined;
  const services = createServices(database, cache, logger, { serverSecret: config.sessionSecret });
  await services.options.load();
  await services.prices.load();
  await ensureRootUser(config, services.userRepository, services.users, logger);

  const app = await buildApp({ config, services, logger, redis, consoleDirectory: options.consoleDirectory });
  const channelTests =
    config.nodeType === 'master'
      ? startChannelTestJob({ services, logger, intervalMinutes: config.channelTestFrequencyMinutes })
      : undefined;
  return {
    app,
    services,
    database,
    async close() {
      await channelTests?.stop();
      await app.close();
      await Promise.allSettled([cache.close(), redis?.quit(), database.close()]);
    },
  };
}
