import {
  type CreateTokenBody,
  createTokenBody,
  defaultTokenSetting,
  formatTimestamp,
  HEARTBEAT_MAX_SECONDS,
  HEARTBEAT_MIN_SECONDS,
  NEVER_EXPIRES,
  TOKEN_NAME_MAX_LENGTH,
  type TokenView,
  type UpdateTokenBody,
  updateTokenBody,
} from '@one-hub/contracts';
import {
  type BudgetRow,
  budgetsToRows,
  checkBudgetRows,
  isBudgetPath,
  rowsToBudgets,
} from '../../components/budgets/budgetRows.js';
import {
  checkFallbackRows,
  type FallbackRow,
  fallbacksToRows,
  isFallbackPath,
  rowsToFallbacks,
} from '../../components/fallbacks/fallbackRows.js';
import type { FormCheck } from '../../components/form/checkedForm.js';
import { placeIssues } from '../../components/form/placeIssues.js';
import { numberOf } from '../../components/form/typedNumber.js';
import { amountToQuota, type QuotaUnit, quotaToAmount } from '../../lib/quotaAmount.js';

/** The dialog's fields as the inputs hold them (numbers as typed text). */
export interface TokenFormValues {
  name: string;
  remainQuota: string;
  unlimitedQuota: boolean;
  neverExpires: boolean;
  /** `YYYY-MM-DDTHH:mm` in local time, the value of a datetime-local input. */
  expiresAt: string;
  group: string;
  backupGroup: string;
  modelLimitEnabled: boolean;
  models: string[];
  ipLimitEnabled: boolean;
  /** One IP address or CIDR range per line. */
  ipWhitelist: string;
  rpm: string;
  /** Tokens per minute; 0 = no limit. */
  tpm: string;
  concurrency: string;
  /** Allowances per window (issue 33), edited by the budgets editor. */
  budgets: BudgetRow[];
  /** Models tried when every channel of the requested one failed (issue 34). */
  fallbacks: FallbackRow[];
  heartbeatEnabled: boolean;
  heartbeatSeconds: string;
  /** Whether the site's chat cache may answer this key's requests. */
  chatCache: boolean;
  /** `setting.billing_tag`, '' for none; the server keeps it only from reliable users and above. */
  billingTag: string;
}

export type TokenFormField =
  | 'name'
  | 'remainQuota'
  | 'expiresAt'
  | 'group'
  | 'backupGroup'
  | 'billingTag'
  | 'models'
  | 'ipWhitelist'
  | 'rpm'
  | 'tpm'
  | 'concurrency'
  | 'heartbeatSeconds'
  /** A budget row's input (`budgets.0.quota`), a row (`budgets.0.row`) or the list (`budgets`). */
  | `budgets${string}`
  /** A fallback row's input (`fallbacks.0.model`) or the map (`fallbacks`). */
  | `fallbacks${string}`;

export type TokenFormErrors = Partial<Record<TokenFormField, string>>;

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** Quota a new key starts with: $1 at the default 500 000 quota per unit. */
export const DEFAULT_NEW_TOKEN_QUOTA = 500_000;

const HOUR = 3600;
const DAY = 24 * HOUR;
/** Quick expiry choices, in seconds from now. */
export const EXPIRY_PRESETS = [
  { id: 'hour', seconds: HOUR },
  { id: 'day', seconds: DAY },
  { id: 'week', seconds: 7 * DAY },
  { id: 'month', seconds: 30 * DAY },
  { id: 'year', seconds: 365 * DAY },
] as const;

/** Unix seconds as the value of a datetime-local input (minute precision). */
export function toLocalInput(unixSeconds: number): string {
  return formatTimestamp(unixSeconds).slice(0, 16).replace(' ', 'T');
}

/** A datetime-local value (read as local time) as Unix seconds; NaN when empty or invalid. */
export function fromLocalInput(text: string): number {
  if (!text) return Number.NaN;
  const milliseconds = new Date(text).getTime();
  return Number.isNaN(milliseconds) ? Number.NaN : Math.floor(milliseconds / 1000);
}

/** Quota fields hold an amount in the console's unit (lib/quotaAmount.ts); raw quota when none is given. */
const RAW_QUOTA: QuotaUnit = { currency: false, quotaPerUnit: 1 };

export function emptyTokenForm(nowSeconds: number, unit: QuotaUnit = RAW_QUOTA): TokenFormValues {
  const setting = defaultTokenSetting();
  return {
    name: '',
    remainQuota: quotaToAmount(DEFAULT_NEW_TOKEN_QUOTA, unit),
    unlimitedQuota: false,
    neverExpires: true,
    expiresAt: toLocalInput(nowSeconds + 30 * DAY),
    group: '',
    backupGroup: '',
    modelLimitEnabled: false,
    models: [],
    ipLimitEnabled: false,
    ipWhitelist: '',
    rpm: String(setting.limits.rpm),
    tpm: String(setting.limits.tpm),
    concurrency: String(setting.limits.concurrency),
    budgets: budgetsToRows(setting.budgets, unit),
    fallbacks: fallbacksToRows(setting.fallbacks),
    heartbeatEnabled: false,
    heartbeatSeconds: String(setting.heartbeat.timeout_seconds),
    chatCache: setting.chat_cache,
    billingTag: '',
  };
}

export function tokenToForm(token: TokenView, nowSeconds: number, unit: QuotaUnit = RAW_QUOTA): TokenFormValues {
  const { heartbeat, limits } = token.setting;
  const neverExpires = token.expired_time === NEVER_EXPIRES || token.expired_time === 0;
  return {
    name: token.name,
    remainQuota: quotaToAmount(token.remain_quota, unit),
    unlimitedQuota: token.unlimited_quota,
    neverExpires,
    expiresAt: toLocalInput(neverExpires ? nowSeconds + 30 * DAY : token.expired_time),
    group: token.group,
    backupGroup: token.backup_group,
    modelLimitEnabled: limits.limit_model_setting.enabled,
    models: limits.limit_model_setting.models,
    ipLimitEnabled: limits.limits_ip_setting.enabled,
    ipWhitelist: limits.limits_ip_setting.whitelist.join('\n'),
    rpm: String(limits.rpm),
    tpm: String(limits.tpm ?? 0),
    concurrency: String(limits.concurrency),
    budgets: budgetsToRows(token.setting.budgets, unit),
    fallbacks: fallbacksToRows(token.setting.fallbacks),
    heartbeatEnabled: heartbeat.enabled,
    heartbeatSeconds: String(heartbeat.timeout_seconds),
    chatCache: token.setting.chat_cache,
    billingTag: token.setting.billing_tag ?? '',
  };
}

function ipLines(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The request body the values stand for, before validation. */
export function formToInput(values: TokenFormValues, unit: QuotaUnit = RAW_QUOTA) {
  const quota = amountToQuota(values.remainQuota, unit);
  return {
    name: values.name,
    // With unlimited quota the amount is kept but not used, so an unreadable one is stored as 0.
    remain_quota: values.unlimitedQuota ? quota || 0 : quota,
    unlimited_quota: values.unlimitedQuota,
    expired_time: values.neverExpires ? NEVER_EXPIRES : fromLocalInput(values.expiresAt),
    group: values.group,
    backup_group: values.backupGroup,
    setting: {
      heartbeat: { enabled: values.heartbeatEnabled, timeout_seconds: numberOf(values.heartbeatSeconds) },
      chat_cache: values.chatCache,
      limits: {
        limit_model_setting: { enabled: values.modelLimitEnabled, models: values.models },
        limits_ip_setting: { enabled: values.ipLimitEnabled, whitelist: ipLines(values.ipWhitelist) },
        rpm: numberOf(values.rpm),
        tpm: numberOf(values.tpm),
        concurrency: numberOf(values.concurrency),
      },
      budgets: rowsToBudgets(values.budgets, unit),
      fallbacks: rowsToFallbacks(values.fallbacks),
      billing_tag: values.billingTag,
    },
  };
}

type Issue = NonNullable<ReturnType<typeof createTokenBody.safeParse>['error']>['issues'][number];

/** Which input an issue of the contracts schema belongs to, from its path. */
function fieldOf(path: ReadonlyArray<PropertyKey>): TokenFormField | null {
  const names = path.filter((part): part is string => typeof part === 'string').join('.');
  const fields: Record<string, TokenFormField> = {
    name: 'name',
    remain_quota: 'remainQuota',
    expired_time: 'expiresAt',
    group: 'group',
    backup_group: 'backupGroup',
    'setting.limits.limit_model_setting.models': 'models',
    'setting.limits.limits_ip_setting.whitelist': 'ipWhitelist',
    'setting.limits.rpm': 'rpm',
    'setting.limits.tpm': 'tpm',
    'setting.limits.concurrency': 'concurrency',
    'setting.heartbeat.timeout_seconds': 'heartbeatSeconds',
    'setting.billing_tag': 'billingTag',
  };
  return fields[names] ?? null;
}

function issueText(
  field: TokenFormField,
  issue: Issue,
  input: ReturnType<typeof formToInput>,
  t: Translate,
  unit: QuotaUnit,
): string {
  switch (field) {
    case 'name':
      return issue.code === 'too_big'
        ? t('token:form.errors.nameTooLong', { max: TOKEN_NAME_MAX_LENGTH })
        : t('token:form.errors.nameRequired');
    case 'remainQuota':
      return t(unit.currency ? 'token:form.errors.quotaCurrency' : 'token:form.errors.quota');
    case 'expiresAt':
      return t('token:form.errors.expiry');
    case 'group':
    case 'backupGroup':
    case 'billingTag':
      return t('token:form.errors.group');
    case 'models':
      return t('token:form.errors.model');
    case 'ipWhitelist': {
      const index = issue.path.at(-1);
      const entry = typeof index === 'number' ? input.setting.limits.limits_ip_setting.whitelist[index] : undefined;
      return t('token:form.errors.ip', { value: entry ?? '' });
    }
    case 'rpm':
    case 'tpm':
    case 'concurrency':
      return t('token:form.errors.limit');
    case 'heartbeatSeconds':
      return t('token:form.errors.heartbeat', { min: HEARTBEAT_MIN_SECONDS, max: HEARTBEAT_MAX_SECONDS });
    default:
      // Budget and fallback issues are named by their row checks; this is never reached for them.
      return issue.message;
  }
}

export type TokenFormResult = FormCheck<CreateTokenBody | UpdateTokenBody, TokenFormField>;

/**
 * Validates with the server's own schema (create or update) and turns its issues into translated
 * messages on the fields. Two server rules the schema cannot express are checked here too: a new
 * key must expire in the future, and the backup group must differ from the group.
 */
export function validateTokenForm(
  values: TokenFormValues,
  id: number | null,
  nowSeconds: number,
  t: Translate,
  unit: QuotaUnit = RAW_QUOTA,
): TokenFormResult {
  const input = formToInput(values, unit);
  const parsed = id === null ? createTokenBody.safeParse(input) : updateTokenBody.safeParse({ ...input, id });
  const errors: TokenFormErrors = {
    ...checkBudgetRows(values.budgets, unit, t).errors,
    ...checkFallbackRows(values.fallbacks, t).errors,
  };
  // The budget and fallback rows' issues are named by their own checks, on their inputs.
  const issues = (parsed.error?.issues ?? []).filter(
    (issue) => !isBudgetPath(issue.path) && !isFallbackPath(issue.path),
  );
  const { unplaced } = placeIssues(issues, fieldOf, (field, issue) => issueText(field, issue, input, t, unit), errors);
  if (!errors.expiresAt && id === null && !values.neverExpires && input.expired_time <= nowSeconds) {
    errors.expiresAt = t('token:form.errors.expiryPast');
  }
  if (!errors.backupGroup && values.group && values.group === values.backupGroup) {
    errors.backupGroup = t('token:form.errors.backupSame');
  }
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, body: parsed.data };
  return { ok: false, errors, unplaced };
}

/**
 * What the owner field asks for: nothing when it still names the owner, a transfer to a user id,
 * or a refusal of text that is no user id. The server decides whether the transfer is allowed.
 */
export function ownerTransfer(text: string, currentOwner: number): { ok: true; userId?: number } | { ok: false } {
  const trimmed = text.trim();
  if (!/^[1-9]\d{0,15}$/.test(trimmed)) return { ok: false };
  const userId = Number(trimmed);
  return userId === currentOwner ? { ok: true } : { ok: true, userId };
}
