/**
 * Options and leftovers of one-api and new-api: which option keys mean the same in One Hub
 * (reference §3.2), which were renamed, which are read into other tables, and which tables and
 * columns have no counterpart.
 */
import type { Skipped } from '../legacy.js';

/** Every option key One Hub knows (reference §3.2). */
const ONE_HUB_KEYS = new Set([
  'PasswordLoginEnabled',
  'PasswordRegisterEnabled',
  'EmailVerificationEnabled',
  'GitHubOAuthEnabled',
  'GitHubClientId',
  'GitHubClientSecret',
  'GitHubOldIdCloseEnabled',
  'WeChatAuthEnabled',
  'WeChatServerAddress',
  'WeChatServerToken',
  'WeChatAccountQRCodeImageURL',
  'LarkAuthEnabled',
  'OIDCAuthEnabled',
  'OIDCClientId',
  'OIDCClientSecret',
  'OIDCIssuer',
  'OIDCScopes',
  'OIDCUsernameClaims',
  'TurnstileCheckEnabled',
  'TurnstileSiteKey',
  'TurnstileSecretKey',
  'RegisterEnabled',
  'EmailDomainRestrictionEnabled',
  'EmailDomainWhitelist',
  'SMTPServer',
  'SMTPPort',
  'SMTPAccount',
  'SMTPFrom',
  'SMTPToken',
  'Notice',
  'About',
  'HomePageContent',
  'Footer',
  'SystemName',
  'Logo',
  'AnalyticsCode',
  'ServerAddress',
  'QuotaForNewUser',
  'QuotaForInviter',
  'QuotaForInvitee',
  'QuotaRemindThreshold',
  'PreConsumedQuota',
  'TopUpLink',
  'ChatLink',
  'ChatLinks',
  'QuotaPerUnit',
  'DisplayInCurrencyEnabled',
  'LogConsumeEnabled',
  'ApproximateTokenEnabled',
  'AutomaticDisableChannelEnabled',
  'AutomaticEnableChannelEnabled',
  'ChannelDisableThreshold',
  'DisableChannelKeywords',
  'RetryTimes',
  'RetryTimeOut',
  'RetryCooldownSeconds',
  'MjNotifyEnabled',
  'ChatImageRequestProxy',
  'CFWorkerImageUrl',
  'CFWorkerImageKey',
  'PaymentUSDRate',
  'PaymentMinAmount',
  'RechargeDiscount',
  'GeminiAPIEnabled',
  'ClaudeAPIEnabled',
  'EnableSafe',
  'SafeToolName',
  'SafeKeyWords',
  'ClaudeBudgetTokensPercentage',
  'ClaudeDefaultMaxTokens',
  'GeminiOpenThink',
]);

/** A source key whose meaning exists in One Hub under another name (and maybe another form). */
export interface Rename {
  to: string;
  convert?: (value: string) => string;
}

/** An OIDC discovery URL → the issuer One Hub discovers from (it appends the well-known path itself). */
export const wellKnownToIssuer = (value: string) =>
  value.trim().replace(/\/?\.well-known\/openid-configuration\/?$/, '');

export interface OptionRules {
  renames: Record<string, Rename>;
  /** Keys whose content goes into other tables (prices, user groups), with where it went. */
  readElsewhere: Record<string, string>;
}

/** Copies keys One Hub shares, applies renames, and reports every key left behind. */
export function translateOptions(
  source: Map<string, string>,
  rules: OptionRules,
): { options: Map<string, string>; skipped: Skipped[] } {
  const options = new Map<string, string>();
  const skipped: Skipped[] = [];
  for (const [key, value] of source) {
    const rename = rules.renames[key];
    if (rename) {
      options.set(rename.to, rename.convert ? rename.convert(value) : value);
    } else if (ONE_HUB_KEYS.has(key)) {
      options.set(key, value);
    } else if (rules.readElsewhere[key]) {
      skipped.push({ table: 'options', row: key, reason: `read into ${rules.readElsewhere[key]}` });
    } else {
      skipped.push({ table: 'options', row: key, reason: 'no One Hub setting has this meaning' });
    }
  }
  return { options, skipped };
}

/** Tables this importer reads; everything else in the source is reported. */
export interface LeftoverRules {
  /** Tables carried over (read by a profile method). */
  carried: Set<string>;
  /** Known tables that are not carried, with the reason. */
  reasons: Record<string, string>;
  /** Columns of carried tables that have no One Hub counterpart, with the reason. */
  columns: Record<string, Record<string, string>>;
}

export function leftovers(schema: Map<string, Set<string>>, rules: LeftoverRules): Skipped[] {
  const skipped: Skipped[] = [];
  for (const table of [...schema.keys()].sort()) {
    if (rules.carried.has(table)) continue;
    skipped.push({ table, reason: rules.reasons[table] ?? 'a table One Hub has no counterpart for' });
  }
  for (const [table, columns] of Object.entries(rules.columns)) {
    const present = schema.get(table);
    if (!present) continue;
    for (const [column, reason] of Object.entries(columns)) {
      if (present.has(column)) skipped.push({ table, row: `column ${column}`, reason });
    }
  }
  return skipped;
}
