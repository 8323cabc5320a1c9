import { ChannelStatus } from '@one-hub/contracts';
import { AccountService } from './api/account/service.js';
import { createSignInServices, type SignInServices, type SignInUpstreams } from './api/account/sign-in.js';
import { VerificationCodes } from './api/account/verification.js';
import { AuditRepository } from './api/audit/repo.js';
import { AuditService } from './api/audit/service.js';
import { ChannelRepository } from './api/channel/repo.js';
import { ChannelService } from './api/channel/service.js';
import { InvoiceRepository } from './api/invoice/repo.js';
import { InvoiceService } from './api/invoice/service.js';
import { LogRepository } from './api/log/repo.js';
import { LogService } from './api/log/service.js';
import { LogWriter, type LogWriterOptions } from './api/log/writer.js';
import { ModelMetadataRepository } from './api/model-info/repo.js';
import { ModelMetadataService } from './api/model-info/service.js';
import { OptionRepository } from './api/option/repo.js';
import { OptionService } from './api/option/service.js';
import { GatewayConfigs } from './api/payment/gateway-config.js';
import { GatewayService } from './api/payment/gateway-service.js';
import { NotifyService, type PlanOrders } from './api/payment/notify-service.js';
import { OrderService } from './api/payment/order-service.js';
import { OrderStatistics } from './api/payment/order-statistics.js';
import { PaymentRepository } from './api/payment/repo.js';
import { PlanRepository } from './api/plan/repo.js';
import { PlanService } from './api/plan/service.js';
import { SubscriptionRepository } from './api/plan/subscription-repo.js';
import { SubscriptionService } from './api/plan/subscription-service.js';
import { PriceRepository } from './api/price/repo.js';
import { PriceService } from './api/price/service.js';
import type { ServedChannel } from './api/price/unpriced.js';
import { RedemptionRepository } from './api/redemption/repo.js';
import { RedemptionService } from './api/redemption/service.js';
import { AnalyticsRepository } from './api/statistics/analytics-repo.js';
import { AnalyticsService } from './api/statistics/analytics-service.js';
import { DashboardService } from './api/statistics/dashboard-service.js';
import { StatisticsRepository } from './api/statistics/repo.js';
import { TokenRepository } from './api/token/repo.js';
import { TokenService } from './api/token/service.js';
import { UserRepository } from './api/user/repo.js';
import { UserService } from './api/user/service.js';
import { GroupBudgetUseRepository } from './api/user-group/budget-use.js';
import { UserGroupRepository } from './api/user-group/repo.js';
import { UserGroupService } from './api/user-group/service.js';
import { PRODUCTION_PAYMENT_ENDPOINTS } from './config.js';
import { mapModel } from './domain/model-mapping.js';
import type { GatewayEndpoints } from './payments/gateway.js';
import { createGatewayRegistry } from './payments/registry.js';
import type { Cache } from './platform/cache/index.js';
import { ChangeBus } from './platform/changes.js';
import type { DatabaseHandle } from './platform/db/index.js';
import type { Logger } from './platform/logger.js';
import { channelDisabledNotice, createNotifier, type Notifier, type NotifyConfig } from './platform/notify.js';
import { createSecretBox } from './platform/secret-box.js';
import { createLinkSigner, type LinkSigner } from './platform/signed-links.js';
import { createImageStorage, type ImageStorage, type StorageConfig } from './platform/storage/index.js';

/** The composition root: every repository and service, built once per process. */
export interface Services {
  database: DatabaseHandle;
  cache: Cache;
  /** The invalidation bus: services publish their writes, in-memory copies (the relay's) listen. */
  changes: ChangeBus;
  options: OptionService;
  userRepository: UserRepository;
  /** The repositories the relay reads and writes through itself (keys by digest, user groups, refund logs). */
  tokenRepository: TokenRepository;
  userGroupRepository: UserGroupRepository;
  logRepository: LogRepository;
  /** The batched consume-log writer; the relay opens its one writer, tied to its crash journal. */
  openLogWriter(options: LogWriterOptions): LogWriter;
  users: UserService;
  groups: UserGroupService;
  accounts: AccountService;
  signIn: SignInServices;
  /** Operator notices (channel disabled, channel test summary), NOTIFY_* in the environment. */
  notifier: Notifier;
  /** Image hosts (STORAGE_*) for generated images answered as URLs; undefined when none is configured. */
  imageStorage: ImageStorage | undefined;
  tokens: TokenService;
  channels: ChannelService;
  prices: PriceService;
  modelMetadata: ModelMetadataService;
  logs: LogService;
  /** The audit log's reader (GET /api/audit/) and its retention; rows are written by each change's service. */
  audit: AuditService;
  redemptions: RedemptionService;
  dashboard: DashboardService;
  analytics: AnalyticsService;
  /** Monthly invoices (UserInvoiceMonth). */
  invoices: InvoiceService;
  /** Online top-up: gateway settings, orders, vendor callbacks. */
  payments: { gateways: GatewayService; orders: OrderService; notify: NotifyService };
  /** Users' subscriptions to plans; `activeFor` is the relay's in-memory view of a user's plan. */
  plans: SubscriptionService;
  /** The plans themselves: administrators' CRUD, what users may buy. */
  planCatalog: PlanService;
  /** Signs the links handed out for keyless callers (a Midjourney proxy's callback, task images). */
  links: LinkSigner;
  /**
   * Switches a channel off after a failure (a relayed request's, a used-up balance) and tells the
   * operators; true when this call switched it off. `notice` is the reason the notice gives.
   */
  disableChannel(channel: { id: number; name: string }, reason: string, notice?: string): Promise<boolean>;
}

/**
 * Only the call that switched the channel off sends a notice: a channel already off (by an
 * administrator, or by a request or check alongside) sends nothing. Reads the channels and the
 * notifier when called, so whatever the services hold at that time (a test's capture) is used.
 */
async function disableAfterFailure(
  services: Pick<Services, 'channels' | 'notifier'>,
  channel: { id: number; name: string },
  reason: string,
  notice = reason,
): Promise<boolean> {
  const changed = await services.channels.setStatus(channel.id, ChannelStatus.autoDisabled, reason);
  if (changed) void services.notifier.notify(channelDisabledNotice(channel, notice));
  return changed;
}

/**
 * The enabled channels as prices see them, read from the database on each call so price screens
 * follow channel edits. A model is billed under the name the relay bills it (`mapModel`). Not the
 * router's snapshot: the same rows (`listForRouting`) without its group/priority index, which price
 * screens do not use, and the router follows an edit only once its change event arrives.
 */
async function servedChannels(channels: ChannelService): Promise<ServedChannel[]> {
  return (await channels.listForRouting()).map((channel) => ({
    id: channel.id,
    name: channel.name,
    models: channel.models,
    billedModel: (requested) => mapModel(channel, requested).billedModel,
  }));
}

export function createServices(
  database: DatabaseHandle,
  cache: Cache,
  logger: Logger,
  settings: {
    serverSecret: string;
    notify?: NotifyConfig;
    storage?: StorageConfig;
    paymentEndpoints?: GatewayEndpoints;
    /** Milliseconds since the epoch, for subscriptions' starts and ends; tests drive it. */
    clock?: () => number;
  },
  /** Tests point the sign-in providers at local mock servers. */
  signInUpstreams?: Partial<SignInUpstreams>,
): Services {
  const changes = new ChangeBus(cache, logger);
  const options = new OptionService(new OptionRepository(database), changes, logger);
  const userRepository = new UserRepository(database);
  const tokenRepository = new TokenRepository(database);
  const userGroupRepository = new UserGroupRepository(database);
  const logRepository = new LogRepository();
  const groups = new UserGroupService(userGroupRepository, changes, new GroupBudgetUseRepository(database));
  const users = new UserService(userRepository, new LogRepository(), groups, options, changes);
  const accounts = new AccountService(userRepository, users, options, new VerificationCodes(cache));
  const signIn = createSignInServices({
    database,
    cache,
    options,
    userRepository,
    users,
    secret: settings.serverSecret,
    upstreams: signInUpstreams,
  });
  const tokens = new TokenService(tokenRepository, groups, createSecretBox(settings.serverSecret, 'tokens'), changes);
  const channels = new ChannelService(
    new ChannelRepository(database, createSecretBox(settings.serverSecret, 'channels')),
    changes,
  );
  const prices = new PriceService(new PriceRepository(database), changes);
  prices.setServedChannelSource(() => servedChannels(channels));
  const modelMetadata = new ModelMetadataService(new ModelMetadataRepository(database), changes, logger);
  prices.setOwnerDirectory(modelMetadata);
  const logs = new LogService(database);
  const redemptions = new RedemptionService({
    repo: new RedemptionRepository(database),
    users: userRepository,
    logs: new LogRepository(),
    options,
    groups: new UserGroupRepository(database),
    secrets: createSecretBox(settings.serverSecret, 'redemptions'),
    onQuotaChanged: (userId, delta) => users.quotaChanged(userId, delta),
    inviteRewards: users.inviteRewards,
  });
  const plans = new SubscriptionService({
    repo: new SubscriptionRepository(database),
    plans: new PlanRepository(database),
    users: userRepository,
    groups: userGroupRepository,
    logs: new LogRepository(),
    changes,
    clock: settings.clock ?? Date.now,
  });
  const payments = createPaymentServices(database, logger, settings, { options, userRepository, users, plans });
  const planCatalog = new PlanService({
    repo: new PlanRepository(database),
    groups,
    orders: payments.orders,
    subscriptions: plans,
  });
  const notifier = createNotifier(settings.notify ?? { email: { disabled: false } }, {
    mailer: signIn.mailer,
    rootEmail: () => userRepository.rootEmail(),
    logger,
  });
  const statistics = new StatisticsRepository(database);
  const dashboard = new DashboardService(statistics, new UserGroupRepository(database));
  const analytics = new AnalyticsService(
    statistics,
    new AnalyticsRepository(database),
    (model) =>
      // Custom owners included: the analytics screen groups usage by maker.
      prices.ownerName(prices.lookup(model).channel_type) ?? 'Unknown',
    (caller) => userRepository.idsNotOutrankedBy(caller),
    new OrderStatistics(new PaymentRepository(database)),
  );
  const services: Services = {
    database,
    cache,
    changes,
    options,
    userRepository,
    tokenRepository,
    userGroupRepository,
    logRepository,
    openLogWriter: (options) => new LogWriter(database, options),
    users,
    groups,
    accounts,
    signIn,
    tokens,
    channels,
    prices,
    modelMetadata,
    logs,
    audit: new AuditService(new AuditRepository(database)),
    redemptions,
    dashboard,
    analytics,
    invoices: new InvoiceService(new InvoiceRepository(database), options),
    notifier,
    imageStorage: createImageStorage(settings.storage ?? {}, logger),
    payments,
    plans,
    planCatalog,
    links: createLinkSigner(settings.serverSecret),
    disableChannel: (channel, reason, notice) => disableAfterFailure(services, channel, reason, notice),
  };
  return services;
}

function createPaymentServices(
  database: DatabaseHandle,
  logger: Logger,
  settings: { serverSecret: string; paymentEndpoints?: GatewayEndpoints },
  shared: { options: OptionService; userRepository: UserRepository; users: UserService; plans: PlanOrders },
): Services['payments'] {
  const repo = new PaymentRepository(database);
  const gateways = new GatewayService({
    repo,
    registry: createGatewayRegistry(settings.paymentEndpoints ?? PRODUCTION_PAYMENT_ENDPOINTS),
    configs: new GatewayConfigs(createSecretBox(settings.serverSecret, 'payments')),
    options: shared.options,
  });
  const orders = new OrderService({ repo, gateways, options: shared.options, logger, users: shared.userRepository });
  const notify = new NotifyService({
    repo,
    gateways,
    groups: new UserGroupRepository(database),
    logger,
    users: shared.userRepository,
    logs: new LogRepository(),
    options: shared.options,
    inviteRewards: shared.users.inviteRewards,
    onQuotaChanged: (userId, delta) => shared.users.quotaChanged(userId, delta),
    plans: shared.plans,
  });
  return { gateways, orders, notify };
}
