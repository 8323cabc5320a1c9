import type { Kysely } from 'kysely';
import type { DialectName } from '../../../src/platform/db/index.js';
import { gormTime, insertRows } from './gorm-tables.js';

/** new-api fixture parts: the options it stores, and rows of the tables the importer leaves behind. */

const NOW = 1_735_689_600; // 2025-01-01T00:00:00Z

export const NEW_API_OPTIONS: Record<string, string> = {
  GroupRatio: '{"default":1,"vip":1.2,"svip":0.9}',
  UserUsableGroups: '{"default":"默认分组","vip":"VIP 分组"}',
  ModelRatio: '{"gpt-4o":1.25,"claude-3-5-sonnet-20240620":1.5,"gpt-4o-audio-preview":1.25,"dall-e-3":8}',
  CompletionRatio: '{"gpt-4o":4}',
  ModelPrice: '{"dall-e-3":0.04,"mj_imagine":0.1,"unset-model":-1}',
  CacheRatio: '{"gpt-4o":0.5,"claude-3-5-sonnet-20240620":0.1}',
  CreateCacheRatio: '{"claude-3-5-sonnet-20240620":1.25}',
  AudioRatio: '{"gpt-4o-audio-preview":16}',
  AudioCompletionRatio: '{"gpt-4o-audio-preview":2}',
  QuotaPerUnit: '500000',
  SystemName: 'New API site',
  'oidc.enabled': 'true',
  'oidc.well_known': 'https://sso.example.com/.well-known/openid-configuration',
  AutomaticDisableKeywords: 'Your credit balance is too low\nPermission denied',
  Price: '7.2',
  DataExportEnabled: 'true',
  Chats: '[{"ChatGPT Next Web":"https://chat.example.com/#/?settings={key}"}]',
};

/** Model metadata, and one row in each table that is not carried over. */
export async function fillNewApiExtras(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await insertRows(db, 'abilities', [
    { group: 'default', model: 'gpt-4o', channel_id: 1, enabled: true, priority: 10, weight: 3, tag: 'openai' },
  ]);
  await insertRows(db, 'vendors', [
    { id: 1, name: 'OpenAI', icon: 'OpenAI', status: 1, created_time: NOW, updated_time: NOW },
    { id: 2, name: 'Acme AI', icon: 'Acme', status: 1, created_time: NOW, updated_time: NOW },
    { id: 3, name: 'Gone Inc', icon: '', status: 1, created_time: NOW, deleted_at: gormTime(dialect, NOW) },
  ]);
  const model = (id: number, name: string, vendor: number, nameRule = 0, deleted = false) => ({
    id,
    model_name: name,
    description: `${name} model`,
    tags: 'chat,vision',
    vendor_id: vendor,
    status: 1,
    created_time: NOW,
    updated_time: NOW + 1,
    name_rule: nameRule,
    deleted_at: deleted ? gormTime(dialect, NOW) : null,
  });
  await insertRows(db, 'models', [
    model(1, 'gpt-4o', 1),
    model(2, 'acme-large', 2),
    model(3, 'acme-', 2, 1),
    model(4, 'old-model', 2, 0, true),
  ]);
  await insertRows(db, 'midjourneys', [
    {
      id: 1,
      code: 1,
      user_id: 3,
      action: 'IMAGINE',
      mj_id: 'mj-1',
      prompt: 'a lighthouse',
      submit_time: 1_712_000_000_123,
      finish_time: 1_712_000_030_456,
      image_url: 'https://mj.example.com/1.png',
      status: 'SUCCESS',
      progress: '100%',
      channel_id: 10,
      quota: 50_000,
      buttons: '[{"customId":"MJ::JOB::upsample::1","label":"U1"}]',
      properties: '{"finalPrompt":"a lighthouse"}',
    },
  ]);
  await insertRows(db, 'top_ups', [
    {
      id: 1,
      user_id: 3,
      amount: 10,
      money: 73,
      trade_no: 'T1',
      payment_method: 'alipay',
      create_time: NOW,
      complete_time: NOW,
      status: 'success',
    },
  ]);
  await insertRows(db, 'quota_data', [
    {
      id: 1,
      user_id: 3,
      username: 'alice',
      model_name: 'gpt-4o',
      created_at: NOW,
      token_used: 850,
      count: 1,
      quota: 1_250,
    },
  ]);
  await insertRows(db, 'tasks', [
    {
      id: 1,
      created_at: NOW,
      updated_at: NOW,
      task_id: 't-1',
      platform: 'suno',
      user_id: 3,
      channel_id: 11,
      quota: 1000,
      action: 'MUSIC',
      status: 'SUCCESS',
      progress: '100%',
      submit_time: NOW - 60,
      finish_time: NOW,
      properties: JSON.stringify({ input: 'a song about rain' }),
      data: JSON.stringify([{ id: 'clip-1', status: 'complete' }]),
    },
    // A Kling video task: new-api names its video platforms by channel type; not carried.
    {
      id: 2,
      created_at: NOW,
      updated_at: NOW,
      task_id: 'v-1',
      platform: '50',
      user_id: 3,
      status: 'QUEUED',
      progress: '0%',
    },
  ]);
  await insertRows(db, 'setups', [{ id: 1, version: 'v0.9.0', initialized_at: NOW }]);
}
