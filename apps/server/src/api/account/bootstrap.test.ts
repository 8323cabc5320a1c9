import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { createMemoryCache } from '../../platform/cache/index.js';
import { sha256Hex } from '../../platform/crypto.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../platform/db/index.js';
import { createLogger, type Logger } from '../../platform/logger.js';
import { verifyPassword } from '../../platform/password.js';
import { createServices, type Services } from '../../services.js';
import { ensureRootUser } from './bootstrap.js';

function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger('silent');
  const capture = (message: unknown) => lines.push(String(message));
  return { logger: Object.assign(Object.create(logger), { info: capture, warn: capture }) as Logger, lines };
}

describe('first start', () => {
  let testDatabase: TestDatabase;
  let handle: DatabaseHandle;
  let services: Services;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('sqlite');
    handle = openDatabase(testDatabase.target);
    await migrateToLatest(handle);
    services = createServices(handle, createMemoryCache(), createLogger('silent'), {
      serverSecret: 'test-secret-0123456789',
    });
    await services.options.load();
  });
  afterAll(async () => {
    await handle.close();
    await testDatabase.drop();
  });

  it('creates root once with a random password printed once, and never again', async () => {
    const { logger, lines } = capturingLogger();
    await ensureRootUser(
      { initialRootPassword: undefined, initialRootAccessToken: 'initial-token-0123456789' },
      services.userRepository,
      services.users,
      logger,
    );
    const root = await services.userRepository.findByUsername('root');
    expect(root).toMatchObject({ role: 100, status: 1, display_name: 'Root User' });
    expect(lines).toHaveLength(1);
    const printed = /password: (\S+)/.exec(lines[0] ?? '')?.[1] ?? '';
    expect(printed).toHaveLength(16);
    expect(await verifyPassword(printed, root?.password ?? '')).toBe(true);
    expect(root?.access_token_hash).toBe(sha256Hex('initial-token-0123456789'));

    const again = capturingLogger();
    await ensureRootUser(
      { initialRootPassword: 'other-password', initialRootAccessToken: undefined },
      services.userRepository,
      services.users,
      again.logger,
    );
    expect(again.lines).toEqual([]);
    expect(await services.userRepository.count()).toBe(1);
  });
});
