import { nowSeconds } from '../../platform/clock.js';
/**
 * one-api (songquanpeng/one-api), the ancestor of One Hub and new-api: users, tokens, channels,
 * options, redemptions, abilities and logs (model/*.go). Groups and prices live in options.
 */
import type { LegacyLog, LegacyUser, ProductProfile, Skipped, SourceRow } from '../legacy.js';
import { CUSTOM_TYPE, ONE_API_CHANNEL_TYPES, translateChannelType } from './channel-types.js';
import { leftovers, translateOptions, wellKnownToIssuer } from './family-options.js';
import { groupsFromOptions, pricesFromOptions } from './family-prices.js';
import { familyLog, familyRedemption, familyToken, familyUser, keySetting, ONE_HUB_LOG_TYPES } from './family-rows.js';
import { oneApiChannel } from './one-api-channels.js';
import { toInteger, toList, toText } from './values.js';

type Schema = Map<string, Set<string>>;

const has = (schema: Schema, table: string, column?: string) =>
  schema.has(table) && (column === undefined || (schema.get(table)?.has(column) ?? false));

/** One Hub's own tables; new-api's additions. A one-api database has none of them. */
const ONE_HUB_MARKS = ['user_groups', 'prices', 'model_owned_by'];
const NEW_API_MARKS = ['top_ups', 'quota_data', 'midjourneys', 'tasks', 'vendors', 'setups'];

/** one-api marks a deleted user with status 3 (and renames it `deleted_<uuid>`) instead of a deleted_at. */
const USER_DELETED = 3;

function oneApiUser(row: SourceRow): LegacyUser {
  const deleted = toInteger(row.status, 1) === USER_DELETED;
  return familyUser(row, {
    status: deleted ? 2 : toInteger(row.status, 1),
    // one-api does not record when; the import is the latest moment it is known to be deleted.
    deleted_at: deleted ? nowSeconds() : null,
    telegram_id: 0,
    lark_id: toText(row.lark_id),
    aff_count: 0,
    aff_quota: 0,
    aff_history: 0,
    created_time: 0,
    last_login_time: 0,
  });
}

/** one-api's token `models` (allowed models) and `subnet` (allowed CIDRs), both comma lists. */
function oneApiToken(row: SourceRow) {
  return familyToken(row, '', keySetting(toList(row.models), toList(row.subnet)), null);
}

/** one-api's type 5 marks channel-test records; One Hub files those under system (4). */
function oneApiLog(row: SourceRow): LegacyLog {
  const type = toInteger(row.type);
  return familyLog(row, {
    type: ONE_HUB_LOG_TYPES.has(type) ? type : 4,
    request_time: toInteger(row.elapsed_time),
    source_ip: '',
    metadata: ONE_HUB_LOG_TYPES.has(type) ? '' : JSON.stringify({ source_log_type: type }),
  });
}

/** A `model(type)` ratio key names a one-api channel type; its One Hub owner is the translated type. */
function ownerOfSourceType(sourceType: number): number {
  const { type, missing } = translateChannelType(ONE_API_CHANNEL_TYPES, sourceType);
  return missing || type === CUSTOM_TYPE ? 0 : type;
}

const OPTION_RULES = {
  renames: {
    OidcEnabled: { to: 'OIDCAuthEnabled' },
    OidcClientId: { to: 'OIDCClientId' },
    OidcClientSecret: { to: 'OIDCClientSecret' },
    OidcWellKnown: { to: 'OIDCIssuer', convert: wellKnownToIssuer },
  },
  readElsewhere: {
    GroupRatio: 'user groups',
    ModelRatio: 'prices',
    CompletionRatio: 'prices (output = ModelRatio × CompletionRatio)',
  },
};

const LEFTOVERS = {
  carried: new Set(['users', 'tokens', 'channels', 'options', 'redemptions', 'logs']),
  reasons: {
    abilities: 'derived data: One Hub rebuilds its routing index from each channel’s models, groups and priority',
  } as Record<string, string>,
  columns: {
    channels: { system_prompt: 'One Hub has no per-channel system prompt (reported per channel)' },
    logs: { request_id: 'One Hub keeps no request id in logs', system_prompt_reset: 'no counterpart' },
  },
};

export function channelNotes(rows: SourceRow[]): Skipped[] {
  return rows.flatMap((row) => oneApiChannel(row).notes);
}

export const oneApiProfile: ProductProfile = {
  product: 'one-api',
  detect: (schema) =>
    ['users', 'tokens', 'channels', 'options', 'abilities'].every((table) => schema.has(table)) &&
    !ONE_HUB_MARKS.some((table) => schema.has(table)) &&
    !NEW_API_MARKS.some((table) => schema.has(table)) &&
    !has(schema, 'tokens', 'model_limits_enabled') &&
    !has(schema, 'users', 'setting'),
  version(schema) {
    const features = [
      has(schema, 'channels', 'config') ? 'channel config JSON (v0.6.8 or later)' : 'channel settings in `other` only',
      has(schema, 'tokens', 'subnet') ? 'key model and subnet limits' : 'no key limits',
      has(schema, 'users', 'oidc_id') ? 'OIDC bindings' : 'no OIDC',
    ];
    return `one-api (has abilities, no user_groups, prices or new-api tables; ${features.join('; ')})`;
  },
  users: (rows) => rows.map(oneApiUser),
  tokens: (rows) => rows.map(oneApiToken),
  channels: (rows) => rows.map((row) => oneApiChannel(row).channel),
  channelNotes,
  redemptions: (rows) =>
    rows.map((row) => familyRedemption(row, toInteger(row.status, 1) || 1, 0 /* one-api keeps no redeemer */)),
  logs: (rows) => rows.map(oneApiLog),
  userGroups: async (_source, options) => groupsFromOptions(options),
  prices: async (_source, options) => pricesFromOptions({ options, ownerOfSourceType }),
  // one-api has no daily roll-up; consume logs are carried and One Hub derives statistics from them.
  statistics: async () => [],
  modelOwners: async () => [],
  modelInfo: async () => [],
  options: (options) => translateOptions(options, OPTION_RULES),
  notCarried: (schema) => leftovers(schema, LEFTOVERS),
};

export const profile = oneApiProfile;
