import { z } from 'zod';
import { BUDGET_WINDOW_MODES } from './budget.js';
import { chatLinksForReading, DEFAULT_CHAT_LINKS, fillChatLinkIds } from './chatLinks.js';
import {
  checkBounds,
  checkJson,
  checkText,
  type OptionCheck,
  type OptionDefinition,
  type OptionShape,
} from './optionValidation.js';
import { MAX_QUOTA } from './quota.js';

export { type ChatLink, chatLinksForReading, DEFAULT_CHAT_LINKS, fillChatLinkIds } from './chatLinks.js';

export type {
  OptionCheck,
  OptionDefinition,
  OptionFormat,
  OptionIssue,
  OptionShape,
  OptionType,
  ShapeProblem,
} from './optionValidation.js';

type Rules = Omit<OptionDefinition, 'type' | 'default'>;

const bool = (value: boolean): OptionDefinition => ({ type: 'boolean', default: String(value) });
const int = (value: number, rules: Rules = {}): OptionDefinition => ({
  type: 'integer',
  default: String(value),
  ...rules,
});
const num = (value: number, rules: Rules = {}): OptionDefinition => ({
  type: 'number',
  default: String(value),
  ...rules,
});
const str = (value = '', rules: Rules = {}): OptionDefinition => ({ type: 'string', default: value, ...rules });
const json = (value: unknown, shape: OptionShape): OptionDefinition => ({
  type: 'json',
  default: JSON.stringify(value),
  shape,
});

const atLeastZero = { min: 0 } as const;
const aboveZero = { above: 0 } as const;
const quotaAmount = { min: 0, max: MAX_QUOTA } as const;

/** The console's languages (spec §1); `Language` must be one of them, or empty (not set). */
export const OPTION_LANGUAGES = ['zh_CN', 'zh_HK', 'en_US', 'ja_JP'] as const;
/** Content-safety tools the server knows (`GET /api/option/safe_tools`). */
export const SAFE_TOOL_NAMES = ['Keyword'] as const;
/**
 * When an inviter is paid `QuotaForInviter` (`InviterRewardCondition`): after the invitee's first
 * top-up (default), once the invitee's e-mail is verified, or at registration (the reference's way).
 */
export const INVITER_REWARD_CONDITIONS = ['first_topup', 'email_verified', 'registration'] as const;
export type InviterRewardCondition = (typeof INVITER_REWARD_CONDITIONS)[number];

/**
 * What the relay does with a model no price matches (`UnpricedModelPolicy`): bill it at
 * `FALLBACK_MODEL_PRICE` (default, the reference's way) or refuse the request with a 400.
 */
export const UNPRICED_MODEL_POLICIES = ['fallback', 'refuse'] as const;
export type UnpricedModelPolicy = (typeof UNPRICED_MODEL_POLICIES)[number];

/** The price of a model no price matches: ratio 30 each way, i.e. $60 per 1M input and output tokens. */
export const FALLBACK_MODEL_PRICE = Object.freeze({ type: 'tokens', input: 30, output: 30 } as const);

/** Whether a stored `UnpricedModelPolicy` refuses unpriced models; empty and unknown values mean the fallback. */
export function refusesUnpricedModels(policy: string | undefined): boolean {
  return policy === 'refuse';
}

const DEFAULT_DISABLE_KEYWORDS = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
  'Quota exceeded for quota metric',
  'API key not valid',
  'The security token included in the request is invalid',
  'Operation not allowed',
  'Your account is not authorized',
  'your account balance is insufficient',
  'Your account is currently blocked',
  'too many invalid requests',
].join('\n');

/**
 * Every option the server knows, its type and its default. Values travel and are stored as strings,
 * as in the reference system; the type decides how a value is checked and read.
 */
export const optionDefinitions = {
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  /** Passkey (WebAuthn) sign-in and the profile's passkey list; off until the site's address is right. */
  PasskeyLoginEnabled: bool(false),
  RegisterEnabled: bool(true),
  EmailVerificationEnabled: bool(false),
  EmailDomainRestrictionEnabled: bool(false),
  EmailDomainWhitelist: str(
    'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
  ),
  GitHubOAuthEnabled: bool(false),
  GitHubClientId: str(),
  GitHubClientSecret: str(),
  GitHubOldIdCloseEnabled: bool(false),
  WeChatAuthEnabled: bool(false),
  WeChatServerAddress: str('', { format: 'url' }),
  WeChatServerToken: str(),
  WeChatAccountQRCodeImageURL: str('', { format: 'urlOrPath' }),
  LarkAuthEnabled: bool(false),
  LarkClientId: str(),
  LarkClientSecret: str(),
  OIDCAuthEnabled: bool(false),
  OIDCClientId: str(),
  OIDCClientSecret: str(),
  OIDCIssuer: str('', { format: 'url' }),
  OIDCScopes: str('openid,email,profile'),
  OIDCUsernameClaims: str('preferred_username'),
  TurnstileCheckEnabled: bool(false),
  TurnstileSiteKey: str(),
  TurnstileSecretKey: str(),
  SMTPServer: str(),
  SMTPPort: int(587, { min: 1, max: 65535 }),
  SMTPAccount: str(),
  SMTPFrom: str(),
  SMTPToken: str(),
  Notice: str(),
  About: str(),
  HomePageContent: str(),
  Footer: str(),
  SystemName: str('One Hub'),
  Logo: str('', { format: 'urlOrPath' }),
  AnalyticsCode: str(),
  // Empty until an administrator picks one: each visitor then sees their browser's language (if
  // the console speaks it) instead of a language the server assumed for them.
  Language: str('', { choices: OPTION_LANGUAGES }),
  ServerAddress: str('http://localhost:3000', { format: 'url' }),
  TopUpLink: str('', { format: 'url' }),
  ChatLink: str(),
  ChatLinks: json(DEFAULT_CHAT_LINKS, 'chatLinks'),
  QuotaPerUnit: num(500000, aboveZero),
  DisplayInCurrencyEnabled: bool(true),
  QuotaForNewUser: int(0, quotaAmount),
  QuotaForInviter: int(0, quotaAmount),
  QuotaForInvitee: int(0, quotaAmount),
  InviterRewardCondition: str('first_topup', { choices: INVITER_REWARD_CONDITIONS }),
  QuotaRemindThreshold: int(1000, atLeastZero),
  /**
   * Held for the answer of a request that sets no output limit, while this node has seen fewer
   * than ten answers of its model (after that, what most of them used); at most 4,096 tokens' worth.
   */
  PreConsumedQuota: int(500, atLeastZero),
  /**
   * Seconds a request waits for the user's (or its key's) other running requests to settle when
   * only they keep its reservation from fitting, before 429 insufficient_quota (0: refused at once).
   */
  QuotaWaitSeconds: int(5, { min: 0, max: 600 }),
  /** How budget windows are counted: from each subject's first request (rolling) or by the site's clock (calendar). */
  BudgetWindowMode: str('rolling', { choices: BUDGET_WINDOW_MODES }),
  /** The time zone of calendar budget windows (days from its midnight, weeks from Monday, months from the 1st). */
  SiteTimeZone: str('UTC', { format: 'timeZone' }),
  /** Off: as the reference, every answered request is charged. On: an answer with no completion tokens, or one that failed after it was opened, is not. */
  NoChargeForEmptyAnswers: bool(false),
  UnpricedModelPolicy: str('fallback', { choices: UNPRICED_MODEL_POLICIES }),
  LogConsumeEnabled: bool(true),
  /** Days consume and error logs are kept (0: forever); older ones are deleted by the master node, hourly. */
  LogRetentionDays: int(0, { min: 0, max: 36_500 }),
  /** Days audit rows are kept (0: forever, the default); older ones are deleted by the master node, hourly. */
  AuditLogRetentionDays: int(0, { min: 0, max: 36_500 }),
  ApproximateTokenEnabled: bool(false),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  ChannelDisableThreshold: num(5, atLeastZero),
  DisableChannelKeywords: str(DEFAULT_DISABLE_KEYWORDS),
  RetryTimes: int(2, atLeastZero), // 2, not 0: a request a failing channel refused is retried on others
  RetryTimeOut: int(10, atLeastZero),
  RetryCooldownSeconds: int(5, atLeastZero),
  /**
   * Channel health (issue 34): failure rates over a sliding window degrade a channel (less weight),
   * open it (no traffic) for a cool-off, then let a share of requests through as trials.
   */
  ChannelHealthEnabled: bool(true),
  ChannelHealthWindowSeconds: int(60, { min: 10, max: 3600 }),
  ChannelHealthMinSamples: int(10, { min: 1, max: 10_000 }),
  ChannelHealthDegradedPercent: int(20, { min: 1, max: 100 }),
  ChannelHealthOpenPercent: int(50, { min: 1, max: 100 }),
  ChannelHealthCoolOffSeconds: int(30, { min: 1, max: 3600 }),
  ChannelHealthTrialPercent: int(10, { min: 1, max: 100 }),
  ChannelHealthDegradedWeight: num(0.25, { min: 0.01, max: 1 }),
  /** How long a conversation stays on the channel that served it after its last request (cache affinity; 0: off). */
  CacheAffinitySeconds: int(600, { min: 0, max: 86_400 }),
  /** Answer a user's identical non-streamed chat requests from a cache for ChatCacheExpireMinute minutes. */
  ChatCacheEnabled: bool(false),
  ChatCacheExpireMinute: int(5, { min: 1, max: 10_080 }),
  /** What a cached answer costs, as a share of what the call it repeats cost (1: the same, 0: free). */
  ChatCacheRatio: num(1, { min: 0, max: 1 }),
  MjNotifyEnabled: bool(false),
  /** Whether the gateway may post to users' Midjourney notifyHooks at loopback, private and link-local addresses. */
  MjNotifyAllowPrivate: bool(false),
  /** Proxy for fetching image URLs of chat messages for upstreams that take images only inline. */
  ChatImageRequestProxy: str('', { format: 'proxyUrl' }),
  /** Whether those fetches may reach loopback, private and link-local addresses (off: refused). */
  ChatImageAllowPrivate: bool(false),
  /** The reference's Cloudflare-worker image fetcher; stored for its console, no effect here yet. */
  CFWorkerImageUrl: str('', { format: 'url' }),
  CFWorkerImageKey: str(),
  PaymentUSDRate: num(7.3, aboveZero),
  PaymentMinAmount: int(1, atLeastZero),
  RechargeDiscount: json({}, 'discountMap'),
  /** Legacy per-group ratios of older installations; user groups (their `ratio`) are what billing reads. */
  GroupRatio: json({}, 'ratioMap'),
  /** Highest id of the reference's legacy 48-character keys (written by its migration); stored, no effect here. */
  OldTokenMaxId: int(0, atLeastZero),
  GeminiAPIEnabled: bool(true),
  ClaudeAPIEnabled: bool(true),
  EnableSafe: bool(false),
  SafeToolName: str('Keyword', { choices: SAFE_TOOL_NAMES }),
  SafeKeyWords: str(),
  ClaudeBudgetTokensPercentage: num(0.8, { above: 0, max: 1 }),
  ClaudeDefaultMaxTokens: json({ default: 8192 }, 'maxTokensMap'),
  GeminiOpenThink: json({}, 'flagMap'),
  UserInvoiceMonth: bool(false),
  UptimeEnabled: bool(false),
  UptimeDomain: str('', { format: 'url' }),
  UptimePageName: str(),
  /** Set once on first start; namespaces this installation's keys in a shared Redis. */
  InstanceId: str(),
} satisfies Record<string, OptionDefinition>;

export type OptionKey = keyof typeof optionDefinitions;
export type OptionValues = Record<OptionKey, string>;

/**
 * The value to serve for a stored one. Stored `ChatLinks` may predate row ids (or be blank, the
 * reference's default): they are served with ids, so what is read can be saved back unchanged.
 */
export function optionValueForReading(key: OptionKey, stored: string): string {
  return key === 'ChatLinks' ? chatLinksForReading(stored) : stored;
}

export function isOptionKey(key: string): key is OptionKey {
  return Object.hasOwn(optionDefinitions, key);
}

/**
 * Keys whose values never leave the server: names ending in Token, Secret or SecretKey, and
 * `CFWorkerImageKey` (the reference lists it, and `TurnstileSecretKey`, in plain text; we do not).
 */
export function isSecretOptionKey(key: string): boolean {
  return key.endsWith('Token') || key.endsWith('Secret') || key.endsWith('SecretKey') || key === 'CFWorkerImageKey';
}

/**
 * Checks a value against its option's type and rules (optionValidation.ts); returns the normalised
 * string, or an error text for the API with an issue the console translates.
 */
export function normaliseOptionValue(key: OptionKey, raw: string): OptionCheck {
  const definition: OptionDefinition = optionDefinitions[key];
  const value = raw.trim();
  switch (definition.type) {
    case 'boolean':
      if (value === 'true' || value === 'false') return { value };
      return { error: `${key} must be true or false`, issue: { code: 'boolean' } };
    case 'integer': {
      if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
        return { error: `${key} must be an integer`, issue: { code: 'integer' } };
      }
      return checkBounds(key, definition, Number(value)) ?? { value: String(Number(value)) };
    }
    case 'number': {
      if (value === '' || !Number.isFinite(Number(value))) {
        return { error: `${key} must be a number`, issue: { code: 'number' } };
      }
      return checkBounds(key, definition, Number(value)) ?? { value: String(Number(value)) };
    }
    case 'json': {
      const failure = checkJson(key, definition, value);
      if (failure) return failure;
      // Rows the reference's console edits in a grid need an id; give the missing ones theirs.
      const filled = definition.shape === 'chatLinks' ? fillChatLinkIds(JSON.parse(value)) : null;
      return { value: filled ? JSON.stringify(filled) : value };
    }
    default:
      return checkText(key, definition, raw) ?? { value: raw };
  }
}

export const updateOptionBody = z.object({
  key: z.string('key is required').trim().min(1, 'key is required').max(100),
  value: z
    .union([z.string(), z.number(), z.boolean()], 'value must be a string, number or boolean')
    .transform((value) => String(value)),
});
export type UpdateOptionBody = z.infer<typeof updateOptionBody>;

export interface OptionEntry {
  key: string;
  value: string;
}

/** Every write-only option: the console shows whether each is set, never its value. */
export const secretOptionKeys: readonly OptionKey[] = (Object.keys(optionDefinitions) as OptionKey[]).filter(
  isSecretOptionKey,
);

/** One entry of `GET /api/option/secrets`: whether a write-only option holds a value. */
export interface SecretOptionStatus {
  key: string;
  set: boolean;
}
