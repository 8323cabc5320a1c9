import type { SiteInfo } from '@one-hub/contracts';
import type { OptionService } from '../option/service.js';

/** This server's own facts: its version, when it started, and its Telegram bot's username ('' when off). */
export interface ServerFacts {
  version: string;
  startTime: number;
  telegramBot: () => string;
}

/** What `/api/status` tells anyone, signed in or not, about this installation. */
export function siteInfo(options: OptionService, server: ServerFacts): SiteInfo {
  const flag = options.getBoolean.bind(options);
  const text = options.get.bind(options);
  return {
    version: server.version,
    start_time: server.startTime,
    system_name: text('SystemName'),
    logo: text('Logo'),
    language: text('Language'),
    footer_html: text('Footer'),
    analytics_code: text('AnalyticsCode'),
    server_address: text('ServerAddress'),
    top_up_link: text('TopUpLink'),
    chat_link: text('ChatLink'),
    chat_links: text('ChatLinks'),
    quota_per_unit: options.getNumber('QuotaPerUnit'),
    display_in_currency: flag('DisplayInCurrencyEnabled'),
    email_verification: flag('EmailVerificationEnabled'),
    github_oauth: flag('GitHubOAuthEnabled'),
    github_client_id: text('GitHubClientId'),
    oidc_auth: flag('OIDCAuthEnabled'),
    lark_login: flag('LarkAuthEnabled'),
    lark_client_id: text('LarkClientId'),
    wechat_login: flag('WeChatAuthEnabled'),
    wechat_qrcode: text('WeChatAccountQRCodeImageURL'),
    turnstile_check: flag('TurnstileCheckEnabled'),
    turnstile_site_key: text('TurnstileSiteKey'),
    telegram_bot: server.telegramBot(),
    mj_notify_enabled: flag('MjNotifyEnabled'),
    password_login: flag('PasswordLoginEnabled'),
    password_register: flag('RegisterEnabled') && flag('PasswordRegisterEnabled'),
    register_enabled: flag('RegisterEnabled'),
    passkey_login: flag('PasskeyLoginEnabled'),
    PaymentUSDRate: options.getNumber('PaymentUSDRate'),
    PaymentMinAmount: options.getNumber('PaymentMinAmount'),
    RechargeDiscount: text('RechargeDiscount'),
    EnableSafe: flag('EnableSafe'),
    SafeToolName: text('SafeToolName'),
    // Kept for consoles that read the field, but always empty: the list tells anyone what to spell
    // differently to pass the filter. Root reads it through the options API.
    SafeKeyWords: [],
    UserInvoiceMonth: flag('UserInvoiceMonth'),
    UptimeEnabled: flag('UptimeEnabled'),
    UptimeDomain: text('UptimeDomain'),
    UptimePageName: text('UptimePageName'),
  };
}
