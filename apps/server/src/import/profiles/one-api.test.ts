import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, type TestDatabase } from '../../../test/databases.js';
import { openFixtureSource, type SourceFixture } from '../../../test/import/sources/gorm-tables.js';
import { buildOneApiSource } from '../../../test/import/sources/one-api.js';
import { providerType } from '../../domain/channel-types/registry.js';
import type { SourceDb } from '../legacy.js';
import { newApiProfile } from './new-api.js';
import { channelNotes, oneApiProfile as profile } from './one-api.js';
import { oneHubProfile } from './one-hub.js';

/**
 * Rows as MySQL or SQLite hand them over: numbers as strings, booleans as 0/1. Their `type` ids are
 * one-api's own numbering, the vocabulary the importer translates, so they stay numbers; what the
 * importer makes of them is named by slug.
 */
const channelRow = (row: Record<string, unknown>) => ({
  id: '7',
  type: '1',
  key: 'k',
  status: '1',
  name: 'c',
  weight: '0',
  priority: '3',
  base_url: null,
  other: null,
  models: 'gpt-4o',
  group: '',
  model_mapping: '{}',
  config: '',
  system_prompt: null,
  ...row,
});

describe('detecting one-api', () => {
  const tables = (names: string[]) => new Map(names.map((name) => [name, new Set(['id'])]));
  const core = ['users', 'tokens', 'channels', 'options', 'redemptions', 'abilities', 'logs'];

  it('does not claim a One Hub database (user_groups, prices) nor a new-api one (top_ups)', () => {
    for (const extra of ['user_groups', 'prices', 'model_owned_by', 'top_ups', 'quota_data']) {
      expect(profile.detect(tables([...core, extra]))).toBe(false);
    }
    expect(newApiProfile.detect(tables([...core, 'top_ups', 'user_groups']))).toBe(false);
    expect(profile.detect(tables(core))).toBe(true);
    expect(profile.detect(tables(core.filter((table) => table !== 'abilities')))).toBe(false);
  });
});

describe('one-api rows', () => {
  it('marks a status-3 user deleted and disabled, and keeps bindings and balances', () => {
    const [deleted, alice] = profile.users([
      { id: '5', username: 'deleted_x', password: '$2a$10$h', role: '1', status: '3', quota: '300', group: null },
      {
        id: 3,
        username: 'alice',
        role: 1,
        status: 1,
        quota: '2500000',
        used_quota: 9n,
        github_id: 'gh',
        lark_id: 'ou',
      },
    ]);
    expect(deleted).toMatchObject({ id: 5, status: 2, quota: 300, group: 'default' });
    expect(deleted?.deleted_at).toBeGreaterThan(1_700_000_000);
    expect(alice).toMatchObject({ quota: 2_500_000, used_quota: 9, github_id: 'gh', lark_id: 'ou', deleted_at: null });
  });

  it('turns token models and subnet into model and IP whitelists, and keeps -1 as never expiring', () => {
    const [limited, open] = profile.tokens([
      { id: '1', key: 'a'.repeat(48), status: '1', models: 'gpt-4o, gpt-4o-mini', subnet: '10.0.0.0/8,1.2.3.4' },
      { id: '2', key: `sk-${'b'.repeat(48)}`, unlimited_quota: 1, expired_time: '0', models: null, subnet: '' },
    ]);
    expect(limited?.setting).toEqual({
      limits: {
        limit_model_setting: { enabled: true, models: ['gpt-4o', 'gpt-4o-mini'] },
        limits_ip_setting: { enabled: true, whitelist: ['10.0.0.0/8', '1.2.3.4'] },
      },
    });
    expect(open).toMatchObject({ key: 'b'.repeat(48), unlimited_quota: true, expired_time: -1, group: '' });
    expect(open?.setting).toMatchObject({ limits: { limit_model_setting: { enabled: false } } });
  });

  it('files channel-test logs (type 5) as system logs and keeps elapsed time in ms', () => {
    const [consume, test] = profile.logs([
      { id: '1', type: '2', quota: '2500', elapsed_time: '1500', is_stream: 1, channel_id: '1' },
      { id: '2', type: '5', content: 'test' },
    ]);
    expect(consume).toMatchObject({ type: 2, quota: 2_500, request_time: 1_500, is_stream: true, metadata: '' });
    expect(test).toMatchObject({ type: 4, metadata: '{"source_log_type":5}' });
  });
});

describe('one-api channels', () => {
  it('translates type ids and per-type settings', () => {
    const [gemini, azure, aws, vertex, cloudflare, tencent, reseller] = profile.channels([
      channelRow({ type: '24', config: '{"api_version":"v1beta"}' }),
      channelRow({ type: '3', config: '', other: '2023-05-15' }),
      channelRow({ type: '33', key: '', config: '{"region":"eu-west-1","ak":"AK","sk":"SK"}' }),
      channelRow({ type: '42', key: 'r|p|{"a":"x|y"}', config: '' }),
      channelRow({ type: '37', key: 'token', config: '{"user_id":"acct"}' }),
      channelRow({ type: '23', key: '1|sid|skey' }),
      channelRow({ type: '2' }),
    ]);
    expect(gemini).toMatchObject({
      type: providerType('gemini'),
      other: 'v1beta',
      weight: 1,
      priority: 3,
      group: 'default',
      model_mapping: '',
    });
    expect(azure).toMatchObject({ type: providerType('azure'), other: '2023-05-15' });
    expect(aws).toMatchObject({ type: providerType('bedrock'), key: 'eu-west-1|AK|SK' });
    expect(vertex).toMatchObject({ type: providerType('vertexai'), key: '{"a":"x|y"}', other: 'r|p' });
    expect(cloudflare).toMatchObject({ type: providerType('cloudflare'), key: 'acct|token' });
    expect(tencent).toMatchObject({ type: providerType('hunyuan'), key: 'sid|skey' });
    expect(reseller).toMatchObject({ type: providerType('custom'), base_url: 'https://oa.api2d.net', status: 1 });
  });

  it('keeps a channel One Hub cannot call, disabled, and says why', () => {
    const rows = [
      channelRow({ type: '38', status: '1' }),
      channelRow({ id: 8, type: '1', system_prompt: 'Be brief.' }),
    ];
    expect(profile.channels(rows).map((channel) => [channel.type, channel.status])).toEqual([
      [8, 2],
      [1, 1],
    ]);
    const notes = channelNotes(rows);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatchObject({ table: 'channels', row: 7 });
    expect(notes[0]?.reason).toContain('DeepL');
    expect(notes[1]).toMatchObject({ row: 8, reason: expect.stringContaining('system prompt') });
  });
});

describe('one-api options, groups and prices', () => {
  const options = new Map([
    ['GroupRatio', '{"default":1,"vip":1.5}'],
    ['ModelRatio', '{"gpt-4o":2.5,"glm-4(16)":0.7,"gpt-3.5-turbo":0.25}'],
    ['CompletionRatio', '{"gpt-4o":3}'],
    ['OidcWellKnown', 'https://id.example.com/.well-known/openid-configuration'],
    ['SystemName', 'Old'],
    ['Theme', 'berry'],
  ]);
  const noSource = {} as SourceDb;

  it('converts ratios to One Hub prices: input = ratio, output = ratio × completion ratio', async () => {
    const prices = await profile.prices(noSource, options);
    const byModel = Object.fromEntries(prices.map((price) => [price.model, price]));
    expect(byModel['gpt-4o']).toMatchObject({
      type: 'tokens',
      input: 2.5,
      output: 7.5,
      channel_type: providerType('openai'),
    });
    // No CompletionRatio entry: one-api's built-in rule for gpt-3.5-turbo (3) applies.
    expect(byModel['gpt-3.5-turbo']).toMatchObject({ input: 0.25, output: 0.75 });
    expect(byModel['glm-4']).toMatchObject({ input: 0.7, output: 0.7, channel_type: providerType('zhipu') });
  });

  it('reads groups from GroupRatio, with only default public', async () => {
    const groups = await profile.userGroups(noSource, options);
    expect(groups).toEqual([
      expect.objectContaining({ symbol: 'default', ratio: 1, public: true, api_rate: 600, enable: true }),
      expect.objectContaining({ symbol: 'vip', ratio: 1.5, public: false }),
    ]);
    expect(await profile.userGroups(noSource, new Map())).toHaveLength(3);
  });

  it('renames OIDC options, keeps shared keys and reports the rest', () => {
    const { options: kept, skipped } = profile.options(options);
    expect(kept.get('OIDCIssuer')).toBe('https://id.example.com');
    expect(kept.get('SystemName')).toBe('Old');
    expect(kept.has('ModelRatio')).toBe(false);
    expect(skipped.map((entry) => entry.row)).toEqual(['GroupRatio', 'ModelRatio', 'CompletionRatio', 'Theme']);
  });
});

describe.each(availableDialects)('a one-api database on %s', (dialect) => {
  let database: TestDatabase;
  let fixture: SourceFixture;
  let source: SourceDb;

  beforeAll(async () => {
    ({ database, fixture } = await buildOneApiSource(dialect));
    source = await openFixtureSource(database);
  });
  afterAll(async () => {
    await source?.close();
    await database?.drop();
  });

  it('is recognised as one-api and nothing else', async () => {
    const schema = await source.schema();
    expect(oneHubProfile.detect(schema)).toBe(false);
    expect(newApiProfile.detect(schema)).toBe(false);
    expect(profile.detect(schema)).toBe(true);
    expect(profile.version(schema)).toContain('channel config JSON');
    expect(profile.notCarried(schema).map((entry) => entry.table)).toContain('abilities');
  });

  it('reads users whose old passwords still verify, with balances and deletions', async () => {
    const users = profile.users(await source.rowsAfter('users', 0, 100));
    for (const expected of fixture.users) {
      const user = users.find((row) => row.id === expected.id);
      expect(user).toMatchObject({ username: expected.username, role: expected.role, quota: expected.quota });
      expect(user?.deleted_at !== null).toBe(expected.deleted);
      expect(bcrypt.compareSync(expected.password, user?.password ?? '')).toBe(true);
    }
  });

  it('reads every key as the client has it, with its limits', async () => {
    const tokens = profile.tokens(await source.rowsAfter('tokens', 0, 100));
    for (const expected of fixture.keys) {
      const token = tokens.find((row) => row.id === expected.id);
      expect(token).toMatchObject({ key: expected.key, status: expected.status, unlimited_quota: expected.unlimited });
      expect(token?.setting).toMatchObject({
        limits: { limit_model_setting: { models: expected.models }, limits_ip_setting: { whitelist: expected.ips } },
      });
    }
  });

  it('reads channels with translated types and keys, and codes with their status', async () => {
    const channels = profile.channels(await source.rowsAfter('channels', 0, 100));
    for (const expected of fixture.channels) {
      expect(channels.find((row) => row.id === expected.id)).toMatchObject({
        name: expected.name,
        type: expected.expectedType,
        key: expected.expectedKey,
        status: expected.expectedStatus,
      });
    }
    const codes = profile.redemptions(await source.rowsAfter('redemptions', 0, 100));
    expect(codes.map((code) => [code.key, code.status])).toEqual(
      fixture.redemptions.map((code) => [code.key, code.expectedStatus]),
    );
    expect(profile.logs(await source.rowsAfter('logs', 0, 100))).toHaveLength(fixture.logCount);
  });
});
