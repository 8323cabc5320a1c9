import { randomString } from '../../../src/platform/crypto.js';
import type { DialectName } from '../../../src/platform/db/index.js';
import { insertLegacyRows, type SourceKysely } from '../fixture.js';
import { DAY, NOW } from './one-hub-rows.js';

/** The One Hub fixture's small tables, and rows of features this server does not have. */

export async function insertSettings(db: SourceKysely, dialect: DialectName): Promise<void> {
  await insertLegacyRows(db, dialect, 'options', [
    { key: 'SystemName', value: 'Old Hub' },
    { key: 'RetryTimes', value: '2' },
    { key: 'QuotaRemindThreshold', value: 'lots' },
    { key: 'GroupRatio', value: '{"default":1}' },
    { key: 'SomethingOnlyOneHubHas', value: '1' },
    { key: 'SMTPToken', value: 'smtp-secret-value' },
  ]);
  const group = (symbol: string, ratio: number, isPublic: boolean) => ({
    symbol,
    name: symbol.toUpperCase(),
    ratio,
    api_rate: 300,
    public: isPublic,
    promotion: false,
    min: 0,
    max: 0,
    enable: true,
  });
  await insertLegacyRows(db, dialect, 'user_groups', [
    group('default', 1, true),
    group('vip', 1, false),
    group('svip', 0.8, false),
    group('team', 0.5, true),
  ]);
  await insertLegacyRows(db, dialect, 'prices', [
    {
      model: 'gpt-4o-mini',
      type: 'tokens',
      channel_type: 1,
      input: 0.075,
      output: 0.3,
      locked: false,
      extra_ratios: {},
    },
    {
      model: 'claude-3-5-sonnet',
      type: 'tokens',
      channel_type: 14,
      input: 1.5,
      output: 7.5,
      locked: true,
      extra_ratios: { cached_tokens: 0.1 },
    },
    { model: 'dall-e-3', type: 'times', channel_type: 1, input: 20, output: 20, locked: false, extra_ratios: null },
  ]);
  await insertLegacyRows(db, dialect, 'model_owned_by', [
    { id: 1, name: 'OpenAI', icon: 'https://example.com/openai.png' },
    { id: 1001, name: 'Acme AI', icon: 'https://example.com/acme.png' },
  ]);
  await insertLegacyRows(db, dialect, 'model_info', [
    {
      model: 'gpt-4o-mini',
      name: 'GPT-4o mini',
      description: 'small and fast',
      context_length: 128000,
      max_tokens: 16384,
      input_modalities: '["text","image"]',
      output_modalities: '["text"]',
      tags: '["chat"]',
      support_url: 'https://platform.openai.com',
      created_at: NOW - DAY,
      updated_at: NOW - DAY,
    },
  ]);
}

export async function insertUnsupported(db: SourceKysely, dialect: DialectName): Promise<void> {
  await insertLegacyRows(db, dialect, 'payments', [
    {
      type: 'stripe',
      uuid: randomString(32),
      name: 'Stripe',
      icon: '',
      notify_domain: '',
      fixed_fee: 0,
      percent_fee: 0.03,
      currency: 'USD',
      config: '{}',
      sort: 1,
      enable: true,
      created_at: NOW,
      updated_at: NOW,
      deleted_at: null,
    },
  ]);
  await insertLegacyRows(db, dialect, 'midjourneys', [
    { code: 1, user_id: 2, action: 'IMAGINE', mj_id: '1', prompt: 'a cat' },
  ]);
}
