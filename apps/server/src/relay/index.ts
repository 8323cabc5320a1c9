import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { CHANNELS_CHANGED } from '../api/channel/service.js';
import { LogWriter } from '../api/log/writer.js';
import { TokenRepository } from '../api/token/repo.js';
import { UserGroupRepository } from '../api/user-group/repo.js';
import type { Logger } from '../platform/logger.js';
import type { Services } from '../services.js';
import { installRelayErrorRendering } from './errors.js';
import { createUpstreamClient } from './executor.js';
import { GroupDirectory } from './groups.js';
import { KeyAuthenticator } from './keys.js';
import { MemoryQuotaLedger, type QuotaLedger } from './ledger.js';
import { ConcurrencyGate, createMemoryRateLimiter, createRedisRateLimiter } from './limits.js';
import { providerByType } from './providers/registry.js';
import { RedisQuotaLedger } from './redis-ledger.js';
import { ChannelRouter } from './router.js';
import { relayRoutes } from './routes.js';

/**
 * The relay: key auth → channel selection → upstream → metering → settlement → log. Everything it
 * reads per request is in memory; settlements and logs are written in batches and flushed on close.
 */
export interface RelayHandle {
  /** Writes pending settlements and consume logs now (they are otherwise batched). */
  flush(): Promise<void>;
}

export async function installRelay(
  app: FastifyInstance,
  services: Services,
  logger: Logger,
  redis: Redis | undefined,
): Promise<RelayHandle> {
  installRelayErrorRendering();
  const router = new ChannelRouter();
  const reloadChannels = async () => router.replaceChannels(await services.channels.listForRouting());
  await reloadChannels();
  await services.cache.subscribe(CHANNELS_CHANGED, () => {
    reloadChannels().catch((error: unknown) => logger.error({ err: error }, 'reloading channels failed'));
  });

  const onLedgerError = (error: unknown) => logger.error({ err: error }, 'writing settled quota failed; will retry');
  // Installations (or test runs) sharing one Redis must not share balances or limits.
  const namespace = `onehub:${await services.options.instanceId()}:`;
  // With Redis every node shares one ledger; alone, the process holds balances itself.
  const ledger: QuotaLedger = redis
    ? new RedisQuotaLedger(services.database, redis, {
        prefix: `${namespace}ledger:`,
        onError: onLedgerError,
      })
    : new MemoryQuotaLedger(services.database, { onFlushError: onLedgerError });
  const logWriter = new LogWriter(services.database, {
    onError: (error, lostRows) => logger.error({ err: error, lostRows }, 'writing consume logs failed'),
  });
  const keys = new KeyAuthenticator(new TokenRepository(services.database), services.tokens, services.userRepository);
  services.tokens.onChange = (tokenId) => {
    keys.forgetToken(tokenId);
    ledger.invalidateToken(tokenId);
  };
  services.users.onQuotaChanged = (userId, delta) => {
    keys.forgetUser(userId);
    ledger.invalidateUser(userId, delta);
  };
  const groups = new GroupDirectory(new UserGroupRepository(services.database));
  await groups.load();
  services.groups.onChange = () =>
    groups.load().catch((error: unknown) => logger.error({ err: error }, 'reloading user groups failed'));

  const upstream = createUpstreamClient();
  relayRoutes(
    app,
    {
      keys,
      upstream,
      router,
      ledger,
      limiter: redis ? createRedisRateLimiter(redis, `${namespace}rpm:`) : createMemoryRateLimiter(),
      concurrency: new ConcurrencyGate(),
      groups,
      options: services.options,
      prices: services.prices,
      baseUrlOf: (channel) => channel.base_url || providerByType(channel.type)?.defaultBaseUrl || '',
      writeLog: (row) => logWriter.push(row),
      disableChannel: (channel, reason) => {
        logger.warn({ channel: channel.id, reason }, 'disabling channel after an upstream failure');
        services.channels.setStatus(channel.id, 3, reason).catch((error: unknown) => {
          logger.error({ err: error, channel: channel.id }, 'disabling the channel failed');
        });
      },
      logger,
    },
    (model) => providerByType(services.prices.lookup(model).channel_type)?.name ?? 'One Hub',
  );

  app.addHook('onClose', async () => {
    await ledger.close();
    await logWriter.close();
    await upstream.close();
  });
  return {
    async flush() {
      await ledger.flush();
      await logWriter.flush();
    },
  };
}
