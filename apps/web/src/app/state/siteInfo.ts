import { isRecord, type SiteInfo } from '@one-hub/contracts';
import { readJson, storageKeys, writeJson, writeText } from '../../lib/storage.js';

/** Site info as the console holds it: `/api/status` data plus whether it has arrived yet. */
export interface SiteInfoState extends SiteInfo {
  /** True until `/api/status` has answered or failed (spec §3, §4). */
  isLoading: boolean;
}

/** What the console assumes before `/api/status` answers (spec §3). */
export const defaultSiteInfo: SiteInfoState = {
  chat_link: '',
  chat_links: '',
  display_in_currency: true,
  email_verification: false,
  footer_html: '',
  github_client_id: '',
  github_oauth: false,
  oidc_auth: false,
  logo: '',
  quota_per_unit: 500000,
  server_address: '',
  start_time: 0,
  system_name: 'One Hub',
  language: 'zh_CN',
  top_up_link: '',
  turnstile_check: false,
  turnstile_site_key: '',
  version: '',
  wechat_login: false,
  wechat_qrcode: '',
  lark_login: false,
  lark_client_id: '',
  telegram_bot: '',
  analytics_code: '',
  mj_notify_enabled: false,
  password_login: true,
  password_register: true,
  register_enabled: true,
  passkey_login: false,
  PaymentUSDRate: 0,
  PaymentMinAmount: 0,
  RechargeDiscount: '',
  EnableSafe: false,
  SafeToolName: '',
  SafeKeyWords: [],
  UserInvoiceMonth: false,
  UptimeEnabled: false,
  UptimeDomain: '',
  UptimePageName: '',
  isLoading: true,
};

function isStoredSiteInfo(value: unknown): value is Partial<SiteInfo> {
  return isRecord(value) && typeof value.system_name === 'string';
}

/** The copy saved by an earlier visit, merged over the defaults; null when there is none. */
export function readStoredSiteInfo(): Partial<SiteInfo> | null {
  return readJson(storageKeys.siteInfo, isStoredSiteInfo);
}

/** Saves the status answer under siteInfo, plus the two quota keys the reference also keeps. */
export function storeSiteInfo(info: SiteInfo): void {
  writeJson(storageKeys.siteInfo, info);
  writeText(storageKeys.quotaPerUnit, String(info.quota_per_unit));
  writeText(storageKeys.displayInCurrency, String(info.display_in_currency));
}

export function mergeSiteInfo(info: Partial<SiteInfo> | null, isLoading: boolean): SiteInfoState {
  return { ...defaultSiteInfo, ...(info ?? {}), isLoading };
}
