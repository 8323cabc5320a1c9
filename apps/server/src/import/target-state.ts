import { LogType, Role } from '@one-hub/contracts';
import type { DatabaseHandle } from '../platform/db/index.js';
import type { ImportMode } from './writer/context.js';

/** The import cannot start (unknown source, target not empty): exit code 2, nothing written. */
export class ImportRefused extends Error {}

/** Tables whose rows keep their source ids in a fresh import; the target must have none of them. */
export const ID_TABLES = ['users', 'tokens', 'channels', 'redemptions', 'logs', 'payments', 'orders'] as const;

/**
 * The root user a first `npm start` creates, never signed in with, and nothing else: an operator
 * who started the server once before importing has lost nothing by its going. Its id, or undefined.
 */
async function untouchedFirstRoot(target: DatabaseHandle, occupied: string[]): Promise<number | undefined> {
  if (occupied.some((table) => table !== 'users' && table !== 'logs')) return undefined;
  const users = await target.db.selectFrom('users').select(['id', 'role', 'last_login_time']).limit(2).execute();
  const [root] = users;
  if (users.length !== 1 || !root || root.role !== Role.root || Number(root.last_login_time) !== 0) return undefined;
  // At most the system row crediting its first-start balance.
  const logs = await target.db.selectFrom('logs').select(['user_id', 'type']).limit(2).execute();
  if (logs.length > 1 || logs.some((log) => log.user_id !== root.id || log.type !== LogType.system)) return undefined;
  return root.id;
}

/**
 * `fresh` into an empty target (ids kept), `merge` with --merge, else refused. A target holding only
 * the untouched first-start root counts as empty: that root is removed, the source's users come in.
 */
export async function chooseMode(target: DatabaseHandle, merge: boolean): Promise<ImportMode> {
  const occupied: string[] = [];
  for (const table of ID_TABLES) {
    const row = await target.db.selectFrom(table).select('id').limit(1).executeTakeFirst();
    if (row) occupied.push(table);
  }
  if (occupied.length === 0) return 'fresh';
  if (merge) return 'merge';
  const firstRoot = await untouchedFirstRoot(target, occupied);
  if (firstRoot !== undefined) {
    await target.db.transaction().execute(async (transaction) => {
      await transaction.deleteFrom('logs').where('user_id', '=', firstRoot).execute();
      await transaction.deleteFrom('users').where('id', '=', firstRoot).execute();
    });
    return 'fresh';
  }
  throw new ImportRefused(
    `the target database already has ${occupied.join(', ')}: import into an empty database, ` +
      'or add --merge to add the source to it (see the merge rule in docs/migration.md)',
  );
}
