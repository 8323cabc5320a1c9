import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, type TestDatabase } from '../../../test/databases.js';
import { openFixtureSource, type SourceFixture } from '../../../test/import/sources/gorm-tables.js';
import { buildNewApiSource } from '../../../test/import/sources/new-api.js';
import { providerType } from '../../domain/channel-types/registry.js';
import type { SourceDb } from '../legacy.js';
import { channelNotes, newApiProfile as profile } from './new-api.js';
import { oneApiProfile } from './one-api.js';
import { oneHubProfile } from './one-hub.js';

/**
 * A channel as new-api stores it. Its `type` numbers are new-api's own (14 is Anthropic there too,
 * 37 is Dify), the vocabulary the importer translates, so they stay numbers; what the importer
 * makes of them is named by slug.
 */
const channelRow = (row: Record<string, unknown>) => ({
  id: 4,
  type: 14,
  key: 'k',
  status: 1,
  name: 'c',
  weight: 0,
  priority: 0,
  base_url: null,
  other: '',
  models: 'm',
  group: 'default',
  model_mapping: null,
  setting: null,
  param_override: null,
  header_override: null,
  tag: null,
  channel_info: null,
  status_code_mapping: '',
  auto_ban: 1,
  openai_organization: null,
  test_model: null,
  ...row,
});

describe('new-api rows', () => {
  it('reads soft deletes, text Telegram ids and invite counters', () => {
    const [dave, alice] = profile.users([
      { id: '5', username: 'dave', status: '1', deleted_at: '2025-01-01 00:00:00+00:00', telegram_id: '' },
      {
        id: '3',
        username: 'alice',
        telegram_id: '123456789',
        aff_count: '2',
        aff_history: '80000',
        access_token: null,
      },
    ]);
    expect(dave).toMatchObject({ status: 1, deleted_at: 1_735_689_600, telegram_id: 0 });
    expect(alice).toMatchObject({ telegram_id: 123_456_789, aff_count: 2, aff_history: 80_000, access_token: '' });
  });

  it('limits models only when model limits are on, splits IP lists, and maps the auto group away', () => {
    const [on, off, auto] = profile.tokens([
      { id: 1, key: 'a', model_limits_enabled: true, model_limits: 'gpt-4o,o1', allow_ips: '10.0.0.1\n10.0.0.0/8' },
      { id: 2, key: 'b', model_limits_enabled: 0, model_limits: 'gpt-4', allow_ips: null, group: 'vip' },
      { id: 3, key: 'c', model_limits_enabled: '0', group: 'auto', deleted_at: new Date(1_735_689_600_000) },
    ]);
    expect(on?.setting).toEqual({
      limits: {
        limit_model_setting: { enabled: true, models: ['gpt-4o', 'o1'] },
        limits_ip_setting: { enabled: true, whitelist: ['10.0.0.1', '10.0.0.0/8'] },
      },
    });
    expect(off).toMatchObject({
      group: 'vip',
      setting: { limits: { limit_model_setting: { enabled: false, models: [] } } },
    });
    expect(auto).toMatchObject({ group: '', deleted_at: 1_735_689_600 });
  });

  it('disables expired unused codes, drops deleted ones and keeps the redeemer', () => {
    const codes = profile.redemptions([
      { id: 1, key: 'k1', status: 1, expired_time: 1 },
      { id: 2, key: 'k2', status: 3, used_user_id: '3' },
      { id: 3, key: 'k3', status: 1, deleted_at: new Date() },
      { id: 4, key: 'k4', status: 1, expired_time: 4_102_444_800 },
    ]);
    expect(codes.map((code) => [code.id, code.status, code.redeemed_user_id])).toEqual([
      [1, 2, 0],
      [2, 3, 3],
      [4, 1, 0],
    ]);
  });

  it('maps log seconds to ms, `ip` to source_ip, `other` to metadata, and error/refund logs to system', () => {
    const [consume, error, refund] = profile.logs([
      {
        id: 1,
        type: 2,
        use_time: '3',
        ip: '203.0.113.9',
        group: 'vip',
        other: '{"model_ratio":1.25,"completion_ratio":4,"group_ratio":1.2,"model_price":-1,"frt":420,"admin_info":{}}',
      },
      { id: 2, type: 5, other: '' },
      { id: 3, type: 6, quota: '300' },
    ]);
    expect(consume).toMatchObject({ type: 2, request_time: 3_000, source_ip: '203.0.113.9' });
    expect(JSON.parse(consume?.metadata ?? '')).toEqual({
      group_name: 'vip',
      price_type: 'tokens',
      group_ratio: 1.2,
      input_ratio: 1.25,
      output_ratio: 5,
      first_response: 420,
    });
    expect(error).toMatchObject({ type: 4, metadata: '{"source_log_type":5}' });
    expect(refund).toMatchObject({ type: 4, quota: 300, metadata: '{"source_log_type":6}' });
  });
});

describe('new-api channels', () => {
  it('carries proxy, header and body overrides, tags and translated types', () => {
    const [claude, aws, vertex, cloudflare, gemini] = profile.channels([
      channelRow({
        setting: '{"proxy":"socks5://p:1080"}',
        header_override: { 'x-a': 'b' },
        param_override: '{"temperature":0.2}',
        tag: 'anthropic',
      }),
      channelRow({ type: '33', key: 'AK|SK|us-west-2' }),
      channelRow({ type: '41', key: '{"project_id":"proj-9"}', other: '{"default":"us-east5","m":"eu"}' }),
      channelRow({ type: '39', key: 'tok', other: 'acct-1' }),
      channelRow({ type: '24', other: 'gemini-extra' }),
    ]);
    expect(claude).toMatchObject({
      type: providerType('anthropic'),
      proxy: 'socks5://p:1080',
      model_headers: '{"x-a":"b"}',
      custom_parameter: '{"temperature":0.2}',
      tag: 'anthropic',
    });
    expect(aws).toMatchObject({ type: providerType('bedrock'), key: 'us-west-2|AK|SK' });
    expect(vertex).toMatchObject({ type: providerType('vertexai'), other: 'us-east5|proj-9' });
    expect(cloudflare).toMatchObject({ type: providerType('cloudflare'), key: 'acct-1|tok', other: '' });
    expect(gemini).toMatchObject({ type: providerType('gemini'), other: '' });
  });

  it('keeps the first key of a multi-key channel and notes what is lost', () => {
    const rows = [
      channelRow({ id: 1, type: 1, key: 'sk-a\nsk-b\n', channel_info: { is_multi_key: true } }),
      channelRow({ id: 2, type: 37, auto_ban: 0, status_code_mapping: '{"429":"500"}' }),
    ];
    const [pool, dify] = profile.channels(rows);
    expect(pool).toMatchObject({ key: 'sk-a', status: 1 });
    expect(dify).toMatchObject({ type: providerType('custom'), status: 2 });
    const reasons = channelNotes(rows).map((note) => `${note.row}: ${note.reason}`);
    expect(reasons).toEqual([
      expect.stringMatching(/^1: multi-key channel: only the first of its 2 keys/),
      expect.stringMatching(/^2: Dify channels have no One Hub provider/),
      expect.stringMatching(/^2: its status code mapping/),
      expect.stringMatching(/^2: it was exempt from automatic disabling/),
    ]);
  });
});

describe.each(availableDialects)('a new-api database on %s', (dialect) => {
  let database: TestDatabase;
  let fixture: SourceFixture;
  let source: SourceDb;

  beforeAll(async () => {
    ({ database, fixture } = await buildNewApiSource(dialect));
    source = await openFixtureSource(database);
  });
  afterAll(async () => {
    await source?.close();
    await database?.drop();
  });

  it('is recognised as new-api and nothing else, and reports what it leaves behind', async () => {
    const schema = await source.schema();
    expect(oneHubProfile.detect(schema)).toBe(false);
    expect(profile.detect(schema)).toBe(true);
    expect(oneApiProfile.detect(schema)).toBe(false);
    expect(profile.version(schema)).toContain('multi-key channels');
    const left = profile.notCarried(schema).map((entry) => `${entry.table}${entry.row ? `.${entry.row}` : ''}`);
    expect(left).toEqual(expect.arrayContaining(['quota_data', 'top_ups', 'abilities']));
    expect(left).not.toContain('midjourneys');
    expect(left).not.toContain('tasks');
    expect(left).toContain('users.column discord_id');
    expect(left).not.toContain('models');
  });

  it('reads users whose old passwords still verify, keys with their limits, and channels', async () => {
    const users = profile.users(await source.rowsAfter('users', 0, 100));
    for (const expected of fixture.users) {
      const user = users.find((row) => row.id === expected.id);
      expect(user).toMatchObject({ username: expected.username, quota: expected.quota, status: expected.status });
      expect(user?.deleted_at !== null).toBe(expected.deleted);
      expect(bcrypt.compareSync(expected.password, user?.password ?? '')).toBe(true);
    }
    const tokens = profile.tokens(await source.rowsAfter('tokens', 0, 100));
    for (const expected of fixture.keys) {
      const token = tokens.find((row) => row.id === expected.id);
      expect(token).toMatchObject({ key: expected.key, status: expected.status, unlimited_quota: expected.unlimited });
      expect(token?.deleted_at !== null).toBe(expected.deleted);
      expect(token?.setting).toMatchObject({
        limits: { limit_model_setting: { models: expected.models }, limits_ip_setting: { whitelist: expected.ips } },
      });
    }
    const channels = profile.channels(await source.rowsAfter('channels', 0, 100));
    for (const expected of fixture.channels) {
      expect(channels.find((row) => row.id === expected.id)).toMatchObject({
        type: expected.expectedType,
        key: expected.expectedKey,
        status: expected.expectedStatus,
      });
    }
  });

  it('reads codes, logs, groups, prices and model metadata', async () => {
    const codes = profile.redemptions(await source.rowsAfter('redemptions', 0, 100));
    expect(codes.map((code) => [code.key, code.status])).toEqual(
      fixture.redemptions.map((code) => [code.key, code.expectedStatus]),
    );
    expect(profile.logs(await source.rowsAfter('logs', 0, 100))).toHaveLength(fixture.logCount);
    const options = new Map((await source.allRows('options')).map((row) => [String(row.key), String(row.value)]));
    const groups = await profile.userGroups(source, options);
    expect(groups.map((group) => [group.symbol, group.name, group.public])).toEqual([
      ['default', '默认分组', true],
      ['vip', 'VIP 分组', true],
      ['svip', 'svip', false],
    ]);
    const prices = Object.fromEntries((await profile.prices(source, options)).map((price) => [price.model, price]));
    expect(prices['dall-e-3']).toMatchObject({ type: 'times', input: 20, output: 0 });
    expect(prices['gpt-4o']).toMatchObject({
      type: 'tokens',
      input: 1.25,
      output: 5,
      channel_type: providerType('openai'),
    });
    expect(prices['gpt-4o']?.extra_ratios).toEqual({ cached_tokens: 0.5, cached_read_tokens: 0.5 });
    expect(prices['claude-3-5-sonnet-20240620']?.extra_ratios).toMatchObject({ cached_write_tokens: 1.25 });
    // Audio output costs 1.25 × 16 × 2 = 40 a token in new-api; One Hub's output price is 1.25 × 4 (gpt-4o rule) = 5.
    expect(prices['gpt-4o-audio-preview']?.extra_ratios).toEqual({ input_audio_tokens: 16, output_audio_tokens: 8 });
    expect(prices['unset-model']).toBeUndefined();
    expect(await profile.modelOwners(source)).toEqual([{ id: 1002, name: 'Acme AI', icon: 'Acme' }]);
    const info = await profile.modelInfo(source);
    expect(info.map((row) => row.model)).toEqual(['gpt-4o', 'acme-large']);
    expect(info[0]).toMatchObject({ tags: '["chat","vision"]', description: 'gpt-4o model' });
    expect(await profile.statistics(source)).toEqual([]);
  });

  it('reads Midjourney tasks as One Hub has them, and of the async tasks only Suno’s', async () => {
    const [image] = profile.midjourneys?.(await source.rowsAfter('midjourneys', 0, 100)) ?? [];
    expect(image).toEqual({
      id: 1,
      code: 1,
      user_id: 3,
      action: 'IMAGINE',
      mj_id: 'mj-1',
      prompt: 'a lighthouse',
      prompt_en: '',
      description: '',
      state: '',
      submit_time: 1_712_000_000_123,
      start_time: 0,
      finish_time: 1_712_000_030_456,
      image_url: 'https://mj.example.com/1.png',
      status: 'SUCCESS',
      progress: '100%',
      fail_reason: '',
      channel_id: 10,
      quota: 50_000,
      buttons: '[{"customId":"MJ::JOB::upsample::1","label":"U1"}]',
      properties: '{"finalPrompt":"a lighthouse"}',
      mode: 'fast',
      token_id: 0,
    });
    const rows = await source.rowsAfter('tasks', 0, 100);
    const tasks = profile.tasks?.(rows) ?? [];
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ task_id: 't-1', platform: 'suno', user_id: 3, channel_id: 11, progress: 100 });
    expect(JSON.parse(tasks[0]?.data ?? '')).toEqual([{ id: 'clip-1', status: 'complete' }]);
    expect(JSON.parse(tasks[0]?.properties ?? '')).toEqual({ input: 'a song about rain' });
    expect(profile.taskNotes?.(rows)).toEqual([
      { table: 'tasks', reason: expect.stringContaining("platform '50'"), count: 1 },
    ]);
  });
});
