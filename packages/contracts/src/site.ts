/** `GET /api/status` → `data`: everything the console needs before anyone signs in. */
export interface SiteInfo {
  version: string;
  start_time: number;
  system_name: string;
  logo: string;
  /**
   * The site language an administrator set (`Language` option), or '' when none was set: the
   * console then follows each visitor's browser, and a One Hub console its own default (zh_CN).
   */
  language: string;
  footer_html: string;
  analytics_code: string;
  server_address: string;
  top_up_link: string;
  chat_link: string;
  chat_links: string;
  quota_per_unit: number;
  display_in_currency: boolean;
  email_verification: boolean;
  github_oauth: boolean;
  github_client_id: string;
  oidc_auth: boolean;
  lark_login: boolean;
  lark_client_id: string;
  wechat_login: boolean;
  wechat_qrcode: string;
  turnstile_check: boolean;
  turnstile_site_key: string;
  telegram_bot: string;
  mj_notify_enabled: boolean;
  password_login: boolean;
  password_register: boolean;
  /** PasskeyLoginEnabled: the login form offers passkey sign-in, the profile passkey management. */
  passkey_login: boolean;
  register_enabled: boolean;
  PaymentUSDRate: number;
  PaymentMinAmount: number;
  RechargeDiscount: string;
  EnableSafe: boolean;
  SafeToolName: string;
  SafeKeyWords: string[];
  UserInvoiceMonth: boolean;
  UptimeEnabled: boolean;
  UptimeDomain: string;
  UptimePageName: string;
}
