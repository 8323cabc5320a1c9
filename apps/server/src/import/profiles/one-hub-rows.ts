import type { LegacyChannel, LegacyLog, LegacyRedemption, LegacyToken, LegacyUser, SourceRow } from '../legacy.js';
import { familyLog, familyRedemption, familyToken, sharedUserColumns } from './family-rows.js';
import { toBool, toInteger, toJsonText, toJsonValue, toNumber, toText, toUnixSeconds } from './values.js';

/**
 * One Hub's rows (reference §3.1) are already in the shapes the writer takes; this only reads
 * each column leniently (drivers differ) and applies GORM's defaults to zero values.
 */

export function oneHubUser(row: SourceRow): LegacyUser {
  return {
    ...sharedUserColumns(row),
    status: toInteger(row.status, 1),
    avatar_url: toText(row.avatar_url),
    github_id_new: toInteger(row.github_id_new),
    lark_id: toText(row.lark_id),
    telegram_id: toInteger(row.telegram_id),
    group: toText(row.group) || 'default',
    aff_count: toInteger(row.aff_count),
    aff_quota: toInteger(row.aff_quota),
    aff_history: toInteger(row.aff_history),
    last_login_time: toInteger(row.last_login_time),
    last_login_ip: toText(row.last_login_ip),
    created_time: toInteger(row.created_time),
    deleted_at: toUnixSeconds(row.deleted_at),
  };
}

interface LimitSetting {
  enabled?: unknown;
  models?: unknown;
  whitelist?: unknown;
}

/**
 * Before One Hub's migration 202510160002 a key's model limit sat directly in `limits`
 * ({enabled, models}); it moved to `limits.limit_model_setting`. Either form is read.
 */
export function oneHubTokenSetting(value: unknown): unknown {
  const setting = toJsonValue(value);
  if (!setting || typeof setting !== 'object' || Array.isArray(setting)) return {};
  const { limits, ...rest } = setting as { limits?: Record<string, unknown> };
  if (!limits || typeof limits !== 'object') return rest;
  const { enabled, models, ...newer } = limits as LimitSetting & Record<string, unknown>;
  const modelSetting = newer.limit_model_setting ?? (models === undefined ? undefined : { enabled, models });
  return {
    ...rest,
    limits: { ...newer, ...(modelSetting === undefined ? {} : { limit_model_setting: modelSetting }) },
  };
}

export function oneHubToken(row: SourceRow): LegacyToken {
  return {
    ...familyToken(row, toText(row.group), oneHubTokenSetting(row.setting), toUnixSeconds(row.deleted_at)),
    backup_group: toText(row.backup_group),
  };
}

export function oneHubChannel(row: SourceRow): LegacyChannel {
  return {
    id: toInteger(row.id),
    type: toInteger(row.type),
    key: toText(row.key),
    status: toInteger(row.status, 1),
    name: toText(row.name),
    weight: toInteger(row.weight, 1),
    created_time: toInteger(row.created_time),
    test_time: toInteger(row.test_time),
    response_time: toInteger(row.response_time),
    base_url: toText(row.base_url),
    other: toText(row.other),
    balance: toNumber(row.balance),
    balance_updated_time: toInteger(row.balance_updated_time),
    models: toText(row.models),
    group: toText(row.group) || 'default',
    tag: toText(row.tag),
    used_quota: toInteger(row.used_quota),
    model_mapping: toJsonText(row.model_mapping, ''),
    model_headers: toJsonText(row.model_headers, ''),
    custom_parameter: toJsonText(row.custom_parameter, ''),
    priority: toInteger(row.priority),
    proxy: toText(row.proxy),
    test_model: toText(row.test_model),
    only_chat: toBool(row.only_chat),
    pre_cost: toInteger(row.pre_cost, 1) || 1,
    compatible_response: toBool(row.compatible_response),
    allow_extra_body: toBool(row.allow_extra_body),
    // Theirs has no strategy per channel: the group's applies.
    routing_strategy: '',
    disabled_stream: toJsonText(row.disabled_stream, '[]'),
    plugin: toJsonText(row.plugin, ''),
    deleted_at: toUnixSeconds(row.deleted_at),
  };
}

export function oneHubRedemption(row: SourceRow): LegacyRedemption {
  // One Hub does not record who redeemed a code.
  return familyRedemption(row, toInteger(row.status, 1) || 1, 0);
}

export function oneHubLog(row: SourceRow): LegacyLog {
  return familyLog(row, {
    type: toInteger(row.type),
    request_time: toInteger(row.request_time),
    source_ip: toText(row.source_ip),
    metadata: toJsonText(row.metadata, ''),
  });
}
