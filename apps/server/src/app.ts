import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Redis } from 'ioredis';
import { accountRoutes } from './api/account/routes.js';
import { installAuditScope } from './api/audit/context.js';
import { auditRoutes } from './api/audit/routes.js';
import { channelRoutes } from './api/channel/routes.js';
import { invoiceRoutes } from './api/invoice/routes.js';
import { logRoutes } from './api/log/routes.js';
import { midjourneyRoutes } from './api/midjourney/routes.js';
import { modelMetadataRoutes } from './api/model-info/routes.js';
import { openApiRoutes } from './api/openapi/routes.js';
import { optionRoutes } from './api/option/routes.js';
import { PasskeysOnPasswordChange } from './api/passkey/password-change.js';
import { passkeyRoutes } from './api/passkey/routes.js';
import { paymentRoutes } from './api/payment/routes.js';
import { planRoutes } from './api/plan/routes.js';
import { serviceSources } from './api/price/available-models.js';
import { priceRoutes } from './api/price/routes.js';
import { redemptionRoutes } from './api/redemption/routes.js';
import { siteRoutes } from './api/site/routes.js';
import { statisticsRoutes } from './api/statistics/routes.js';
import { uptimeKumaRoutes } from './api/statistics/uptime-kuma.js';
import { systemLogRoutes } from './api/system-log/routes.js';
import { createSystemLogService } from './api/system-log/service.js';
import { taskRoutes } from './api/task/routes.js';
import { telegramRoutes } from './api/telegram/routes.js';
import { tokenRoutes } from './api/token/routes.js';
import { userRoutes } from './api/user/routes.js';
import { userGroupRoutes } from './api/user-group/routes.js';
import { installChannelTests } from './channel-health/test-all.js';
import type { Config } from './config.js';
import type { BudgetUsageReader } from './domain/budget-windows.js';
import type { ChannelHealthReader } from './domain/channel-health.js';
import { createAuth } from './http/auth.js';
import { installBodyRules } from './http/bodies.js';
import { hashedAssetPaths, installConsole } from './http/console.js';
import { installErrorHandling, sendError, toAppError } from './http/errors.js';
import { createAccountSignInLimit, installGlobalRateLimits, installRateLimit } from './http/rate-limit.js';
import { createRelayFront, type RelayFront } from './http/relay-front.js';
import { requestIdOf } from './http/request-id.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { frontServerFactory } from './http/server.js';
import { createSessionCodec, SESSION_COOKIE } from './http/session.js';
import { installWriteOriginCheck } from './http/write-origin.js';
import { mcpRoutes } from './mcp/routes.js';
import { createMetricsAuthFailures } from './metrics/auth-failures.js';
import { createMetrics } from './metrics/relay-metrics.js';
import { metricsRoutes } from './metrics/routes.js';
import { startTracing, type Tracing } from './observability/tracing/index.js';
import { type Logger, systemLogOf } from './platform/logger.js';
import { HEARTBEAT_TIMING, type HeartbeatTiming } from './relay/exchange/heartbeat.js';
import { combineObservers } from './relay/exchange/observers.js';
import { installRelay, type RelayHandle } from './relay/index.js';
import type { Services } from './services.js';
import { createTelegramBot } from './telegram/bot.js';

declare module 'fastify' {
  interface FastifyInstance {
    relay: RelayHandle;
    /** Serves the relay's surfaces; Fastify serves /api and the console (http/server.ts). */
    relayFront: RelayFront;
    /** OpenTelemetry traces; undefined when no OTLP endpoint is configured. */
    tracing: Tracing | undefined;
  }
}

export interface AppOptions {
  config: Config;
  services: Services;
  logger: Logger;
  consoleDirectory: string;
  /** Shares rate-limit counters between nodes when set. */
  redis?: Redis | undefined;
  /** Prefix of every Redis key and topic of this installation (`onehub:<instance id>:`). */
  redisNamespace?: string;
  /** Tests shorten the keys' heartbeat. */
  heartbeat?: HeartbeatTiming | undefined;
}

/** Registers plugins and route modules; nothing else. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, services } = options;
  // One line per request is noise at info level; debug and trace get it.
  const requestLogging = config.logLevel === 'debug' || config.logLevel === 'trace';
  const relayFront = createRelayFront({
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    logger: options.logger,
    logRequests: requestLogging,
    openRequestTimeoutMs: config.httpTimeouts.apiRequestMs,
  });
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: !requestLogging }),
    serverFactory: frontServerFactory({
      trustProxy: config.trustProxy,
      relay: relayFront,
      limits: {
        headersTimeoutMs: config.httpTimeouts.headersMs,
        requestTimeoutMs: config.httpTimeouts.requestMs,
        maxConnectionsPerAddress: config.maxConnectionsPerAddress,
      },
    }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // The name the server's listener gave the request and sent in its headers (http/server.ts).
    genReqId: requestIdOf,
    // A URL that cannot be decoded fails before any hook runs: it is rendered here.
    frameworkErrors: (error, request, reply) => {
      sendError(toAppError(error), request, reply);
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });

  // Off (the SDK not even loaded) unless OTEL_EXPORTER_OTLP_ENDPOINT or its traces variant is set.
  const tracing = await startTracing(config.tracing, config.version);
  app.decorate('tracing', tracing);
  tracing?.installApi(app);
  installErrorHandling(app, { apiFailuresAs200: config.apiFailuresAs200 });
  installBodyRules(app, {
    apiBodyLimit: config.apiBodyLimitBytes,
    apiRequestTimeoutMs: config.httpTimeouts.apiRequestMs,
  });
  installSecurityHeaders(app);
  app.decorate('relayFront', relayFront);
  // While closing, Fastify answers new requests with 503; so does the relay front.
  app.addHook('preClose', (done) => {
    relayFront.close();
    done();
  });
  app.decorateRequest('user', null);
  await app.register(cookie);
  installWriteOriginCheck(app, SESSION_COOKIE);
  installAuditScope(app);

  const sessions = createSessionCodec(config.sessionSecret, { cookieSecure: config.cookieSecure });
  const auth = createAuth(sessions, services.userRepository);
  const namespace = options.redisNamespace ?? `onehub:${await services.options.instanceId()}:`;
  const critical = await installRateLimit(app, { ...config.criticalRateLimit, redis: options.redis, namespace });
  const addressLimit = installGlobalRateLimits(app, config.globalRateLimit, {
    redis: options.redis,
    namespace,
    uncountedPaths: hashedAssetPaths(options.consoleDirectory, config.basePath),
  });
  if (addressLimit) relayFront.limitOpenRoutes(addressLimit);

  const telegram = { config: config.telegramBot, nodeType: config.nodeType, services, logger: options.logger };
  app.decorate('telegramBot', createTelegramBot(telegram));
  siteRoutes(app, {
    options: services.options,
    server: {
      version: config.version,
      startTime: Math.floor(Date.now() / 1000),
      telegramBot: () => app.telegramBot.username(),
    },
  });
  openApiRoutes(app, { version: config.version });
  optionRoutes(app, { auth, options: services.options });
  systemLogRoutes(app, { auth, systemLog: createSystemLogService(systemLogOf(options.logger)) });
  const signInLimit = createAccountSignInLimit(services.cache, config.signInFailureLimit);
  const passkeys = new PasskeysOnPasswordChange(services.database);
  accountRoutes(app, {
    auth,
    accounts: services.accounts,
    signIn: services.signIn,
    sessions,
    critical,
    signInLimit,
    passkeys,
  });
  passkeyRoutes(app, { auth, services, sessions, critical, signInLimit, secret: config.sessionSecret });
  // The relay, installed below, answers for the budget windows' current use.
  const budgetUsage: BudgetUsageReader = {
    windows: (subjects) => app.relay.budgetUsage.windows(subjects),
    clock: () => app.relay.budgetUsage.clock(),
  };
  userRoutes(app, { auth, users: services.users, groups: services.groups, budgetUsage });
  userGroupRoutes(app, { auth, groups: services.groups, budgetUsage });
  tokenRoutes(app, { auth, tokens: services.tokens, budgetUsage });
  // The relay, installed below, answers for the channels' health.
  const health: ChannelHealthReader = {
    view: () => app.relay.channelHealth.view(),
    history: (channelId) => app.relay.channelHealth.history(channelId),
  };
  channelRoutes(app, { auth, channels: services.channels, health });
  priceRoutes(app, {
    auth,
    prices: services.prices,
    availableModels: serviceSources(services.channels, services.groups),
  });
  modelMetadataRoutes(app, { auth, metadata: services.modelMetadata });
  logRoutes(app, { auth, logs: services.logs });
  auditRoutes(app, { auth, audit: services.audit });
  midjourneyRoutes(app, { auth, database: services.database, links: services.links });
  taskRoutes(app, { auth, database: services.database });
  redemptionRoutes(app, { auth, redemptions: services.redemptions });
  telegramRoutes(app, { auth, database: services.database, bot: app.telegramBot });
  await paymentRoutes(app, { auth, ...services.payments });
  // Off (no registry, nothing observed on the relay's path) unless METRICS_USER and METRICS_PASSWORD are set.
  const metrics = config.metrics ? createMetrics() : undefined;
  const failures = createMetricsAuthFailures(services.cache, config.signInFailureLimit);
  metricsRoutes(app, { credentials: config.metrics, metrics, clustered: config.workers > 1, failures });
  app.decorate(
    'relay',
    await installRelay(app, services, options.logger, options.redis, namespace, {
      shutdownGraceMs: config.shutdownGraceMs,
      journal: config.journal,
      upstreamTimeouts: config.upstreamTimeouts,
      heartbeat: options.heartbeat ?? HEARTBEAT_TIMING,
      observer: combineObservers(metrics?.relay, tracing?.relay),
      taskTimeoutMs: config.tasks.timeoutMs,
      webSearch: config.webSearch,
    }),
  );
  // After the relay's own hooks: the requests it drains at shutdown have ended their spans.
  if (tracing) app.addHook('onClose', () => exportLastSpans(tracing, options.logger));
  statisticsRoutes(app, { auth, dashboard: services.dashboard, analytics: services.analytics, rate: app.relay });
  uptimeKumaRoutes(app, { auth, options: services.options });
  invoiceRoutes(app, { auth, invoices: services.invoices });
  planRoutes(app, {
    auth,
    plans: services.planCatalog,
    subscriptions: services.plans,
    budgetUsage: app.relay.budgetUsage,
  });
  await mcpRoutes(app, {
    enabled: config.mcpEnabled,
    auth,
    bodyLimit: config.apiBodyLimitBytes,
    prices: services.prices,
    sources: serviceSources(services.channels, services.groups),
    dashboard: services.dashboard,
    options: services.options,
    logger: options.logger,
    serverInfo: () => ({
      name: `${services.options.get('SystemName') || 'One Hub'} MCP server`,
      version: config.version,
    }),
  });
  installChannelTests(app, { auth, services, logger: options.logger, pauseMs: options.config.pollingIntervalMs });

  await installConsole(app, {
    directory: options.consoleDirectory,
    basePath: config.basePath,
    version: config.version,
    analyticsCode: () => services.options.get('AnalyticsCode'),
  });
  return app;
}

/** A collector that cannot be reached loses these spans; the shutdown goes on. */
async function exportLastSpans(tracing: Tracing, logger: Logger): Promise<void> {
  try {
    await tracing.shutdown();
  } catch (error) {
    logger.warn({ err: error }, 'exporting the last spans failed');
  }
}
