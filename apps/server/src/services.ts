import { AccountService } from './api/account/service.js';
import { VerificationCodes } from './api/account/verification.js';
import { ChannelRepository } from './api/channel/repo.js';
import { ChannelService } from './api/channel/service.js';
import { LogRepository } from './api/log/repo.js';
import { LogService } from './api/log/service.js';
import { OptionRepository } from './api/option/repo.js';
import { OptionService } from './api/option/service.js';
import { PriceRepository } from './api/price/repo.js';
import { PriceService } from './api/price/service.js';
import { TokenRepository } from './api/token/repo.js';
import { TokenService } from './api/token/service.js';
import { UserRepository } from './api/user/repo.js';
import { UserService } from './api/user/service.js';
import { UserGroupRepository } from './api/user-group/repo.js';
import { UserGroupService } from './api/user-group/service.js';
import type { Cache } from './platform/cache/index.js';
import type { DatabaseHandle } from './platform/db/index.js';
import type { Logger } from './platform/logger.js';
import { createSecretBox } from './platform/secret-box.js';

/** The composition root: every repository and service, built once per process. */
export interface Services {
  database: DatabaseHandle;
  cache: Cache;
  options: OptionService;
  userRepository: UserRepository;
  users: UserService;
  groups: UserGroupService;
  accounts: AccountService;
  tokens: TokenService;
  channels: ChannelService;
  prices: PriceService;
  logs: LogService;
}

export function createServices(
  database: DatabaseHandle,
  cache: Cache,
  logger: Logger,
  secrets: { serverSecret: string },
): Services {
  const options = new OptionService(new OptionRepository(database), cache, logger);
  const userRepository = new UserRepository(database);
  const groups = new UserGroupService(new UserGroupRepository(database));
  const users = new UserService(userRepository, new LogRepository(), groups, options);
  const accounts = new AccountService(userRepository, users, options, new VerificationCodes(cache));
  const tokens = new TokenService(
    new TokenRepository(database),
    groups,
    createSecretBox(secrets.serverSecret, 'tokens'),
  );
  const channels = new ChannelService(
    new ChannelRepository(database, createSecretBox(secrets.serverSecret, 'channels')),
    cache,
  );
  const prices = new PriceService(new PriceRepository(database), cache);
  prices.setChannelModelSource(async () => (await channels.listForRouting()).flatMap((channel) => channel.models));
  const logs = new LogService(database);
  return { database, cache, options, userRepository, users, groups, accounts, tokens, channels, prices, logs };
}
