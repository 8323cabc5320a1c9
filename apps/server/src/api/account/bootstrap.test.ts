import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, useMigratedDatabase } from '../../../test/databases.js';
import { createMemoryCache } from '../../platform/cache/index.js';
import { sha256Hex } from '../../platform/crypto.js';
import { migrateToLatest, openDatabase } from '../../platform/db/index.js';
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
  const handle = useMigratedDatabase('sqlite');
  let services: Services;

  beforeAll(async () => {
    services = createServices(handle, createMemoryCache(), createLogger('silent'), {
      serverSecret: 'test-secret-0123456789',
    });
    await services.options.load();
  });

  const first = { port: 3000, basePath: '', initialRootQuota: 100_000_000 };

  it('creates root once with a random password shown once on the terminal (not in the log), to be changed', async () => {
    const { logger, lines } = capturingLogger();
    const shown: string[] = [];
    await ensureRootUser(
      { ...first, initialRootPassword: undefined, initialRootAccessToken: 'initial-token-0123456789' },
      services.userRepository,
      services.users,
      logger,
      (text) => shown.push(text),
    );
    const root = await services.userRepository.findByUsername('root');
    expect(root).toMatchObject({ role: 100, status: 1, display_name: 'Root User', password_change_required: 1 });
    // A balance to try the first channel with, recorded like any other credit.
    expect(Number(root?.quota)).toBe(100_000_000);
    const credit = await handle.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', root?.id ?? 0)
      .execute();
    expect(credit).toMatchObject([{ type: 4, quota: 100_000_000 }]);
    expect(credit[0]?.content).toContain('＄200.000000');
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain('console:  http://localhost:3000');
    expect(shown[0]).toContain('username: root');
    const printed = /password: (\S+)/.exec(shown[0] ?? '')?.[1] ?? '';
    expect(printed).toHaveLength(16);
    expect(await verifyPassword(printed, root?.password ?? '')).toBe(true);
    expect(lines.join('\n')).not.toContain(printed);
    expect(root?.access_token_hash).toBe(sha256Hex('initial-token-0123456789'));

    const again = capturingLogger();
    const shownAgain: string[] = [];
    await ensureRootUser(
      { ...first, initialRootPassword: 'other-password', initialRootAccessToken: undefined },
      services.userRepository,
      services.users,
      again.logger,
      (text) => shownAgain.push(text),
    );
    expect([...again.lines, ...shownAgain]).toEqual([]);
    expect(await services.userRepository.count()).toBe(1);
  });

  it('takes INITIAL_ROOT_PASSWORD as the operator chose it: nothing shown, no change asked', async () => {
    const other = await createTestDatabase('sqlite');
    const otherHandle = openDatabase(other.target);
    try {
      await migrateToLatest(otherHandle);
      const otherServices = createServices(otherHandle, createMemoryCache(), createLogger('silent'), {
        serverSecret: 'test-secret-0123456789',
      });
      await otherServices.options.load();
      const shown: string[] = [];
      await ensureRootUser(
        { ...first, initialRootQuota: 0, initialRootPassword: 'chosen-password-1', initialRootAccessToken: undefined },
        otherServices.userRepository,
        otherServices.users,
        capturingLogger().logger,
        (text) => shown.push(text),
      );
      const root = await otherServices.userRepository.findByUsername('root');
      expect(root?.password_change_required).toBe(0);
      expect(Number(root?.quota)).toBe(0);
      expect(await verifyPassword('chosen-password-1', root?.password ?? '')).toBe(true);
      expect(shown).toEqual([]);
    } finally {
      await otherHandle.close();
      await other.drop();
    }
  });
});
