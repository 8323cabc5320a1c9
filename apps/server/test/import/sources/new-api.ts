import type { Kysely } from 'kysely';
import { type DialectName, openDatabase } from '../../../src/platform/db/index.js';
import { createTestDatabase, type TestDatabase } from '../../databases.js';
import {
  bcryptHash,
  createTable,
  type FixtureChannel,
  type FixtureKey,
  type FixtureRedemption,
  type FixtureUser,
  gormTime,
  hex32,
  insertRows,
  legacyKey,
  type SourceFixture,
} from './gorm-tables.js';
import { fillNewApiExtras, NEW_API_OPTIONS } from './new-api-extras.js';
import { NEW_API_TABLES } from './new-api-tables.js';

/**
 * A new-api database with representative rows: every role, a disabled and a soft-deleted user,
 * Telegram/Discord/LinuxDO bindings, keys in every status with model limits (on and off), IP
 * limits, the `auto` group and a soft-deleted key, channels of many types (multi-key, overrides,
 * proxies, tags, types One Hub lacks), redemption codes used, unused, expired and deleted, logs of
 * all six types, and the ratio, price and group options.
 */

const NOW = 1_735_689_600; // 2025-01-01T00:00:00Z
const PAST = NOW - 30 * 86_400;
const FUTURE = 4_102_444_800; // 2100-01-01: still valid whenever the test runs

function users(): FixtureUser[] {
  const user = (id: number, username: string, role: number, status: number, quota: number, extra = {}) => ({
    id,
    username,
    password: `${username}-pass-2`,
    role,
    status,
    quota,
    usedQuota: id * 2000,
    group: 'default',
    deleted: false,
    ...extra,
  });
  return [
    user(1, 'root', 100, 1, 100_000_000),
    user(2, 'admin', 10, 1, 4_000_000),
    user(3, 'alice', 1, 1, 3_000_000),
    user(4, 'bob', 1, 2, 900_000),
    user(5, 'dave', 1, 1, 400_000, { deleted: true }),
    user(6, 'carol', 1, 1, 10, { group: 'vip' }),
  ];
}

function userRows(dialect: DialectName, list: FixtureUser[]) {
  return list.map((user) => ({
    id: user.id,
    username: user.username,
    password: bcryptHash(user.password),
    display_name: user.username,
    role: user.role,
    status: user.status,
    email: `${user.username}@example.com`,
    github_id: user.id === 3 ? 'alice-gh' : '',
    discord_id: user.id === 3 ? 'discord-1' : '',
    oidc_id: user.id === 2 ? 'oidc|admin' : '',
    wechat_id: user.id === 6 ? 'wx-carol' : '',
    telegram_id: user.id === 3 ? '123456789' : '',
    access_token: user.id <= 2 ? hex32() : null,
    quota: user.quota,
    used_quota: user.usedQuota,
    request_count: user.id * 3,
    group: user.group,
    aff_code: `N${user.id}q${user.id}`,
    aff_count: user.id === 3 ? 2 : 0,
    aff_quota: user.id === 3 ? 50_000 : 0,
    aff_history: user.id === 3 ? 80_000 : 0,
    inviter_id: user.id === 6 ? 3 : 0,
    deleted_at: user.deleted ? gormTime(dialect, NOW) : null,
    linux_do_id: user.id === 3 ? 'ld-77' : '',
    setting: user.id === 3 ? '{"notify_type":"email"}' : '',
  }));
}

function keys(): FixtureKey[] {
  const key = (id: number, userId: number, status: number, extra: Partial<FixtureKey> = {}): FixtureKey => ({
    id,
    userId,
    key: legacyKey(),
    status,
    unlimited: false,
    remainQuota: 800_000,
    expiredTime: -1,
    models: [],
    ips: [],
    deleted: false,
    ...extra,
  });
  return [
    key(1, 3, 1, { models: ['gpt-4o', 'claude-3-5-sonnet-20240620'] }),
    key(2, 3, 1, { unlimited: true, remainQuota: 0 }),
    key(3, 3, 2),
    key(4, 4, 3, { expiredTime: PAST }),
    key(5, 3, 4, { remainQuota: 0 }),
    key(6, 6, 1, { ips: ['10.0.0.1', '192.168.0.0/16'] }),
    key(7, 6, 1),
    key(8, 3, 1, { deleted: true }),
    key(9, 2, 1),
  ];
}

function keyRows(dialect: DialectName, list: FixtureKey[]) {
  return list.map((key) => ({
    id: key.id,
    user_id: key.userId,
    key: key.key,
    status: key.status,
    name: `key-${key.id}`,
    created_time: NOW,
    accessed_time: NOW,
    expired_time: key.expiredTime,
    remain_quota: key.remainQuota,
    unlimited_quota: key.unlimited,
    // Key 9 had limits once and turned them off: the stale list must not limit it.
    model_limits_enabled: key.models.length > 0,
    model_limits: key.id === 9 ? 'gpt-4' : key.models.join(','),
    allow_ips: key.ips.join('\n'),
    used_quota: 4321,
    group: key.id === 6 ? 'vip' : key.id === 7 ? 'auto' : '',
    cross_group_retry: false,
    deleted_at: key.deleted ? gormTime(dialect, NOW) : null,
  }));
}

interface ChannelSeed extends FixtureChannel {
  row: Record<string, unknown>;
}

function channels(): ChannelSeed[] {
  const vertexKey = '{"type":"service_account","project_id":"proj-9","private_key":"k"}';
  const seed = (id: number, name: string, sourceType: number, expectedType: number, key: string, row = {}) => ({
    id,
    name,
    sourceType,
    expectedType,
    expectedKey: key,
    expectedStatus: 1,
    row: { id, type: sourceType, key, name, models: 'gpt-4o', ...row },
  });
  return [
    {
      ...seed(1, 'openai pool', 1, 1, 'sk-a\nsk-b', {
        channel_info: '{"is_multi_key":true,"multi_key_size":2,"multi_key_mode":"polling"}',
        tag: 'openai',
        priority: 10,
        weight: 3,
        group: 'default,vip',
        model_mapping: '{"gpt-4":"gpt-4o"}',
      }),
      expectedKey: 'sk-a',
    },
    seed(2, 'azure', 3, 3, 'azure-key', { other: '2024-10-21', base_url: 'https://west.openai.azure.com' }),
    seed(3, 'gemini', 24, 25, 'AIza-1', { models: 'gemini-1.5-pro' }),
    seed(4, 'claude', 14, 14, 'sk-ant-2', {
      setting: '{"proxy":"socks5://proxy:1080","force_format":false}',
      header_override: '{"anthropic-beta":"x"}',
      param_override: '{"temperature":0.2}',
      models: 'claude-3-5-sonnet-20240620',
      tag: 'anthropic',
      auto_ban: 0,
    }),
    { ...seed(5, 'bedrock', 33, 32, 'AKIA2|secret2|us-west-2'), expectedKey: 'us-west-2|AKIA2|secret2' },
    seed(6, 'vertex', 41, 42, vertexKey, { other: 'us-central1', models: 'gemini-1.5-flash' }),
    { ...seed(7, 'cloudflare', 39, 35, 'cf-token', { other: 'acct-1' }), expectedKey: 'acct-1|cf-token' },
    seed(8, 'deepseek', 43, 28, 'sk-ds', { models: 'deepseek-chat' }),
    { ...seed(9, 'dify app', 37, 8, 'app-dify', { base_url: 'https://dify.example.com' }), expectedStatus: 2 },
    seed(10, 'midjourney proxy', 2, 34, 'mj-secret', { base_url: 'https://mj.example.com', models: 'mj_imagine' }),
    seed(11, 'suno', 36, 41, 'suno-key', { base_url: 'https://suno.example.com', models: 'suno_music' }),
    seed(12, 'grok', 48, 56, 'xai-key', { models: 'grok-beta' }),
    { ...seed(13, 'moonshot off', 25, 29, 'sk-moon', { status: 3, models: 'moonshot-v1-8k' }), expectedStatus: 3 },
    seed(14, 'custom full url', 8, 8, 'sk-custom', { base_url: 'https://llm.example.com/v1/chat/completions' }),
    { ...seed(15, 'hunyuan', 23, 40, '1250000001|AKIDx|skey', { models: 'hunyuan-lite' }), expectedKey: 'AKIDx|skey' },
  ];
}

function logRows() {
  const types = [1, 2, 2, 3, 4, 5, 6];
  return types.map((type, index) => ({
    id: index + 1,
    user_id: 3,
    created_at: NOW + index * 60,
    type,
    content: type === 2 ? '' : `log ${index}`,
    username: 'alice',
    token_name: type === 2 ? 'key-1' : '',
    model_name: type === 2 || type === 5 ? 'gpt-4o' : '',
    quota: type === 2 ? 1_250 : type === 6 ? 300 : 0,
    prompt_tokens: type === 2 ? 800 : 0,
    completion_tokens: type === 2 ? 50 : 0,
    use_time: type === 2 ? 3 : 0,
    is_stream: type === 2,
    channel_id: type === 2 ? 1 : 0,
    token_id: type === 2 ? 1 : 0,
    group: type === 2 ? 'default' : '',
    ip: type === 2 ? '203.0.113.9' : '',
    other:
      type === 2
        ? '{"model_ratio":1.25,"group_ratio":1,"completion_ratio":4,"model_price":-1,"frt":420,"cache_tokens":100,"cache_ratio":0.5,"admin_info":{"use_channel":["1"]}}'
        : '',
  }));
}

const redemptions: Omit<FixtureRedemption, 'key'>[] = [
  { id: 1, quota: 1_000_000, status: 1, expectedStatus: 1 },
  { id: 2, quota: 200_000, status: 3, expectedStatus: 3 },
  { id: 3, quota: 50_000, status: 2, expectedStatus: 2 },
  { id: 4, quota: 70_000, status: 1, expectedStatus: 2 },
  { id: 6, quota: 90_000, status: 1, expectedStatus: 1 },
];

async function fill(db: Kysely<unknown>, dialect: DialectName): Promise<SourceFixture> {
  for (const [table, columns] of Object.entries(NEW_API_TABLES)) {
    await createTable(
      db,
      dialect,
      table,
      columns,
      table === 'abilities' ? ['group', 'model', 'channel_id'] : undefined,
    );
  }
  const userList = users();
  const keyList = keys();
  const channelList = channels();
  await insertRows(db, 'users', userRows(dialect, userList));
  await insertRows(db, 'tokens', keyRows(dialect, keyList));
  await insertRows(
    db,
    'channels',
    channelList.map((channel) => ({ created_time: NOW, ...channel.row })),
  );
  await insertRows(
    db,
    'options',
    Object.entries(NEW_API_OPTIONS).map(([key, value]) => ({ key, value })),
  );
  const codes = redemptions.map((code) => ({ ...code, key: hex32() }));
  const deletedCode = { id: 5, key: hex32(), quota: 60_000, status: 1 };
  await insertRows(
    db,
    'redemptions',
    [...codes, deletedCode].map((code) => ({
      id: code.id,
      user_id: 1,
      key: code.key,
      status: code.status,
      name: `code-${code.id}`,
      quota: code.quota,
      created_time: NOW,
      redeemed_time: code.status === 3 ? NOW + 10 : 0,
      used_user_id: code.status === 3 ? 3 : 0,
      expired_time: code.id === 4 ? PAST : code.id === 6 ? FUTURE : 0,
      deleted_at: code.id === 5 ? gormTime(dialect, NOW) : null,
    })),
  );
  const logs = logRows();
  await insertRows(db, 'logs', logs);
  await fillNewApiExtras(db, dialect);
  const channelsOut = channelList.map(({ row: _row, ...channel }) => channel);
  return {
    users: userList,
    keys: keyList,
    redemptions: codes,
    channels: channelsOut,
    logCount: logs.length,
    options: NEW_API_OPTIONS,
  };
}

/** Creates a new-api database on `dialect`; the caller drops it (`database.drop()`). */
export async function buildNewApiSource(
  dialect: DialectName,
): Promise<{ database: TestDatabase; fixture: SourceFixture }> {
  const database = await createTestDatabase(dialect);
  const handle = openDatabase(database.target);
  try {
    const fixture = await fill(handle.db as unknown as Kysely<unknown>, dialect);
    return { database, fixture };
  } finally {
    await handle.close();
  }
}
