import { randomString } from '../../../src/platform/crypto.js';
import type { TestDatabase } from '../../databases.js';
import { connectSource, insertLegacyRows, type SourceFixture } from '../fixture.js';
import {
  channelRows,
  DAY,
  logRows,
  NOW,
  statisticsRows,
  tokenRows,
  type UpstreamTarget,
  userRows,
  users,
} from './one-hub-rows.js';
import { createOneHubSchema } from './one-hub-schema.js';
import { insertPayments, insertSettings } from './one-hub-settings.js';
import { insertTasks } from './one-hub-tasks.js';

export interface OneHubFixtureOptions {
  /** The mock upstream channel 1 points at (base URL and the key it accepts). */
  upstream?: UpstreamTarget;
  /** Extra consume log rows for alice (default none). */
  extraLogs?: number;
}

function newSecrets(): Pick<SourceFixture, 'keys' | 'codes'> {
  return {
    keys: {
      unlimited: randomString(59),
      legacy: randomString(48),
      expired: randomString(59),
      disabled: randomString(59),
      exhausted: randomString(59),
      ownerDisabled: randomString(59),
      deleted: randomString(59),
    },
    codes: {
      unused: randomString(32, 'abcdef0123456789'),
      unusedQuota: 250_000,
      used: randomString(32),
      disabled: randomString(32),
    },
  };
}

function redemptionRows(codes: SourceFixture['codes']) {
  const code = (id: number, key: string, status: number, quota: number) => ({
    id,
    user_id: 1,
    key,
    status,
    name: `code ${id}`,
    quota,
    created_time: NOW - 3 * DAY,
    redeemed_time: status === 3 ? NOW - DAY : 0,
  });
  return [
    code(1, codes.unused, 1, codes.unusedQuota),
    code(2, codes.used, 3, 100_000),
    code(3, codes.disabled, 2, 100_000),
  ];
}

/** Builds a One Hub database (reference §3.1) with representative rows in a fresh test database. */
export async function buildOneHubSource(
  database: TestDatabase,
  options: OneHubFixtureOptions = {},
): Promise<SourceFixture> {
  const dialect = database.dialect;
  const { keys, codes } = newSecrets();
  const db = connectSource(database);
  try {
    await createOneHubSchema(db, dialect);
    const userValues = await userRows(dialect);
    const tokens = tokenRows(dialect, keys);
    const channels = channelRows(dialect, options.upstream);
    const logs = logRows(options.extraLogs ?? 0);
    await insertLegacyRows(db, dialect, 'users', userValues);
    await insertLegacyRows(db, dialect, 'tokens', tokens);
    await insertLegacyRows(db, dialect, 'channels', channels);
    await insertLegacyRows(db, dialect, 'redemptions', redemptionRows(codes));
    await insertLegacyRows(db, dialect, 'logs', logs);
    await insertLegacyRows(db, dialect, 'statistics', statisticsRows);
    await insertSettings(db, dialect);
    await insertPayments(db, dialect);
    await insertTasks(db, dialect);
    return {
      product: 'one-hub',
      users: users.map((user, index) => ({
        id: user.id,
        username: user.username,
        password: user.password,
        role: user.role,
        status: user.status,
        quota: user.quota,
        usedQuota: user.used,
        group: user.group,
        deleted: user.deleted === true,
        accessToken: String(userValues[index]?.access_token),
      })),
      keys,
      codes,
      counts: {
        users: users.length,
        tokens: tokens.length,
        channels: channels.length,
        redemptions: 3,
        logs: logs.length,
        statistics: statisticsRows.length,
        user_groups: 4,
        prices: 3,
        model_owned_by: 2,
        model_info: 1,
        options: 6,
      },
      relayUser: 'alice',
      mockChannelId: 1,
    };
  } finally {
    await db.destroy();
  }
}
