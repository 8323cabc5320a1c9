import { centsOf, centsText } from '../../payments/money.js';
import {
  type LegacyModelInfo,
  type LegacyModelOwner,
  type LegacyOrder,
  type LegacyPayment,
  type LegacyPrice,
  type LegacyStatistic,
  type LegacyUserGroup,
  type ProductProfile,
  rowsIfPresent,
  type Skipped,
  type SourceDb,
  type SourceRow,
} from '../legacy.js';
import { oneHubChannel, oneHubLog, oneHubRedemption, oneHubToken, oneHubUser } from './one-hub-rows.js';
import { midjourneyRow, taskRow, telegramMenus } from './task-rows.js';
import { toBool, toDateOnly, toInteger, toNumber, toNumberMap, toText, toUnixSeconds } from './values.js';

type Schema = Map<string, Set<string>>;

const has = (schema: Schema, table: string, column?: string) =>
  schema.has(table) && (column === undefined || (schema.get(table)?.has(column) ?? false));

/** Option keys One Hub itself only reads in its own migrations (their content is in `prices` and `user_groups`). */
const LEGACY_OPTION_KEYS = new Set(['GroupRatio', 'ModelRatio', 'CompletionRatio', 'ExtraTokenPriceJson']);

/** Tables this server does not carry over, with the reason the report gives. */
const NOT_CARRIED: Record<string, string> = {
  webauthn_credentials: 'a passkey is bound to the site that registered it: users add theirs again in their profile',
  statistics_months: 'monthly invoices are built here from the daily statistics, which are carried over',
  statistics_month_generated_histories: 'monthly invoices are built here from the daily statistics',
};

/** Before migration 202410300001 group ratios lived in the `GroupRatio` option as {symbol: ratio}. */
function groupsFromRatioOption(options: Map<string, string>): LegacyUserGroup[] {
  const ratios = toNumberMap(options.get('GroupRatio'));
  return Object.entries(ratios).map(([symbol, ratio]) => ({
    symbol,
    name: symbol,
    ratio,
    api_rate: 600,
    public: symbol === 'default',
    promotion: false,
    min: 0,
    max: 0,
    enable: true,
  }));
}

async function userGroups(source: SourceDb, options: Map<string, string>): Promise<LegacyUserGroup[]> {
  if (!(await source.schema()).has('user_groups')) return groupsFromRatioOption(options);
  return (await source.allRows('user_groups')).map((row) => ({
    symbol: toText(row.symbol),
    name: toText(row.name),
    ratio: toNumber(row.ratio, 1),
    api_rate: toInteger(row.api_rate, 600),
    public: toBool(row.public),
    promotion: toBool(row.promotion),
    min: toInteger(row.min),
    max: toInteger(row.max),
    enable: row.enable === undefined ? true : toBool(row.enable),
  }));
}

async function prices(source: SourceDb): Promise<LegacyPrice[]> {
  return (await rowsIfPresent(source, 'prices')).map((row) => ({
    model: toText(row.model),
    type: toText(row.type) === 'times' ? 'times' : 'tokens',
    channel_type: toInteger(row.channel_type),
    input: toNumber(row.input),
    output: toNumber(row.output),
    locked: toBool(row.locked),
    extra_ratios: toNumberMap(row.extra_ratios),
  }));
}

async function statistics(source: SourceDb): Promise<LegacyStatistic[]> {
  return (await rowsIfPresent(source, 'statistics')).map((row) => ({
    date: toDateOnly(row.date),
    user_id: toInteger(row.user_id),
    channel_id: toInteger(row.channel_id),
    model_name: toText(row.model_name),
    request_count: toInteger(row.request_count),
    quota: toInteger(row.quota),
    prompt_tokens: toInteger(row.prompt_tokens),
    completion_tokens: toInteger(row.completion_tokens),
    request_time: toInteger(row.request_time),
  }));
}

async function modelOwners(source: SourceDb): Promise<LegacyModelOwner[]> {
  return (await rowsIfPresent(source, 'model_owned_by')).map((row) => ({
    id: toInteger(row.id),
    name: toText(row.name),
    icon: toText(row.icon),
  }));
}

async function modelInfo(source: SourceDb): Promise<LegacyModelInfo[]> {
  return (await rowsIfPresent(source, 'model_info')).map((row) => ({
    model: toText(row.model),
    name: toText(row.name),
    description: toText(row.description),
    context_length: toInteger(row.context_length),
    max_tokens: toInteger(row.max_tokens),
    input_modalities: toText(row.input_modalities) || '[]',
    output_modalities: toText(row.output_modalities) || '[]',
    tags: toText(row.tags) || '[]',
    support_url: toText(row.support_url) || '[]',
    created_at: toUnixSeconds(row.created_at) ?? 0,
    updated_at: toUnixSeconds(row.updated_at) ?? 0,
  }));
}

/** A decimal(10,2) column's value as the two-decimal text the target column takes (0 when unreadable). */
function money(value: unknown): string {
  try {
    return centsText(centsOf(typeof value === 'number' || typeof value === 'string' ? value : 0));
  } catch {
    return '0.00';
  }
}

/** GORM's soft delete: a `deleted_at` time, carried as Unix seconds. */
const deletedAt = (row: SourceRow) => toUnixSeconds(row.deleted_at);

async function payments(source: SourceDb): Promise<LegacyPayment[]> {
  return (await rowsIfPresent(source, 'payments')).map((row) => ({
    id: toInteger(row.id),
    type: toText(row.type),
    uuid: toText(row.uuid),
    name: toText(row.name),
    icon: toText(row.icon),
    notify_domain: toText(row.notify_domain),
    fixed_fee: money(row.fixed_fee),
    percent_fee: money(row.percent_fee),
    currency: toText(row.currency),
    config: toText(row.config),
    sort: toInteger(row.sort, 1),
    enable: row.enable === undefined ? true : toBool(row.enable),
    created_at: toUnixSeconds(row.created_at) ?? 0,
    updated_at: toUnixSeconds(row.updated_at) ?? 0,
    deleted_at: deletedAt(row),
  }));
}

function order(row: SourceRow): LegacyOrder {
  return {
    id: toInteger(row.id),
    user_id: toInteger(row.user_id),
    gateway_id: toInteger(row.gateway_id),
    trade_no: toText(row.trade_no),
    gateway_no: toText(row.gateway_no),
    amount: toInteger(row.amount),
    order_amount: money(row.order_amount),
    order_currency: toText(row.order_currency),
    quota: toInteger(row.quota),
    fee: money(row.fee),
    discount: money(row.discount),
    status: toText(row.status),
    created_at: toUnixSeconds(row.created_at) ?? 0,
    updated_at: toUnixSeconds(row.updated_at) ?? 0,
    deleted_at: deletedAt(row),
  };
}

function options(source: Map<string, string>): { options: Map<string, string>; skipped: Skipped[] } {
  const kept = new Map<string, string>();
  const skipped: Skipped[] = [];
  for (const [key, value] of source) {
    if (LEGACY_OPTION_KEYS.has(key)) {
      skipped.push({
        table: 'options',
        row: key,
        reason: 'legacy key; its content is read into prices and user groups',
      });
    } else {
      kept.set(key, value);
    }
  }
  return { options: kept, skipped };
}

/** One Hub (MartialBE/one-hub): users, tokens and channels, plus prices or user groups that one-api and new-api lack. */
export const oneHubProfile: ProductProfile = {
  product: 'one-hub',
  detect: (schema) =>
    ['users', 'tokens', 'channels', 'options'].every((table) => schema.has(table)) &&
    (has(schema, 'prices', 'channel_type') || has(schema, 'user_groups', 'symbol') || has(schema, 'model_owned_by')),
  version(schema) {
    const features = ['user_groups', 'prices', 'statistics', 'model_owned_by', 'model_info'].filter((table) =>
      schema.has(table),
    );
    const era = has(schema, 'tokens', 'setting') ? 'with key settings' : 'before key settings';
    return `One Hub ${era} (tables: ${features.join(', ')})`;
  },
  users: (rows) => rows.map(oneHubUser),
  tokens: (rows) => rows.map(oneHubToken),
  channels: (rows) => rows.map(oneHubChannel),
  redemptions: (rows) => rows.map(oneHubRedemption),
  logs: (rows) => rows.map(oneHubLog),
  payments,
  orders: (rows) => rows.map(order),
  midjourneys: (rows) => rows.map(midjourneyRow),
  tasks: (rows) => rows.map(taskRow),
  telegramMenus,
  userGroups,
  prices,
  statistics,
  modelOwners,
  modelInfo,
  options,
  notCarried: (schema) =>
    Object.entries(NOT_CARRIED)
      .filter(([table]) => schema.has(table))
      .map(([table, reason]) => ({ table, reason })),
};

export const profile = oneHubProfile;
