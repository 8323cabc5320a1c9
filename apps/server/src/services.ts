import { AccountService } from './api/account/service.js';
import { VerificationCodes } from './api/account/verification.js';
import { LogRepository } from './api/log/repo.js';
import { OptionRepository } from './api/option/repo.js';
import { OptionService } from './api/option/service.js';
import { UserRepository } from './api/user/repo.js';
import { UserService } from './api/user/service.js';
import { UserGroupRepository } from './api/user-group/repo.js';
import { UserGroupService } from './api/user-group/service.js';
import type { Cache } from './platform/cache/index.js';
import type { DatabaseHandle } from './platform/db/index.js';
import type { Logger } from './platform/logger.js';

/** The composition root: every repository and service, built once per process. */
export interface Services {
  database: DatabaseHandle;
  cache: Cache;
  options: OptionService;
  userRepository: UserRepository;
  users: UserService;
  groups: UserGroupService;
  accounts: AccountService;
}

export function createServices(database: DatabaseHandle, cache: Cache, logger: Logger): Services {
  const options = new OptionService(new OptionRepository(database), cache, logger);
  const userRepository = new UserRepository(database);
  const groups = new UserGroupService(new UserGroupRepository(database));
  const users = new UserService(userRepository, new LogRepository(), groups, options);
  const accounts = new AccountService(userRepository, users, options, new VerificationCodes(cache));
  return { database, cache, options, userRepository, users, groups, accounts };
}
