import { Role } from '@one-hub/contracts';
import type { Config } from '../../config.js';
import { randomString, sha256Hex } from '../../platform/crypto.js';
import type { Logger } from '../../platform/logger.js';
import type { UserRepository } from '../user/repo.js';
import type { UserService } from '../user/service.js';

/**
 * On the very first start (no users at all) creates `root`. Its password comes from
 * INITIAL_ROOT_PASSWORD, or is generated and printed once; nothing else ever prints it.
 */
export async function ensureRootUser(
  config: Pick<Config, 'initialRootPassword' | 'initialRootAccessToken'>,
  users: UserRepository,
  userService: UserService,
  logger: Logger,
): Promise<void> {
  if ((await users.count()) > 0) return;
  const password = config.initialRootPassword ?? randomString(16);
  await userService.createAccount({
    username: 'root',
    password,
    displayName: 'Root User',
    role: Role.root,
    accessTokenHash: config.initialRootAccessToken ? sha256Hex(config.initialRootAccessToken) : undefined,
  });
  if (config.initialRootPassword) {
    logger.info('created the root user with the password from INITIAL_ROOT_PASSWORD');
  } else {
    logger.warn(
      `created the root user; username: root, password: ${password} (shown only this once; change it after signing in)`,
    );
  }
}
