import { Role } from '@one-hub/contracts';
import { randomString } from '../../platform/crypto.js';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { hashPassword } from '../../platform/password.js';
import { UserRepository } from '../user/repo.js';
import { GENERATED_PASSWORD_LENGTH } from './bootstrap.js';

/**
 * Sets a new generated password on a root account (the named one, or the first root), to be
 * changed at the next sign-in. Like every password change it ends the sessions and revokes the
 * access token: a lost password may be a stolen one, and whoever took it may have made a token.
 */
export async function resetRootPassword(
  handle: DatabaseHandle,
  username?: string,
): Promise<{ username: string; password: string }> {
  const users = new UserRepository(handle);
  const root = username
    ? await users.findByUsername(username)
    : await handle.db
        .selectFrom('users')
        .selectAll()
        .where('role', '=', Role.root)
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .executeTakeFirst();
  if (!root) {
    throw AppError.notFound(
      username ? `no user named '${username}'` : 'there is no root user yet: start the server once to create it',
    );
  }
  if (root.role !== Role.root) throw AppError.badRequest(`'${root.username}' is not a root user`);
  const password = randomString(GENERATED_PASSWORD_LENGTH);
  await users.setPassword(root.id, await hashPassword(password), { password_change_required: 1 });
  return { username: root.username, password };
}
