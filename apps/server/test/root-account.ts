import { ensureRootUser } from '../src/api/account/bootstrap.js';
import { createMemoryCache } from '../src/platform/cache/index.js';
import { type DatabaseTarget, migrateToLatest, openDatabase } from '../src/platform/db/index.js';
import { createLogger } from '../src/platform/logger.js';
import { createServices, type Services } from '../src/services.js';

/**
 * A migrated database with its root account, as a first start leaves it, for tests of the
 * command-line tools. The caller closes `handle` when done.
 */
export async function databaseWithRoot(
  target: DatabaseTarget,
  serverSecret: string,
  root: { password: string; accessToken?: string },
): Promise<{ handle: ReturnType<typeof openDatabase>; services: Services }> {
  const handle = openDatabase(target);
  await migrateToLatest(handle);
  const logger = createLogger('silent');
  const services = createServices(handle, createMemoryCache(), logger, { serverSecret });
  await services.options.load();
  await ensureRootUser(
    {
      initialRootPassword: root.password,
      initialRootAccessToken: root.accessToken,
      initialRootQuota: 0,
      port: 3000,
      basePath: '',
    },
    services.userRepository,
    services.users,
    logger,
    () => {},
  );
  return { handle, services };
}
