import bcrypt from 'bcryptjs';
import { randomString } from '../../../src/platform/crypto.js';
import type { DialectName } from '../../../src/platform/db/index.js';
import { dateTime, type SourceFixture } from '../fixture.js';

/** The rows of the One Hub fixture: users, keys, channels, logs and statistics (see one-hub.ts). */

export interface UpstreamTarget {
  url: string;
  apiKey: string;
}

export const NOW = Math.floor(Date.now() / 1000);
export const DAY = 86_400;

interface UserSeed {
  id: number;
  username: string;
  password: string;
  role: number;
  status: number;
  quota: number;
  used: number;
  group: string;
  deleted?: boolean;
  inviter?: number;
  bindings?: Record<string, string | number>;
}

export const users: UserSeed[] = [
  {
    id: 1,
    username: 'root',
    password: 'root-pass-123',
    role: 100,
    status: 1,
    quota: 100_000_000,
    used: 0,
    group: 'default',
  },
  {
    id: 2,
    username: 'alice',
    password: 'alice-pass-123',
    role: 1,
    status: 1,
    quota: 5_000_000,
    used: 123_456,
    group: 'vip',
    inviter: 1,
    bindings: {
      email: 'alice@example.com',
      github_id: 'alice-gh',
      github_id_new: 9001,
      oidc_id: 'oidc-alice',
      wechat_id: 'wx-alice',
      lark_id: 'lark-alice',
      telegram_id: 424242,
    },
  },
  { id: 3, username: 'bob', password: 'bob-pass-1234', role: 1, status: 2, quota: 700_000, used: 10, group: 'default' },
  {
    id: 4,
    username: 'carol_del_a1b2c3',
    password: 'carol-pass-123',
    role: 1,
    status: 1,
    quota: 42,
    used: 0,
    group: 'default',
    deleted: true,
  },
  {
    id: 5,
    username: 'dave',
    password: 'dave-pass-1234',
    role: 10,
    status: 1,
    quota: 0,
    used: 0,
    group: 'svip',
    inviter: 2,
  },
  { id: 6, username: 'erin', password: 'erin-pass-1234', role: 3, status: 1, quota: 1_000, used: 0, group: 'default' },
];

export async function userRows(dialect: DialectName) {
  return Promise.all(
    users.map(async (user) => ({
      id: user.id,
      username: user.username,
      // Cost 4: a real bcrypt hash, quick to make in tests.
      password: await bcrypt.hash(user.password, 4),
      display_name: user.username.toUpperCase(),
      role: user.role,
      status: user.status,
      email: '',
      avatar_url: '',
      oidc_id: '',
      github_id: '',
      github_id_new: 0,
      wechat_id: '',
      telegram_id: 0,
      lark_id: '',
      access_token: `${user.username}-access-token-`.padEnd(32, 'x'),
      quota: user.quota,
      used_quota: user.used,
      request_count: user.used > 0 ? 17 : 0,
      group: user.group,
      aff_code: `a${user.id}Zq`,
      aff_count: user.id === 1 ? 1 : 0,
      aff_quota: 0,
      aff_history: 0,
      inviter_id: user.inviter ?? 0,
      last_login_time: NOW - DAY,
      last_login_ip: '203.0.113.7',
      created_time: NOW - 30 * DAY,
      deleted_at: user.deleted ? dateTime(dialect, NOW - 2 * DAY) : null,
      ...user.bindings,
    })),
  );
}

export function tokenRows(dialect: DialectName, keys: SourceFixture['keys']) {
  const base = { created_time: NOW - 10 * DAY, accessed_time: NOW - DAY, used_quota: 0, group: '', backup_group: '' };
  const token = (id: number, userId: number, key: string, fields: Record<string, unknown>) => ({
    ...base,
    id,
    user_id: userId,
    key,
    name: `key ${id}`,
    status: 1,
    expired_time: -1,
    remain_quota: 0,
    unlimited_quota: false,
    setting: { heartbeat: { enabled: false, timeout_seconds: 30 } },
    deleted_at: null,
    ...fields,
  });
  return [
    token(1, 2, keys.unlimited, { unlimited_quota: true, name: 'one hub key' }),
    // An older One Hub setting: the model limit directly under `limits`.
    token(2, 2, keys.legacy, {
      remain_quota: 2_000_000,
      used_quota: 5,
      name: 'legacy key',
      setting: { limits: { enabled: true, models: ['gpt-4o-mini'] } },
    }),
    token(3, 2, keys.expired, { status: 3, expired_time: NOW - DAY, unlimited_quota: true }),
    token(4, 2, keys.disabled, { status: 2, unlimited_quota: true }),
    token(5, 2, keys.exhausted, { status: 4, remain_quota: 0 }),
    token(6, 3, keys.ownerDisabled, { unlimited_quota: true }),
    token(7, 2, keys.deleted, { unlimited_quota: true, deleted_at: dateTime(dialect, NOW - DAY) }),
    token(8, 1, randomString(48), {
      unlimited_quota: true,
      expired_time: 0,
      setting: {
        heartbeat: { enabled: true, timeout_seconds: 40 },
        limits: {
          limit_model_setting: { enabled: false, models: [] },
          limits_ip_setting: { enabled: true, whitelist: ['10.0.0.0/8'] },
        },
        billing_tag: 'internal',
      },
    }),
  ];
}

export function channelRows(dialect: DialectName, upstream: UpstreamTarget | undefined) {
  const channel = (id: number, type: number, fields: Record<string, unknown>) => ({
    id,
    type,
    key: `provider-key-${id}-${randomString(12)}`,
    status: 1,
    name: `channel ${id}`,
    weight: 1,
    created_time: NOW - 20 * DAY,
    test_time: NOW - DAY,
    response_time: 321,
    base_url: '',
    other: '',
    balance: 12.5,
    balance_updated_time: NOW - DAY,
    models: 'gpt-4o-mini',
    group: 'default',
    tag: '',
    used_quota: 1000,
    model_mapping: '',
    model_headers: '',
    custom_parameter: '',
    priority: 0,
    proxy: '',
    test_model: '',
    only_chat: false,
    pre_cost: 1,
    compatible_response: false,
    allow_extra_body: false,
    disabled_stream: [],
    plugin: {},
    deleted_at: null,
    ...fields,
  });
  return [
    channel(1, 1, {
      name: 'mock openai',
      key: upstream?.apiKey ?? 'sk-upstream-key',
      base_url: upstream?.url ?? 'http://127.0.0.1:9',
      group: 'default,vip',
      priority: 10,
      test_model: 'gpt-4o-mini',
    }),
    channel(2, 14, {
      status: 2,
      models: 'claude-3-5-sonnet,claude-3*',
      model_mapping: '{"claude-3":"+claude-3-5-sonnet"}',
      tag: 'anthropic',
      proxy: 'socks5://proxy.internal:1080',
      weight: 3,
    }),
    channel(3, 25, {
      status: 3,
      other: 'v1beta',
      models: 'gemini-1.5-pro',
      disabled_stream: ['gemini-1.5-pro'],
      plugin: { code_execution: { enable: true } },
      only_chat: true,
    }),
    channel(4, 3, {
      other: '2024-02-01',
      base_url: 'https://example.openai.azure.com',
      model_headers: '{"X-Test":"1"}',
      custom_parameter: '{"temperature":0.5}',
      allow_extra_body: true,
      compatible_response: true,
      pre_cost: 2,
    }),
    channel(5, 1, { deleted_at: dateTime(dialect, NOW - 5 * DAY) }),
    channel(6, 9999, { name: 'unknown provider' }),
  ];
}

export function logRows(extra: number) {
  const log = (id: number, userId: number, type: number, fields: Record<string, unknown> = {}) => ({
    id,
    user_id: userId,
    created_at: NOW - DAY + id,
    type,
    content: type === 2 ? '' : 'top-up',
    username: users.find((user) => user.id === userId)?.username ?? '',
    token_name: type === 2 ? 'one hub key' : '',
    model_name: type === 2 ? 'gpt-4o-mini' : '',
    quota: 100 + id,
    prompt_tokens: type === 2 ? 10 : 0,
    completion_tokens: type === 2 ? 20 : 0,
    channel_id: type === 2 ? 1 : 0,
    request_time: 200,
    is_stream: id % 2 === 0,
    source_ip: '198.51.100.1',
    metadata: type === 2 ? { cached_tokens: 0 } : null,
    ...fields,
  });
  const rows = [
    log(1, 2, 1),
    log(2, 2, 2),
    log(3, 2, 2, { channel_id: 2, model_name: 'claude-3-5-sonnet' }),
    log(4, 3, 2),
    log(5, 4, 2),
    log(6, 1, 3),
    log(7, 5, 4),
    log(8, 2, 2, { channel_id: 5 }),
  ];
  for (let index = 0; index < extra; index++) rows.push(log(rows.length + 1, 2, 2));
  return rows;
}

const today = new Date(NOW * 1000).toISOString().slice(0, 10);
export const statisticsRows = [
  { user_id: 2, channel_id: 1, model_name: 'gpt-4o-mini' },
  { user_id: 2, channel_id: 2, model_name: 'claude-3-5-sonnet' },
  { user_id: 3, channel_id: 1, model_name: 'gpt-4o-mini' },
  { user_id: 4, channel_id: 1, model_name: 'gpt-4o-mini' },
].map((row, index) => ({
  date: today,
  ...row,
  request_count: index + 1,
  quota: 1000 * (index + 1),
  prompt_tokens: 10,
  completion_tokens: 20,
  request_time: 300,
}));
