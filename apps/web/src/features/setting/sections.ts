import { isSecretOptionKey, type OptionKey, optionDefinitions } from '@one-hub/contracts';

/** The three tabs of the settings screen (spec §2: operation, system, other), in their order. */
export const SETTING_TABS = ['operation', 'system', 'other'] as const;
export type SettingTab = (typeof SETTING_TABS)[number];

export function parseTab(value: string | null): SettingTab {
  return SETTING_TABS.find((tab) => tab === value) ?? 'operation';
}

/**
 * How a field is edited. Most follow from the option's type; the others are named in the section
 * list: `multiline` plain text on several lines, `code` monospace text (scripts, HTML), `markdown`
 * with a preview, `rich` markdown/HTML/URL with a preview, `domains` a comma list as chips,
 * `chatLinks` the chat link list editor.
 */
export type FieldKind =
  | 'switch'
  | 'number'
  | 'text'
  | 'secret'
  | 'select'
  | 'json'
  | 'multiline'
  | 'code'
  | 'markdown'
  | 'rich'
  | 'domains'
  | 'chatLinks';

export interface FieldSpec {
  key: OptionKey;
  kind?: FieldKind;
}

export interface SectionSpec {
  id: string;
  tab: SettingTab;
  fields: FieldSpec[];
  /** Takes the whole row on wide screens. */
  wide?: boolean;
  /** Something that is not an option, shown under the fields (it has its own button). */
  extra?: 'logCleanup';
}

const f = (key: OptionKey, kind?: FieldKind): FieldSpec => (kind ? { key, kind } : { key });
const keys = (...list: OptionKey[]) => list.map((key) => f(key));

/**
 * Options the screen does not offer: the installation id (set by the server), and keys the API
 * still stores so the reference's consoles and scripts can write them, but which have no effect
 * here: `OldTokenMaxId` (written by its migration), `GroupRatio` (legacy group ratios: the import
 * turns them into user groups, whose ratio billing reads) and the Cloudflare-worker image fetcher
 * (`CFWorkerImage*`; images are fetched through ChatImageRequestProxy instead).
 */
export const UNLISTED_OPTIONS: readonly OptionKey[] = [
  'InstanceId',
  'OldTokenMaxId',
  'GroupRatio',
  'CFWorkerImageUrl',
  'CFWorkerImageKey',
];

/** Every section of the screen. Each option except the unlisted ones is in exactly one. */
export const SECTIONS: SectionSpec[] = [
  {
    id: 'quota',
    tab: 'operation',
    fields: [
      ...keys(
        'QuotaPerUnit',
        'PreConsumedQuota',
        'QuotaWaitSeconds',
        'BudgetWindowMode',
        'SiteTimeZone',
        'NoChargeForEmptyAnswers',
        'DisplayInCurrencyEnabled',
        'ApproximateTokenEnabled',
      ),
      f('UnpricedModelPolicy'),
    ],
  },
  {
    id: 'users',
    tab: 'operation',
    fields: keys(
      'QuotaForNewUser',
      'QuotaRemindThreshold',
      'QuotaForInviter',
      'QuotaForInvitee',
      'InviterRewardCondition',
    ),
  },
  {
    id: 'retry',
    tab: 'operation',
    fields: keys(
      'RetryTimes',
      'RetryTimeOut',
      'RetryCooldownSeconds',
      'CacheAffinitySeconds',
      'ChatCacheExpireMinute',
      'ChatCacheRatio',
      'ChatCacheEnabled',
    ),
  },
  {
    id: 'monitor',
    tab: 'operation',
    fields: [
      ...keys('ChannelDisableThreshold', 'AutomaticDisableChannelEnabled', 'AutomaticEnableChannelEnabled'),
      f('DisableChannelKeywords', 'multiline'),
    ],
  },
  {
    id: 'health',
    tab: 'operation',
    fields: keys(
      'ChannelHealthWindowSeconds',
      'ChannelHealthMinSamples',
      'ChannelHealthDegradedPercent',
      'ChannelHealthOpenPercent',
      'ChannelHealthCoolOffSeconds',
      'ChannelHealthTrialPercent',
      'ChannelHealthDegradedWeight',
      'ChannelHealthEnabled',
    ),
  },
  {
    id: 'topup',
    tab: 'operation',
    fields: [...keys('PaymentUSDRate', 'PaymentMinAmount', 'TopUpLink'), f('RechargeDiscount')],
  },
  {
    id: 'logs',
    tab: 'operation',
    fields: keys('LogConsumeEnabled', 'LogRetentionDays', 'AuditLogRetentionDays'),
    extra: 'logCleanup',
  },
  {
    id: 'chatLinks',
    tab: 'operation',
    wide: true,
    fields: [f('ChatLink'), f('ChatLinks', 'chatLinks')],
  },

  { id: 'server', tab: 'system', fields: keys('ServerAddress') },
  {
    id: 'access',
    tab: 'system',
    fields: keys(
      'PasswordLoginEnabled',
      'PasswordRegisterEnabled',
      'RegisterEnabled',
      'EmailVerificationEnabled',
      'PasskeyLoginEnabled',
    ),
  },
  { id: 'smtp', tab: 'system', fields: keys('SMTPServer', 'SMTPPort', 'SMTPAccount', 'SMTPFrom', 'SMTPToken') },
  {
    id: 'emailDomain',
    tab: 'system',
    fields: [f('EmailDomainRestrictionEnabled'), f('EmailDomainWhitelist', 'domains')],
  },
  {
    id: 'github',
    tab: 'system',
    fields: keys('GitHubClientId', 'GitHubClientSecret', 'GitHubOAuthEnabled', 'GitHubOldIdCloseEnabled'),
  },
  {
    id: 'oidc',
    tab: 'system',
    fields: keys(
      'OIDCIssuer',
      'OIDCClientId',
      'OIDCClientSecret',
      'OIDCScopes',
      'OIDCUsernameClaims',
      'OIDCAuthEnabled',
    ),
  },
  { id: 'lark', tab: 'system', fields: keys('LarkClientId', 'LarkClientSecret', 'LarkAuthEnabled') },
  {
    id: 'wechat',
    tab: 'system',
    fields: keys('WeChatServerAddress', 'WeChatServerToken', 'WeChatAccountQRCodeImageURL', 'WeChatAuthEnabled'),
  },
  { id: 'turnstile', tab: 'system', fields: keys('TurnstileSiteKey', 'TurnstileSecretKey', 'TurnstileCheckEnabled') },

  {
    id: 'branding',
    tab: 'other',
    fields: [...keys('SystemName', 'Language', 'Logo'), f('Footer', 'rich'), f('AnalyticsCode', 'code')],
  },
  { id: 'notice', tab: 'other', fields: [f('Notice', 'markdown')] },
  { id: 'about', tab: 'other', wide: true, fields: [f('About', 'rich')] },
  { id: 'home', tab: 'other', wide: true, fields: [f('HomePageContent', 'rich')] },
  {
    id: 'models',
    tab: 'other',
    fields: [
      ...keys('ClaudeBudgetTokensPercentage', 'ChatImageRequestProxy', 'GeminiAPIEnabled', 'ClaudeAPIEnabled'),
      ...keys('ClaudeDefaultMaxTokens', 'GeminiOpenThink', 'ChatImageAllowPrivate'),
    ],
  },
  { id: 'safety', tab: 'other', fields: [...keys('SafeToolName', 'EnableSafe'), f('SafeKeyWords', 'multiline')] },
  {
    id: 'extras',
    tab: 'other',
    fields: keys(
      'UptimeDomain',
      'UptimePageName',
      'UptimeEnabled',
      'MjNotifyEnabled',
      'MjNotifyAllowPrivate',
      'UserInvoiceMonth',
    ),
  },
];

/** The editor of a field: named in the section list, else from the option's type. */
export function fieldKind(field: FieldSpec): FieldKind {
  if (field.kind) return field.kind;
  const definition = optionDefinitions[field.key] as { type: string; choices?: readonly string[] };
  if (isSecretOptionKey(field.key)) return 'secret';
  if (definition.choices) return 'select';
  if (definition.type === 'boolean') return 'switch';
  if (definition.type === 'integer' || definition.type === 'number') return 'number';
  if (definition.type === 'json') return 'json';
  return 'text';
}

export const sectionKeys = (section: SectionSpec): OptionKey[] => section.fields.map((field) => field.key);

export function sectionsOf(tab: SettingTab): SectionSpec[] {
  return SECTIONS.filter((section) => section.tab === tab);
}
