import type { Kysely } from 'kysely';
import { type DialectName, openDatabase } from '../../../src/platform/db/index.js';
import { createTestDatabase, type TestDatabase } from '../../databases.js';
import {
  bcryptHash,
  createTable,
  type FixtureChannel,
  type FixtureKey,
  type FixtureUser,
  hex32,
  insertRows,
  legacyKey,
  type SourceFixture,
} from './gorm-tables.js';
import { ONE_API_TABLES } from './one-api-tables.js';

/**
 * A one-api database (songquanpeng/one-api, model/*.go at v0.6.10, 2025-02) with representative
 * rows: every role, a disabled and a deleted user (one-api marks deletion with status 3), keys in
 * every status with model and subnet limits, channels of many types with their `config` JSON and
 * legacy `other`, used and unused redemption codes, logs of every type, and the ratio options.
 */

const NOW = 1_735_689_600; // 2025-01-01T00:00:00Z

function users(): FixtureUser[] {
  const user = (id: number, username: string, role: number, status: number, quota: number, group = 'default') => ({
    id,
    username,
    password: `${username}-pass-1`,
    role,
    status,
    quota,
    usedQuota: id * 1000,
    group,
    deleted: status === 3,
  });
  return [
    user(1, 'root', 100, 1, 100_000_000),
    user(2, 'admin', 10, 1, 5_000_000),
    user(3, 'alice', 1, 1, 2_500_000, 'vip'),
    user(4, 'bob', 1, 2, 700_000),
    user(5, 'deleted_8f0c1e2a9b7d4c3e8f0c1e2a9b7d4c3e', 1, 3, 300_000),
    user(6, 'carol', 1, 1, 0, 'svip'),
  ];
}

function userRows(list: FixtureUser[]) {
  return list.map((user) => ({
    id: user.id,
    username: user.username,
    password: bcryptHash(user.password),
    display_name: user.username.slice(0, 20),
    role: user.role,
    status: user.status,
    email: `${user.username.slice(0, 12)}@example.com`,
    github_id: user.id === 3 ? 'alice-gh' : '',
    wechat_id: user.id === 3 ? 'wx-alice' : '',
    lark_id: user.id === 6 ? 'ou_carol' : '',
    oidc_id: user.id === 2 ? 'oidc|admin' : '',
    access_token: user.id <= 2 ? hex32() : null,
    quota: user.quota,
    used_quota: user.usedQuota,
    request_count: user.id * 7,
    group: user.group,
    aff_code: `A${user.id}x${user.id}`,
    inviter_id: user.id === 6 ? 3 : 0,
  }));
}

function keys(): FixtureKey[] {
  const key = (id: number, userId: number, status: number, extra: Partial<FixtureKey> = {}): FixtureKey => ({
    id,
    userId,
    key: legacyKey(),
    status,
    unlimited: false,
    remainQuota: 500_000,
    expiredTime: -1,
    models: [],
    ips: [],
    deleted: false,
    ...extra,
  });
  return [
    key(1, 3, 1, { models: ['gpt-4o', 'gpt-4o-mini'] }),
    key(2, 3, 1, { unlimited: true, remainQuota: 0 }),
    key(3, 3, 2),
    key(4, 4, 3, { expiredTime: NOW - 86_400 }),
    key(5, 3, 4, { remainQuota: 0 }),
    key(6, 6, 1, { ips: ['10.0.0.0/8', '192.168.1.7'], models: ['claude-3-5-sonnet-20240620'] }),
    key(7, 1, 1, { unlimited: true, expiredTime: NOW + 365 * 86_400 }),
  ];
}

const keyRows = (list: FixtureKey[]) =>
  list.map((key) => ({
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
    used_quota: 1234,
    models: key.models.join(','),
    subnet: key.ips.join(','),
  }));

interface ChannelSeed extends FixtureChannel {
  row: Record<string, unknown>;
}

function channels(): ChannelSeed[] {
  const vertexCredentials = '{"type":"service_account","project_id":"proj-1","private_key":"-----BEGIN|KEY-----"}';
  const seed = (id: number, name: string, sourceType: number, expectedType: number, key: string, row = {}) => ({
    id,
    name,
    sourceType,
    expectedType,
    expectedKey: key,
    expectedStatus: 1,
    row: { id, type: sourceType, key, name, ...row },
  });
  const list: ChannelSeed[] = [
    seed(1, 'openai main', 1, 1, 'sk-upstream-1', {
      model_mapping: '{"gpt-4":"gpt-4o"}',
      priority: 10,
      weight: 5,
      group: 'default,vip',
      models: 'gpt-4o,gpt-4',
    }),
    seed(2, 'azure east', 3, 3, 'azure-key', {
      base_url: 'https://east.openai.azure.com',
      config: '{"api_version":"2024-06-01"}',
      models: 'gpt-4o',
    }),
    seed(3, 'gemini', 24, 25, 'AIza-gemini', { config: '{"api_version":"v1beta"}', models: 'gemini-1.5-pro' }),
    seed(4, 'claude', 14, 14, 'sk-ant-1', { models: 'claude-3-5-sonnet-20240620', group: 'vip' }),
    {
      ...seed(5, 'bedrock', 33, 32, 'AKIA1|secret1|us-east-1', {
        config: '{"region":"us-east-1","ak":"AKIA1","sk":"secret1"}',
        models: 'claude-3-haiku-20240307',
      }),
      expectedKey: 'us-east-1|AKIA1|secret1',
    },
    {
      ...seed(6, 'vertex', 42, 42, `us-central1|proj-1|${vertexCredentials}`, {
        config: JSON.stringify({
          region: 'us-central1',
          vertex_ai_project_id: 'proj-1',
          vertex_ai_adc: vertexCredentials,
        }),
        models: 'gemini-1.5-flash',
      }),
      expectedKey: vertexCredentials,
    },
    {
      ...seed(7, 'cloudflare', 37, 35, 'cf-token', { config: '{"user_id":"acct-9"}', models: '@cf/meta/llama-3-8b' }),
      expectedKey: 'acct-9|cf-token',
    },
    seed(8, 'deepseek', 36, 28, 'sk-deepseek', { models: 'deepseek-chat', priority: 5 }),
    seed(9, 'api2d reseller', 2, 8, 'fk-api2d', { models: 'gpt-3.5-turbo' }),
    {
      ...seed(10, 'aiproxy library', 21, 8, 'lib-key', { other: 'library-7', models: 'gpt-3.5-turbo' }),
      expectedStatus: 2,
    },
    {
      ...seed(11, 'tencent', 23, 40, '1250000000|AKIDsecretid|secretkey', { models: 'hunyuan-lite' }),
      expectedKey: 'AKIDsecretid|secretkey',
    },
    seed(12, 'spark', 18, 18, 'appid|apisecret|apikey', { other: 'v3.5', models: 'SparkDesk-v3.5' }),
    seed(13, 'qwen', 17, 17, 'sk-qwen', { config: '{"plugin":"web_search"}', models: 'qwen-max' }),
    seed(14, 'coze', 34, 38, 'pat-coze', { config: '{"user_id":"coze-user"}', models: 'coze-bot' }),
    {
      ...seed(15, 'openai auto-off', 1, 1, 'sk-upstream-2', { status: 3, system_prompt: 'Be brief.' }),
      expectedStatus: 3,
    },
  ];
  return list;
}

const OPTIONS: Record<string, string> = {
  GroupRatio: '{"default":1,"vip":1.5,"svip":0.8}',
  ModelRatio: '{"gpt-4o":2.5,"gpt-4o-mini":0.075,"claude-3-5-sonnet-20240620":1.5,"glm-4(16)":0.7}',
  CompletionRatio: '{"gpt-4o":3}',
  QuotaPerUnit: '500000',
  SystemName: 'Old one-api',
  RegisterEnabled: 'false',
  OidcEnabled: 'true',
  OidcWellKnown: 'https://id.example.com/.well-known/openid-configuration',
  Theme: 'berry',
  MessagePusherAddress: 'https://push.example.com',
};

function logRows(list: FixtureUser[]) {
  const types = [1, 2, 2, 3, 4, 5, 2];
  return types.map((type, index) => ({
    id: index + 1,
    user_id: 3,
    created_at: NOW + index * 60,
    type,
    content: type === 2 ? '' : `log ${index}`,
    username: list[2]?.username ?? '',
    token_name: type === 2 ? 'key-1' : '',
    model_name: type === 2 ? 'gpt-4o' : '',
    quota: type === 2 ? 2_500 : 0,
    prompt_tokens: type === 2 ? 800 : 0,
    completion_tokens: type === 2 ? 40 : 0,
    channel_id: type === 2 ? 1 : 0,
    request_id: `req-${index}`,
    elapsed_time: type === 2 ? 1_500 : 0,
    is_stream: index % 2 === 0,
    system_prompt_reset: false,
  }));
}

async function fill(db: Kysely<unknown>, dialect: DialectName): Promise<SourceFixture> {
  for (const [table, columns] of Object.entries(ONE_API_TABLES)) {
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
  await insertRows(db, 'users', userRows(userList));
  await insertRows(db, 'tokens', keyRows(keyList));
  await insertRows(
    db,
    'channels',
    channelList.map((channel) => ({ created_time: NOW, ...channel.row })),
  );
  await insertRows(db, 'abilities', [
    { group: 'default', model: 'gpt-4o', channel_id: 1, enabled: true, priority: 10 },
  ]);
  await insertRows(
    db,
    'options',
    Object.entries(OPTIONS).map(([key, value]) => ({ key, value })),
  );
  const redemptions = [
    { id: 1, key: hex32(), quota: 1_000_000, status: 1, expectedStatus: 1 },
    { id: 2, key: hex32(), quota: 200_000, status: 3, expectedStatus: 3 },
    { id: 3, key: hex32(), quota: 50_000, status: 2, expectedStatus: 2 },
  ];
  await insertRows(
    db,
    'redemptions',
    redemptions.map((code) => ({
      id: code.id,
      user_id: 1,
      key: code.key,
      status: code.status,
      name: `code-${code.id}`,
      quota: code.quota,
      created_time: NOW,
      redeemed_time: code.status === 3 ? NOW + 10 : 0,
    })),
  );
  const logs = logRows(userList);
  await insertRows(db, 'logs', logs);
  const channelsOut = channelList.map(({ row: _row, ...channel }) => channel);
  return {
    users: userList,
    keys: keyList,
    redemptions,
    channels: channelsOut,
    logCount: logs.length,
    options: OPTIONS,
  };
}

/** Creates a one-api database on `dialect`; the caller drops it (`database.drop()`). */
export async function buildOneApiSource(
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
