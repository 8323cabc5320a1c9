import { z } from 'zod';
import { type BudgetWindowView, budgetListSchema } from './budget.js';
import { fallbackMapSchema } from './fallbacks.js';
import { keywordPageQuery } from './paging.js';
import { quotaAmountField } from './quota.js';

/** Statuses of an API key; 3 and 4 are set by the system, never chosen by a person. */
export const TokenStatus = {
  enabled: 1,
  disabled: 2,
  expired: 3,
  exhausted: 4,
} as const;
export type TokenStatus = (typeof TokenStatus)[keyof typeof TokenStatus];

export const TOKEN_NAME_MAX_LENGTH = 30;
/** `expired_time` value meaning "never expires". */
export const NEVER_EXPIRES = -1;
/** The key the chat playground uses, created on demand for each user. */
export const PLAYGROUND_TOKEN_NAME = 'sys_playground';
export const HEARTBEAT_MIN_SECONDS = 30;
export const HEARTBEAT_MAX_SECONDS = 90;
/** The longest billing tag a key's setting holds (a user group's symbol is at most 50 characters). */
export const BILLING_TAG_MAX_LENGTH = 50;

const IPV4_PART = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${IPV4_PART}(\\.${IPV4_PART}){3}$`);
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (half: string | undefined) => (half ? half.split(':') : []);
  const groups = [...groupsOf(halves[0]), ...groupsOf(halves[1])];
  let count = 0;
  for (const [index, group] of groups.entries()) {
    // A dotted IPv4 tail (e.g. ::ffff:10.0.0.1) stands for the last two groups.
    if (index === groups.length - 1 && !text.endsWith(':') && IPV4.test(group)) count += 2;
    else if (HEX_GROUP.test(group)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count < 8 : count === 8;
}

/** 4 or 6 for a literal IP address, 0 otherwise (same answers as Node's `net.isIP`, without zone ids). */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (IPV4.test(text)) return 4;
  return text.includes(':') && isIpv6(text) ? 6 : 0;
}

/** True for an IP address or a CIDR range such as `10.0.0.0/8` or `2001:db8::/32`. */
export function isIpOrCidr(text: string): boolean {
  const [address = '', prefix, extra] = text.split('/');
  const version = ipVersion(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^(0|[1-9]\d{0,2})$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

const flag = (field: string) => z.boolean(`${field} must be true or false`).default(false);
const wholeNumber = (field: string, max = 1_000_000) =>
  z
    .number(`${field} must be a number`)
    .int(`${field} must be an integer`)
    .min(0, `${field} must be at least 0`)
    .max(max, `${field} is too large`)
    .default(0);

/** Trimmed, non-empty strings; blank lines from a text area are dropped rather than refused. */
const stringList = (field: string, item: z.ZodType<string, string>) =>
  z
    .array(z.string(`${field} must be a list of strings`).trim(), `${field} must be a list of strings`)
    .max(1000, `${field} may hold at most 1000 entries`)
    .default([])
    .transform((values) => values.filter((value) => value !== ''))
    .pipe(z.array(item));

/**
 * A key the setting does not know is refused on every write, naming it: a misspelt `models` would
 * otherwise be dropped and leave the key unrestricted. Settings already stored are read leniently.
 */
const unknownFields: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'unrecognized_keys') return undefined;
  const names = issue.keys.map((key) => [...(issue.path ?? []), key].join('.'));
  return names.length === 1 ? `${names[0]} is not a known field` : `${names.join(', ')} are not known fields`;
};
const settingObject = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  z.strictObject(shape, { error: unknownFields });

const heartbeatSetting = settingObject({
  enabled: flag('enabled'),
  timeout_seconds: z.number('timeout_seconds must be a number').int('timeout_seconds must be an integer').default(30),
}).superRefine((heartbeat, context) => {
  const { enabled, timeout_seconds: seconds } = heartbeat;
  if (enabled && (seconds < HEARTBEAT_MIN_SECONDS || seconds > HEARTBEAT_MAX_SECONDS)) {
    context.addIssue({
      code: 'custom',
      path: ['timeout_seconds'],
      message: `must be between ${HEARTBEAT_MIN_SECONDS} and ${HEARTBEAT_MAX_SECONDS} seconds when the heartbeat is enabled`,
    });
  }
});

const modelName = z.string().max(200, 'a model name must be at most 200 characters');
const ipEntry = z
  .string()
  .refine(isIpOrCidr, { error: (issue) => `'${issue.input}' is not an IP address or CIDR range` });

export const tokenSettingSchema = settingObject({
  heartbeat: heartbeatSetting.prefault({}),
  /** With the site's chat cache on (ChatCacheEnabled), whether this key's requests may be answered from it. */
  chat_cache: z.boolean('chat_cache must be true or false').default(true),
  limits: settingObject({
    limit_model_setting: settingObject({ enabled: flag('enabled'), models: stringList('models', modelName) }).prefault(
      {},
    ),
    limits_ip_setting: settingObject({
      enabled: flag('enabled'),
      whitelist: stringList('whitelist', ipEntry),
    }).prefault({}),
    /** Requests per minute for this key; 0 = no per-key limit. */
    rpm: wholeNumber('rpm'),
    /** Requests in flight for this key; 0 = no limit. */
    concurrency: wholeNumber('concurrency'),
    /** Tokens per minute for this key (prompt counted before the call, settled with the real usage); 0 = no limit. */
    tpm: wholeNumber('tpm', 1_000_000_000),
  }).prefault({}),
  /** Allowances per window (issue 33); a request that would pass one is refused with 429 budget_exceeded. */
  budgets: budgetListSchema,
  /** Models tried when every channel of the requested one failed (issue 34); wins over the group's for a model it names. */
  fallbacks: fallbackMapSchema,
  /**
   * A label for cost accounting (the reference's "billing tag", usually a user group's symbol); it
   * changes no routing or billing. Only reliable users (role 3) and above set or see it. Absent:
   * the stored tag is kept; empty or null: cleared.
   */
  billing_tag: z
    .string('billing_tag must be a string')
    .trim()
    .max(BILLING_TAG_MAX_LENGTH, `billing_tag must be at most ${BILLING_TAG_MAX_LENGTH} characters`)
    .nullish()
    .transform((tag) => (tag === null ? '' : tag))
    .optional(),
});
export type TokenSetting = z.output<typeof tokenSettingSchema>;
export type TokenSettingInput = z.input<typeof tokenSettingSchema>;

export function defaultTokenSetting(): TokenSetting {
  return tokenSettingSchema.parse({});
}

const nameField = z
  .string('name is required')
  .trim()
  .min(1, 'name is required')
  .max(TOKEN_NAME_MAX_LENGTH, `name must be at most ${TOKEN_NAME_MAX_LENGTH} characters`);

/** Unix seconds or -1; 0 is read as "never", as the reference system stores it. */
const expiredTimeField = z
  .number('expired_time must be a number of seconds')
  .int('expired_time must be an integer')
  .min(NEVER_EXPIRES, 'expired_time must be a Unix time in seconds, or -1 for never')
  .transform((value) => (value === 0 ? NEVER_EXPIRES : value));

const remainQuotaField = quotaAmountField('remain_quota');

const groupField = (field: string) =>
  z.string(`${field} must be a string`).trim().max(50, `${field} must be at most 50 characters`);

const statusField = z
  .number('status must be a number')
  .int('status must be an integer')
  .refine((value) => Object.values(TokenStatus).includes(value as TokenStatus), {
    error: 'status must be 1 (enabled), 2 (disabled), 3 (expired) or 4 (exhausted)',
  })
  .transform((value) => value as TokenStatus);

const idField = z.number('id is required').int('id must be an integer').positive('id must be positive');

/** `setting: null` (as older consoles send) means "the defaults" on create and "unchanged" on update. */
const settingField = tokenSettingSchema.nullish();

export const createTokenBody = z.object({
  name: nameField,
  expired_time: expiredTimeField.default(NEVER_EXPIRES),
  remain_quota: remainQuotaField.default(0),
  unlimited_quota: z.boolean('unlimited_quota must be true or false').default(false),
  group: groupField('group').default(''),
  backup_group: groupField('backup_group').default(''),
  setting: settingField,
});
export type CreateTokenBody = z.infer<typeof createTokenBody>;

/** Fields left out stay as they are, so both a full token and a partial edit are accepted. */
export const updateTokenBody = z.object({
  id: idField,
  name: nameField.optional(),
  status: statusField.optional(),
  expired_time: expiredTimeField.optional(),
  remain_quota: remainQuotaField.optional(),
  unlimited_quota: z.boolean('unlimited_quota must be true or false').optional(),
  group: groupField('group').optional(),
  backup_group: groupField('backup_group').optional(),
  setting: settingField,
});
export type UpdateTokenBody = z.infer<typeof updateTokenBody>;

export const adminUpdateTokenBody = updateTokenBody.extend({
  user_id: z
    .number('user_id must be a number')
    .int('user_id must be an integer')
    .positive('user_id must be positive')
    .optional(),
});
export type AdminUpdateTokenBody = z.infer<typeof adminUpdateTokenBody>;

/** Body of `PUT /api/token/?status_only=1`. */
export const tokenStatusBody = z.object({ id: idField, status: statusField });
export type TokenStatusBody = z.infer<typeof tokenStatusBody>;

export const tokenUpdateQuery = z.object({
  status_only: z
    .string()
    .optional()
    .transform((value) => value === '1' || value?.toLowerCase() === 'true'),
});

export const tokenListQuery = keywordPageQuery;
export type TokenListQuery = z.infer<typeof tokenListQuery>;

/** An empty query parameter (`?user_id=`) means "no filter". */
const optionalId = (field: string) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number(`${field} must be a number`)
      .int(`${field} must be an integer`)
      .positive(`${field} must be positive`)
      .optional(),
  );

export const adminTokenSearchQuery = keywordPageQuery.extend({
  user_id: optionalId('user_id'),
  token_id: optionalId('token_id'),
});
export type AdminTokenSearchQuery = z.infer<typeof adminTokenSearchQuery>;

export interface TokenView {
  id: number;
  user_id: number;
  name: string;
  /**
   * Without `sk-`, as the reference sends it: the full key to its owner (list, detail, creation,
   * update), masked (`AbCd…WxYz`) in administrators' views. Clients send `sk-<key>`: see `clientKey`.
   */
  key: string;
  status: TokenStatus;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  used_quota: number;
  group: string;
  backup_group: string;
  setting: TokenSetting;
  /** The key's budget windows with their current use; only on the single-key reads (GET /api/token/:id). */
  budget_windows?: BudgetWindowView[];
}

export interface AdminTokenView extends TokenView {
  /** The owner's display name, or the username when it has none. */
  owner_name: string;
}

/** The prefix clients put before a key; the API never includes it (reference §1.7). */
export const CLIENT_KEY_PREFIX = 'sk-';

/** The key as a client sends it: `sk-` followed by the key the API returned. */
export function clientKey(key: string): string {
  return key.startsWith(CLIENT_KEY_PREFIX) ? key : `${CLIENT_KEY_PREFIX}${key}`;
}

/** `AbCd…WxYz` (prefix kept if given): enough to recognise a key in a list, useless to anyone who reads it. */
export function maskKey(key: string): string {
  const prefix = key.startsWith(CLIENT_KEY_PREFIX) ? CLIENT_KEY_PREFIX : '';
  const body = key.slice(prefix.length);
  if (body.includes('…')) return key;
  if (body.length < 8) return `${prefix}…`;
  return `${prefix}${body.slice(0, 4)}…${body.slice(-4)}`;
}
