import { z } from 'zod';

export type OptionType = 'boolean' | 'integer' | 'number' | 'string' | 'json';

interface OptionDefinition {
  type: OptionType;
  default: string;
}

const bool = (value: boolean): OptionDefinition => ({ type: 'boolean', default: String(value) });
const int = (value: number): OptionDefinition => ({ type: 'integer', default: String(value) });
const num = (value: number): OptionDefinition => ({ type: 'number', default: String(value) });
const str = (value = ''): OptionDefinition => ({ type: 'string', default: value });
const json = (value: unknown): OptionDefinition => ({ type: 'json', default: JSON.stringify(value) });

export const DEFAULT_CHAT_LINKS = [
  {
    name: 'ChatGPT Next',
    url: 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{server}"}',
    show: true,
    sort: 1,
  },
  {
    name: 'chatgpt-web-midjourney-proxy',
    url: 'https://vercel.ddaiai.com/#/?settings={"key":"{key}","url":"{server}"}',
    show: true,
    sort: 2,
  },
  { name: 'AMA', url: 'ama://set-api-key?server={server}&key={key}', show: false, sort: 3 },
  { name: 'OpenCat', url: 'opencat://team/join?domain={server}&token={key}', show: false, sort: 4 },
];

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
  WeChatServerAddress: str(),
  WeChatServerToken: str(),
  WeChatAccountQRCodeImageURL: str(),
  LarkAuthEnabled: bool(false),
  LarkClientId: str(),
  LarkClientSecret: str(),
  OIDCAuthEnabled: bool(false),
  OIDCClientId: str(),
  OIDCClientSecret: str(),
  OIDCIssuer: str(),
  OIDCScopes: str('openid,email,profile'),
  OIDCUsernameClaims: str('preferred_username'),
  TurnstileCheckEnabled: bool(false),
  TurnstileSiteKey: str(),
  TurnstileSecretKey: str(),
  SMTPServer: str(),
  SMTPPort: int(587),
  SMTPAccount: str(),
  SMTPFrom: str(),
  SMTPToken: str(),
  Notice: str(),
  About: str(),
  HomePageContent: str(),
  Footer: str(),
  SystemName: str('One Hub'),
  Logo: str(),
  AnalyticsCode: str(),
  Language: str('zh_CN'),
  ServerAddress: str('http://localhost:3000'),
  TopUpLink: str(),
  ChatLink: str(),
  ChatLinks: json(DEFAULT_CHAT_LINKS),
  QuotaPerUnit: num(500000),
  DisplayInCurrencyEnabled: bool(true),
  QuotaForNewUser: int(0),
  QuotaForInviter: int(0),
  QuotaForInvitee: int(0),
  QuotaRemindThreshold: int(1000),
  PreConsumedQuota: int(500),
  LogConsumeEnabled: bool(true),
  ApproximateTokenEnabled: bool(false),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  ChannelDisableThreshold: num(5),
  DisableChannelKeywords: str(DEFAULT_DISABLE_KEYWORDS),
  RetryTimes: int(0),
  RetryTimeOut: int(10),
  RetryCooldownSeconds: int(5),
  MjNotifyEnabled: bool(false),
  ChatImageRequestProxy: str(),
  PaymentUSDRate: num(7.3),
  PaymentMinAmount: int(1),
  RechargeDiscount: json({}),
  GeminiAPIEnabled: bool(true),
  ClaudeAPIEnabled: bool(true),
  EnableSafe: bool(false),
  SafeToolName: str('Keyword'),
  SafeKeyWords: str(),
  ClaudeBudgetTokensPercentage: num(0.8),
  ClaudeDefaultMaxTokens: json({ default: 8192 }),
  GeminiOpenThink: json({}),
  UserInvoiceMonth: bool(false),
  UptimeEnabled: bool(false),
  UptimeDomain: str(),
  UptimePageName: str(),
  /** Set once on first start; namespaces this installation's keys in a shared Redis. */
  InstanceId: str(),
} satisfies Record<string, OptionDefinition>;

export type OptionKey = keyof typeof optionDefinitions;
export type OptionValues = Record<OptionKey, string>;

export function isOptionKey(key: string): key is OptionKey {
  return Object.hasOwn(optionDefinitions, key);
}

/** Keys whose values never leave the server: names ending in Token, Secret or SecretKey. */
export function isSecretOptionKey(key: string): boolean {
  return key.endsWith('Token') || key.endsWith('Secret') || key.endsWith('SecretKey');
}

/** Checks a value against its option's type; returns the normalised string or an error text. */
export function normaliseOptionValue(key: OptionKey, raw: string): { value: string } | { error: string } {
  const { type } = optionDefinitions[key];
  const value = raw.trim();
  switch (type) {
    case 'boolean':
      if (value === 'true' || value === 'false') return { value };
      return { error: `${key} must be true or false` };
    case 'integer':
      if (/^-?\d+$/.test(value) && Number.isSafeInteger(Number(value))) return { value: String(Number(value)) };
      return { error: `${key} must be an integer` };
    case 'number':
      if (value !== '' && Number.isFinite(Number(value))) return { value: String(Number(value)) };
      return { error: `${key} must be a number` };
    case 'json':
      try {
        JSON.parse(value);
        return { value };
      } catch {
        return { error: `${key} must be valid JSON` };
      }
    default:
      return { value: raw };
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
