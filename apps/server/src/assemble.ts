import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { type Announce, ensureRootUser } from './api/account/bootstrap.js';
import { OptionRepository } from './api/option/repo.js';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { startAuditRetentionJob } from './jobs/audit-retention-job.js';
import { startChannelTestJob } from './jobs/channel-test-job.js';
import { startInvoiceJob } from './jobs/invoice-job.js';
import { startLogRetentionJob } from './jobs/log-retention-job.js';
import { startPlanExpiryJob } from './jobs/plan-expiry-job.js';
import { type PriceUpdateJob, startPriceUpdateJob } from './jobs/price-update-job.js';
import { startTaskPollJob, type TaskPollJob } from './jobs/task-poll-job.js';
import { type Cache, createCache, createRedisClient } from './platform/cache/index.js';
import { randomHex } from './platform/crypto.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './platform/db/index.js';
import type { Logger } from './platform/logger.js';
import { checkDatabase, checkRedis } from './platform/startup-checks.js';
import type { HeartbeatTiming } from './relay/exchange/heartbeat.js';
import { createServices, type Services } from './services.js';

export interface AssembledServer {
  app: FastifyInstance;
  services: Services;
  database: DatabaseHandle;
  /** The scheduled price update (master node with AUTO_PRICE_UPDATES in add/update/overwrite mode). */
  priceUpdate?: PriceUpdateJob | undefined;
  /** The asynchronous tasks' poller (master node). */
  taskPoll?: TaskPollJob | undefined;
  /** Closes the HTTP server first (letting requests in flight finish), then the connections. */
  close(): Promise<void>;
}

export interface AssembleOptions {
  consoleDirectory: string;
  /** Tests pass a memory cache; otherwise it follows REDIS_CONN_STRING. */
  cache?: Cache;
  /** Tests shorten the keys' heartbeat; otherwise seconds are seconds. */
  heartbeat?: HeartbeatTiming;
  /** Milliseconds since the epoch for subscriptions' starts and ends; tests drive it. */
  clock?: () => number;
  /** Shows the generated root password on the first start (main: standard output; tests: nowhere). */
  announce?: Announce;
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
  try {
    await checkDatabase(database);
    if (config.redisUrl && !options.cache) await checkRedis(config.redisUrl);
  } catch (error) {
    await database.close();
    throw error;
  }
  const applied = await migrateToLatest(database);
  logger.info({ database: database.describe, migrations: applied }, 'database ready');

  // Everything this installation keeps in a shared Redis (settings bus, caches, limits, ledger)
  // lives under its own id, read before the option service exists because that service needs the cache.
  const instanceId = await new OptionRepository(database).insertIfAbsent('InstanceId', randomHex(8));
  const namespace = `onehub:${instanceId}:`;
  const cache = options.cache ?? createCache(config.redisUrl, namespace);
  const redis: Redis | undefined = config.redisUrl && !options.cache ? createRedisClient(config.redisUrl) : undefined;
  const services = createServices(database, cache, logger, {
    serverSecret: config.sessionSecret,
    notify: config.notify,
    storage: config.storage,
    paymentEndpoints: config.paymentEndpoints,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await services.options.load();
  // E-mail needs SMTP settings (options, so read after loading them); without them it sends nothing.
  const notifiers = services.notifier.names.filter((name) => name !== 'email' || services.signIn.mailer.isConfigured());
  if (notifiers.length > 0) logger.info({ notifiers }, 'notifications on');
  if (services.imageStorage) logger.info({ hosts: services.imageStorage.names }, 'image storage on');
  services.prices.setUpdateService(config.priceUpdates.serviceUrl);
  await services.prices.load();
  await ensureRootUser(config, services.userRepository, services.users, logger, options.announce ?? (() => {}));

  const app = await buildApp({
    config,
    services,
    logger,
    redis,
    redisNamespace: namespace,
    consoleDirectory: options.consoleDirectory,
    heartbeat: options.heartbeat,
  });
  const channelTests =
    config.nodeType === 'master'
      ? startChannelTestJob({
          services,
          logger,
          intervalMinutes: config.channelTestFrequencyMinutes,
          pauseMs: config.pollingIntervalMs,
        })
      : undefined;
  const logRetention =
    config.nodeType === 'master'
      ? startLogRetentionJob({ options: services.options, logs: services.logs, logger })
      : undefined;
  const auditRetention =
    config.nodeType === 'master'
      ? startAuditRetentionJob({ options: services.options, audit: services.audit, logger })
      : undefined;
  const planExpiry =
    config.nodeType === 'master' ? startPlanExpiryJob({ subscriptions: services.plans, logger }) : undefined;
  const { priceUpdates } = config;
  const priceUpdate =
    config.nodeType === 'master' && priceUpdates.auto && priceUpdates.mode !== 'system'
      ? startPriceUpdateJob({
          prices: services.prices,
          mode: priceUpdates.mode,
          intervalMs: priceUpdates.intervalMinutes * 60_000,
          logger,
        })
      : undefined;
  const invoiceJob =
    config.nodeType === 'master' ? startInvoiceJob({ invoices: services.invoices, logger }) : undefined;
  const taskPoll =
    config.nodeType === 'master'
      ? startTaskPollJob({
          pollers: app.relay.taskPollers,
          cache,
          intervalMs: config.tasks.pollIntervalMs,
          logger,
        })
      : undefined;
  // Not awaited: a slow or unreachable Bot API must not hold up the server (failures are logged).
  void app.telegramBot.start();
  return {
    app,
    services,
    database,
    priceUpdate,
    taskPoll,
    async close() {
      await taskPoll?.stop();
      await app.telegramBot.stop();
      await invoiceJob?.stop();
      await channelTests?.stop();
      await logRetention?.stop();
      await auditRetention?.stop();
      await planExpiry?.stop();
      await priceUpdate?.stop();
      await app.close();
      await Promise.allSettled([cache.close(), redis?.quit(), database.close()]);
    },
  };
}
