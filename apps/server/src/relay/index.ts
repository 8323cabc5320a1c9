import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { type BudgetUsageReader, type WindowClock, windowView } from '../domain/budget-windows.js';
import type { ChannelHealthReader } from '../domain/channel-health.js';
import { providerByType } from '../domain/channel-types/registry.js';
import { pruneBatchRecords } from '../platform/journal/batches.js';
import type { Logger } from '../platform/logger.js';
import type { Services } from '../services.js';
import { createMemoryConcurrencyGate, createRedisConcurrencyGate } from './access/concurrency.js';
import { GroupDirectory } from './access/groups.js';
import { KeyAuthenticator } from './access/keys.js';
import { createMemoryRateLimiter, createRedisRateLimiter } from './access/limits.js';
import type { BudgetLedger } from './billing/budgets/budget-ledger.js';
import { BudgetedLedger } from './billing/budgets/budgeted-ledger.js';
import { MemoryBudgetLedger } from './billing/budgets/memory-budget-ledger.js';
import { RedisBudgetLedger } from './billing/budgets/redis-budget-ledger.js';
import { BudgetUsageStore } from './billing/budgets/usage-store.js';
import { CompletionEstimates } from './billing/completion-estimates.js';
import { openJournal } from './billing/journal-replay.js';
import { MemoryQuotaLedger, type QuotaLedger } from './billing/ledger.js';
import { createLowBalanceReminder } from './billing/low-balance.js';
import { countApproximatelyWhen } from './billing/metering.js';
import { RedisQuotaLedger } from './billing/redis-ledger.js';
import { createChatCache } from './exchange/chat-cache.js';
import type { HeartbeatTiming } from './exchange/heartbeat.js';
import { completerFor } from './exchange/internal-call.js';
import type { RelayDeps, RelayObserver } from './exchange/types.js';
import { InFlightRequests } from './in-flight.js';
import { rawRoutes } from './raw/routes.js';
import { installRealtime } from './realtime/index.js';
import { relayRoutes } from './routes.js';
import { AffinityPins } from './routing/affinity.js';
import { ChannelRouter } from './routing/router.js';
import { shareCooldowns } from './routing/shared-cooldowns.js';
import { healthSettingsFrom, shareHealth } from './routing/shared-health.js';
import { dashboardRoutes } from './surfaces/dashboard.js';
import { installTaskRelays, type TaskPlatformPoller } from './tasks/index.js';
import { createAddressGuard } from './transport/address-guard.js';
import { createUpstreamClient, type UpstreamTimeouts } from './transport/executor.js';
import { createImageFetcher } from './transport/image-fetch.js';
import { createWebSearch, type WebSearchSettings } from './web-search/index.js';

/**
 * The relay: key auth → channel selection → upstream → metering → settlement → log. Everything it
 * reads per request is in memory; settlements and logs are written in batches and flushed on close.
 */
export interface RelayHandle {
  /** Writes pending settlements and consume logs now (they are otherwise batched). */
  flush(): Promise<void>;
  /** Requests counted against the user's group limit right now (read-only; see RateLimiter.peek). */
  userRpm(userId: number, perMinute: number): Promise<number>;
  /** Tokens counted against the user's group TPM limit in the current minute. */
  userTpm(userId: number): Promise<number>;
  /** The asynchronous tasks' pollers, run by the master node's task poll job. */
  taskPollers: TaskPlatformPoller[];
  /** The current use of budget windows, for the management API's views. */
  budgetUsage: BudgetUsageReader;
  /** Each channel's health on this process (GET /api/channel/health). */
  channelHealth: ChannelHealthReader;
  /** The router, for tests that drive its health's clock. */
  router: ChannelRouter;
}

export async function installRelay(
  app: FastifyInstance,
  services: Services,
  logger: Logger,
  redis: Redis | undefined,
  /** Prefix of this installation's Redis keys: installations (or test runs) sharing one Redis must not share balances or limits. */
  namespace: string,
  timing: {
    /** How long requests in flight may run on at shutdown before they are cut and billed. */
    shutdownGraceMs: number;
    /** The crash journal's folder and how often it is forced to disk; none with JOURNAL=off. */
    journal: { directory: string; fsyncIntervalMs: number } | undefined;
    /** How long upstreams may keep relay requests waiting (UPSTREAM_*_TIMEOUT_MS). */
    upstreamTimeouts?: UpstreamTimeouts;
    heartbeat: HeartbeatTiming;
    /** Metrics, when they are on. */
    observer?: RelayObserver | undefined;
    /** TASK_TIMEOUT_MINUTES, in milliseconds. */
    taskTimeoutMs: number;
    /** The searchers of `#search` chat models (SEARCH_*); none configured: `#search` is refused. */
    webSearch?: WebSearchSettings;
  },
): Promise<RelayHandle> {
  const { shutdownGraceMs } = timing;
  const router = new ChannelRouter();
  // Reloads can overlap when changes come quickly; a read older than the one applied is dropped.
  let reloadsStarted = 0;
  let reloadApplied = 0;
  const reloadChannels = async () => {
    const sequence = ++reloadsStarted;
    const channels = await services.channels.listForRouting();
    if (sequence < reloadApplied) return;
    reloadApplied = sequence;
    router.replaceChannels(channels);
  };
  await reloadChannels();
  const { changes } = services;
  // A channel one worker or node saw fail with a 429 rests in all of them.
  shareCooldowns(router.cooldowns, changes);
  // A channel one process opened (or closed after its trials) is opened (or closed) in all of them.
  router.health.useSettings(healthSettingsFrom(services.options));
  shareHealth(router.health, changes);
  changes.on('channels', () => {
    reloadChannels().catch((error: unknown) => logger.error({ err: error }, 'reloading channels failed'));
  });

  // ApproximateTokenEnabled: counts by the byte rule instead of the tokenizer while it is on.
  countApproximatelyWhen(() => services.options.getBoolean('ApproximateTokenEnabled'));
  const onLedgerError = (error: unknown) => logger.error({ err: error }, 'writing settled quota failed; will retry');
  // With Redis every node shares one ledger; alone, the process holds balances itself.
  const shared = redis
    ? new RedisQuotaLedger(services.database, redis, {
        prefix: `${namespace}ledger:`,
        onError: onLedgerError,
        // Steady requests are served from node-local slices of the balance, settled 4 times a second.
        leaseFlushMs: 250,
      })
    : undefined;
  // What a killed process had settled and logged is written before this one serves anything.
  const opened = timing.journal
    ? await openJournal(services.database, timing.journal.directory, services.logRepository.insertRows, {
        fsyncIntervalMs: timing.journal.fsyncIntervalMs,
        onError: (error) => logger.error({ err: error }, 'writing the crash journal failed'),
        ...(shared
          ? { flushShared: () => shared.flushAll(), releaseLeases: (ids, spent) => shared.releaseLeases(ids, spent) }
          : {}),
      })
    : undefined;
  const journal = opened?.journal;
  const replayed = opened?.replayed;
  if (replayed && replayed.settlements + replayed.logRows + replayed.windowUses + replayed.unreadable > 0) {
    logger.warn(
      replayed,
      'wrote what the journal of a stopped process held: settled requests, budget window use and log rows',
    );
  }
  if (journal) shared?.useJournal(journal);
  // Batch ids only matter to a journal not yet replayed; a month covers any node's downtime.
  const pruneBatches = () =>
    pruneBatchRecords(services.database).catch((error: unknown) =>
      logger.error({ err: error }, 'pruning old ledger batch ids failed'),
    );
  void pruneBatches();
  const pruning = setInterval(pruneBatches, 6 * 3_600_000);
  pruning.unref();
  const balances: QuotaLedger =
    shared ?? new MemoryQuotaLedger(services.database, { onFlushError: onLedgerError, journal });
  const budgetClock = (): WindowClock => ({
    mode: services.options.get('BudgetWindowMode') === 'calendar' ? 'calendar' : 'rolling',
    timeZone: services.options.get('SiteTimeZone') || 'UTC',
  });
  const budgetStore = new BudgetUsageStore(services.database);
  const onBudgetError = (error: unknown) =>
    logger.error({ err: error }, 'writing budget window use failed; will retry');
  // Budget windows are shared like balances: through Redis when there is one, else in this process.
  const budgets: BudgetLedger = redis
    ? new RedisBudgetLedger(redis, budgetStore, budgetClock, {
        prefix: `${namespace}budget:`,
        onError: onBudgetError,
        journal,
        // Steady requests hold and settle on node-local slices of their windows, flushed 4 times a second.
        leaseFlushMs: 250,
      })
    : new MemoryBudgetLedger(budgetStore, budgetClock, { onFlushError: onBudgetError, journal });
  const ledger: QuotaLedger = new BudgetedLedger(balances, budgets);
  const logWriter = services.openLogWriter({
    journal,
    onError: (error, lostRows) => logger.error({ err: error, lostRows }, 'writing consume logs failed'),
  });
  timing.observer?.watchLogBacklog(() => logWriter.pending);
  const keys = new KeyAuthenticator(services.tokenRepository, services.tokens, services.userRepository);
  // A disabled, deleted or edited key must stop (or change) at once on every node, not when its
  // cached copy expires. The shared ledger is cleared once, by the node that made the change.
  changes.on('tokens', ({ id }, origin) => {
    keys.forgetToken(id);
    if (origin === 'local') ledger.invalidateToken(id);
  });
  // A disabled, deleted or re-grouped user's keys must stop (or change) at once on every node,
  // not when the cached user expires.
  changes.on('users', ({ id }) => keys.forgetUser(id));
  // A notice lost while the connection to Redis was down must not leave a disabled key usable here
  // for the rest of its cache time: every cached key is read again.
  changes.onMissedNotices(() => keys.forgetAll());
  changes.on('quota', ({ userId, delta }) => {
    keys.forgetUser(userId);
    ledger.invalidateUser(userId, delta);
  });
  const groups = new GroupDirectory(services.userGroupRepository);
  await groups.load();
  groups.refreshInBackground();
  changes.on('groups', () =>
    groups.load().catch((error: unknown) => logger.error({ err: error }, 'reloading user groups failed')),
  );
  await changes.ready();

  const upstream = createUpstreamClient(timing.upstreamTimeouts);
  const images = createImageFetcher(services.options);
  const taskGuards = {
    hooks: createAddressGuard(() => services.options.getBoolean('MjNotifyAllowPrivate')),
    images: createAddressGuard(() => services.options.getBoolean('ChatImageAllowPrivate')),
  };
  const inFlight = new InFlightRequests();
  const limiter = redis ? createRedisRateLimiter(redis, `${namespace}rpm:`) : createMemoryRateLimiter();
  const relayDeps: RelayDeps = {
    keys,
    upstream,
    router,
    ledger,
    limiter,
    concurrency: redis
      ? createRedisConcurrencyGate(redis, `${namespace}concurrency:`, (error) =>
          logger.error({ err: error }, 'updating a concurrency slot in Redis failed'),
        )
      : createMemoryConcurrencyGate(),
    groups,
    plans: services.plans,
    options: services.options,
    prices: services.prices,
    baseUrlOf: (channel) => channel.base_url || providerByType(channel.type)?.defaultBaseUrl || '',
    writeLog: (row) => logWriter.push(row),
    ...(journal ? { commitJournal: () => journal.commitTogether() } : {}),
    remindLowBalance: createLowBalanceReminder({
      options: services.options,
      findUser: (userId) => services.userRepository.findById(userId),
      mailer: services.signIn.mailer,
      logger,
    }),
    disableChannel: services.disableChannel,
    logger,
    heartbeat: timing.heartbeat,
    observer: timing.observer,
    chatCache: createChatCache(services.cache, services.options),
    images,
    imageStorage: services.imageStorage,
    completions: new CompletionEstimates(),
    affinity: new AffinityPins(),
  };
  if (timing.webSearch) {
    relayDeps.webSearch = createWebSearch(timing.webSearch, { upstream, logger, complete: completerFor(relayDeps) });
  }
  relayRoutes(
    app.relayFront,
    relayDeps,
    (model) => providerByType(services.prices.lookup(model).channel_type)?.name ?? 'One Hub',
    inFlight,
  );
  // `/v1/realtime`: WebSocket sessions, answered on the server's upgrades.
  installRealtime(app, relayDeps, inFlight, timing.upstreamTimeouts);
  // OpenAI's stateful APIs (files, batches, assistants…), passed through to the channel the key names.
  rawRoutes(app.relayFront, relayDeps, inFlight);

  // Midjourney, Suno and Kling: submitted, charged, polled to the end, refunded if they fail.
  const taskPollers = installTaskRelays(
    app.relayFront,
    {
      ...relayDeps,
      timeoutMs: timing.taskTimeoutMs,
      links: services.links,
      guards: taskGuards,
      refunds: {
        database: services.database,
        users: services.userRepository,
        logs: services.logRepository,
        onQuotaChanged: (userId, delta) => services.users.quotaChanged(userId, delta),
        // The refund is committed by then; windows that could not give back are logged, not retried.
        uncountWindows: (counted) =>
          Promise.resolve(budgets.uncount(counted)).catch((error: unknown) =>
            logger.error({ err: error }, 'giving back a failed task’s budget window use failed'),
          ),
      },
    },
    inFlight,
  );

  dashboardRoutes(app.relayFront, {
    keys,
    tokens: services.tokenRepository,
    users: services.userRepository,
    options: services.options,
  });

  // Before the server stops: every request in flight settles, so the flush below bills it.
  app.addHook('preClose', async () => {
    const open = inFlight.size;
    if (open > 0) logger.info({ open, graceMs: shutdownGraceMs }, 'waiting for relay requests in flight');
    const cut = await inFlight.drain(shutdownGraceMs);
    if (cut > 0)
      logger.warn({ cut }, 'relay requests still running at the end of the grace period were cut and billed');
  });

  app.addHook('onClose', async () => {
    await ledger.close();
    await logWriter.close();
    // What the database could not take stays in the journal for the next start.
    opened?.close();
    clearInterval(pruning);
    groups.stop();
    await upstream.close();
    await images.close();
    await Promise.allSettled([taskGuards.hooks.close(), taskGuards.images.close()]);
  });
  return {
    async flush() {
      await ledger.flush();
      await logWriter.flush();
    },
    userRpm: (userId, perMinute) => limiter.peek(`user:${userId}`, perMinute),
    userTpm: async (userId) => (await budgets.use(`user:${userId}`, 'minute'))?.tokens ?? 0,
    budgetUsage: {
      async windows(subjects) {
        const clock = budgetClock();
        const now = Date.now();
        const views = [];
        for (const { scope, subject, budgets: list } of subjects) {
          for (const budget of list) {
            views.push(windowView(scope, budget, await budgets.use(subject, budget.period), clock, now));
          }
        }
        return views;
      },
      clock: budgetClock,
    },
    taskPollers,
    channelHealth: {
      view: () => router.health.view(router.channelIds()),
      history: (channelId) => router.health.history(channelId),
    },
    router,
  };
}
