import { nowSeconds } from '../../platform/clock.js';
/**
 * new-api (QuantumNous/new-api), a one-api fork: the same core tables with soft deletes and more
 * columns, plus top-ups, Midjourney and async tasks, hourly quota data, and model/vendor metadata.
 */
import {
  type LegacyLog,
  type LegacyModelInfo,
  type ProductProfile,
  rowsIfPresent,
  type Skipped,
  type SourceDb,
  type SourceRow,
} from '../legacy.js';
import { translateOptions, wellKnownToIssuer } from './family-options.js';
import { groupsFromOptions, pricesFromOptions } from './family-prices.js';
import { familyLog, familyRedemption, familyToken, familyUser, keySetting, ONE_HUB_LOG_TYPES } from './family-rows.js';
import { newApiChannel } from './new-api-channels.js';
import { extraRatiosFrom, modelOwners, NEW_API_LEFTOVERS, ownersByModel } from './new-api-meta.js';
import { midjourneyRow, newApiTaskNotes, newApiTasks } from './task-rows.js';
import {
  objectText,
  toBool,
  toInteger,
  toJsonObject,
  toList,
  toNumber,
  toStringMap,
  toText,
  toUnixSeconds,
} from './values.js';

type Schema = Map<string, Set<string>>;

const has = (schema: Schema, table: string, column?: string) =>
  schema.has(table) && (column === undefined || (schema.get(table)?.has(column) ?? false));

const ONE_HUB_MARKS = ['user_groups', 'prices', 'model_owned_by'];

function newApiUser(row: SourceRow) {
  const telegram = toText(row.telegram_id).trim();
  return familyUser(row, {
    status: toInteger(row.status, 1),
    deleted_at: toUnixSeconds(row.deleted_at),
    // new-api stores the Telegram id as text; One Hub as a number.
    telegram_id: /^\d+$/.test(telegram) ? Number(telegram) : 0,
    lark_id: '',
    aff_count: toInteger(row.aff_count),
    aff_quota: toInteger(row.aff_quota),
    aff_history: toInteger(row.aff_history),
    created_time: toUnixSeconds(row.created_at) ?? 0,
    last_login_time: toInteger(row.last_login_at),
  });
}

/**
 * new-api's `auto` token group picks among its AutoGroups at request time; One Hub has no such
 * group, so such keys fall back to their owner's group (an empty token group).
 */
function newApiToken(row: SourceRow) {
  const models = toBool(row.model_limits_enabled) ? toList(row.model_limits) : [];
  const group = toText(row.group).trim();
  return familyToken(
    row,
    group === 'auto' ? '' : group,
    keySetting(models, toList(row.allow_ips)),
    toUnixSeconds(row.deleted_at),
  );
}

/** A redemption code that expired unused cannot be redeemed in new-api: it arrives disabled. */
function newApiRedemption(row: SourceRow) {
  const status = toInteger(row.status, 1) || 1;
  const expiry = toInteger(row.expired_time);
  const expired = status === 1 && expiry > 0 && expiry < nowSeconds();
  return familyRedemption(row, expired ? 2 : status, toInteger(row.used_user_id));
}

/** new-api's log `other` keys that mean what One Hub's log metadata keys mean (reference §4.7). */
function logMetadata(row: SourceRow, type: number): string {
  const other = toJsonObject(row.other);
  const number = (value: unknown) => (value === undefined || value === null ? undefined : toNumber(value, Number.NaN));
  const modelRatio = number(other.model_ratio);
  const completionRatio = number(other.completion_ratio);
  const modelPrice = number(other.model_price);
  const entries: Record<string, unknown> = {
    group_name: toText(row.group).trim() || undefined,
    price_type: modelPrice !== undefined && modelPrice >= 0 ? 'times' : modelRatio !== undefined ? 'tokens' : undefined,
    group_ratio: number(other.group_ratio),
    input_ratio: modelRatio,
    output_ratio: modelRatio !== undefined && completionRatio !== undefined ? modelRatio * completionRatio : undefined,
    first_response: number(other.frt),
    cached_tokens: number(other.cache_tokens),
    cached_tokens_ratio: number(other.cache_ratio),
    // Error (5) and refund (6) logs are filed as system logs; this keeps what they were.
    source_log_type: ONE_HUB_LOG_TYPES.has(type) ? undefined : type,
  };
  const kept = Object.fromEntries(
    Object.entries(entries).filter(([, value]) => value !== undefined && !Number.isNaN(value)),
  );
  return objectText(kept);
}

/** new-api records `use_time` in seconds (One Hub: request_time in ms) and the client IP as `ip`. */
function newApiLog(row: SourceRow): LegacyLog {
  const type = toInteger(row.type);
  return familyLog(row, {
    type: ONE_HUB_LOG_TYPES.has(type) ? type : 4,
    request_time: toInteger(row.use_time) * 1000,
    source_ip: toText(row.ip),
    metadata: logMetadata(row, type),
  });
}

async function modelInfo(source: SourceDb): Promise<LegacyModelInfo[]> {
  const rows = (await rowsIfPresent(source, 'models')).filter((row) => toUnixSeconds(row.deleted_at) === null);
  // Only exact names: One Hub's model info has no prefix/suffix/contains rules (name_rule 1-3).
  return rows
    .filter((row) => toInteger(row.name_rule) === 0)
    .map((row) => ({
      model: toText(row.model_name),
      name: toText(row.model_name),
      description: toText(row.description),
      context_length: toInteger(row.context_length),
      max_tokens: toInteger(row.max_output_tokens),
      input_modalities: JSON.stringify(toList(row.input_modalities)),
      output_modalities: JSON.stringify(toList(row.output_modalities)),
      tags: JSON.stringify(toList(row.tags)),
      support_url: '[]',
      created_at: toInteger(row.created_time),
      updated_at: toInteger(row.updated_time),
    }));
}

const OPTION_RULES = {
  renames: {
    'oidc.enabled': { to: 'OIDCAuthEnabled' },
    'oidc.client_id': { to: 'OIDCClientId' },
    'oidc.client_secret': { to: 'OIDCClientSecret' },
    'oidc.well_known': { to: 'OIDCIssuer', convert: wellKnownToIssuer },
    AutomaticDisableKeywords: { to: 'DisableChannelKeywords' },
    // new-api's top-up price in CNY per US$, what One Hub calls PaymentUSDRate.
    Price: { to: 'PaymentUSDRate' },
    WorkerUrl: { to: 'CFWorkerImageUrl' },
    WorkerValidKey: { to: 'CFWorkerImageKey' },
  },
  readElsewhere: {
    GroupRatio: 'user groups',
    UserUsableGroups: 'user groups (public ones)',
    ModelRatio: 'prices',
    CompletionRatio: 'prices (output = ModelRatio × CompletionRatio)',
    ModelPrice: 'prices (per-call "times" prices)',
    CacheRatio: 'prices (cached token ratios)',
    CreateCacheRatio: 'prices (cache write ratios)',
    AudioRatio: 'prices (audio token ratios)',
    AudioCompletionRatio: 'prices (audio token ratios)',
    ImageRatio: 'prices (image token ratios)',
  },
};

export function channelNotes(rows: SourceRow[]): Skipped[] {
  return rows.flatMap((row) => newApiChannel(row).notes);
}

export const newApiProfile: ProductProfile = {
  product: 'new-api',
  detect: (schema) =>
    ['users', 'tokens', 'channels', 'options'].every((table) => schema.has(table)) &&
    !ONE_HUB_MARKS.some((table) => schema.has(table)) &&
    (has(schema, 'tokens', 'model_limits_enabled') || schema.has('top_ups') || has(schema, 'users', 'setting')),
  version(schema) {
    const features = [
      has(schema, 'channels', 'channel_info') ? 'multi-key channels (v0.8.5 or later)' : 'single-key channels',
      schema.has('models') && schema.has('vendors') ? 'model and vendor metadata' : 'no model metadata',
      has(schema, 'redemptions', 'expired_time') ? 'expiring redemption codes' : 'redemption codes without expiry',
    ];
    return `new-api (tokens.model_limits_enabled, top_ups, users.setting; ${features.join('; ')})`;
  },
  users: (rows) => rows.map(newApiUser),
  tokens: (rows) => rows.map(newApiToken),
  channels: (rows) => rows.map((row) => newApiChannel(row).channel),
  channelNotes,
  // Soft-deleted codes are gone for new-api's users; they are not carried.
  redemptions: (rows) => rows.filter((row) => toUnixSeconds(row.deleted_at) === null).map(newApiRedemption),
  logs: (rows) => rows.map(newApiLog),
  // Same columns as One Hub's (less mode and token_id); of the tasks only Suno's mean the same here.
  midjourneys: (rows) => rows.map(midjourneyRow),
  tasks: newApiTasks,
  taskNotes: newApiTaskNotes,
  userGroups: async (_source, options) => {
    const usable = toStringMap(options.get('UserUsableGroups'));
    return groupsFromOptions(options, Object.keys(usable).length > 0 ? usable : undefined);
  },
  prices: async (source, options) =>
    pricesFromOptions({ options, owners: await ownersByModel(source), extraRatios: extraRatiosFrom(options) }),
  // quota_data is hourly per user and model, without channel or prompt/completion split (see notCarried).
  statistics: async () => [],
  modelOwners,
  modelInfo,
  options: (options) => translateOptions(options, OPTION_RULES),
  notCarried: (schema) => NEW_API_LEFTOVERS(schema),
};

export const profile = newApiProfile;
