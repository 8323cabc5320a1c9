import { Role } from '@one-hub/contracts';
import type { Config } from '../../config.js';
import { randomString, sha256Hex } from '../../platform/crypto.js';
import type { Logger } from '../../platform/logger.js';
import type { UserRepository } from '../user/repo.js';
import type { UserService } from '../user/service.js';

/** Where a generated password is shown: plain text for the operator's terminal, whatever the log level. */
export type Announce = (text: string) => void;

/** Length of passwords the server makes up (first start, `npm run reset-root-password`). */
export const GENERATED_PASSWORD_LENGTH = 16;

/** The lines an operator needs to sign in, framed so they stand out among log lines. */
export function credentialsBanner(heading: string, username: string, password: string, url?: string): string {
  const rule = '='.repeat(72);
  return [
    rule,
    heading,
    ...(url ? [`  console:  ${url}`] : []),
    `  username: ${username}`,
    `  password: ${password}`,
    '  Shown only this once. The console asks for a new password at the first sign-in.',
    '  Lost it? `npm run reset-root-password` sets and prints a new one.',
    rule,
    '',
  ].join('\n');
}

/**
 * On the very first start (no users at all) creates `root` with INITIAL_ROOT_QUOTA. Its password comes from
 * INITIAL_ROOT_PASSWORD, or is generated, handed to `announce` once (never to the logger, which
 * may be silenced or shipped elsewhere) and marked to be changed at the first sign-in.
 */
export async function ensureRootUser(
  config: Pick<Config, 'initialRootPassword' | 'initialRootAccessToken' | 'initialRootQuota' | 'port' | 'basePath'>,
  users: UserRepository,
  userService: UserService,
  logger: Logger,
  announce: Announce,
): Promise<void> {
  if ((await users.count()) > 0) return;
  const password = config.initialRootPassword ?? randomString(GENERATED_PASSWORD_LENGTH);
  const root = await userService.createAccount({
    username: 'root',
    password,
    displayName: 'Root User',
    role: Role.root,
    accessTokenHash: config.initialRootAccessToken ? sha256Hex(config.initialRootAccessToken) : undefined,
    // A balance to try the first channel with (INITIAL_ROOT_QUOTA), as the reference gives root.
    initialQuota: config.initialRootQuota,
  });
  if (config.initialRootPassword) {
    logger.info('created the root user with the password from INITIAL_ROOT_PASSWORD');
    return;
  }
  await users.update(root.id, { password_change_required: 1 });
  logger.info('created the root user with a generated password (printed on standard output)');
  const url = `http://localhost:${config.port}${config.basePath}`;
  announce(credentialsBanner('One Hub created its administrator account:', 'root', password, url));
}
