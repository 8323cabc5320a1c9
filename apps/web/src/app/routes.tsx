import { type ComponentType, lazy } from 'react';
import { NotFoundPage } from '../features/errors/NotFoundPage.js';

/**
 * THE ROUTE TABLE. Each screen is one line: its path (relative to its layout), its page, and
 * `admin: true` when only role ≥ 10 may open it, `root: true` when only the super administrator may.
 * A screen that is not built has no route and no menu entry.
 */
export interface PageRoute {
  /** '' is the layout's index route. */
  path: string;
  admin?: boolean;
  root?: boolean;
  page: ComponentType;
}

/** A code-split page from a module's named export. */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): ComponentType {
  return lazy<ComponentType>(async () => ({ default: (await load())[name] }));
}

const DashboardPage = lazyPage(() => import('../features/dashboard/DashboardPage.js'), 'DashboardPage');

/** Public layout, under `/` (spec §2). */
export const publicRoutes: PageRoute[] = [
  { path: '', page: lazyPage(() => import('../features/home/HomePage.js'), 'HomePage') },
  { path: 'about', page: lazyPage(() => import('../features/about/AboutPage.js'), 'AboutPage') },
  { path: 'login', page: lazyPage(() => import('../features/auth/LoginPage.js'), 'LoginPage') },
  { path: 'register', page: lazyPage(() => import('../features/auth/RegisterPage.js'), 'RegisterPage') },
  { path: 'reset', page: lazyPage(() => import('../features/auth/ResetPage.js'), 'ResetPage') },
  { path: 'user/reset', page: lazyPage(() => import('../features/auth/UserResetPage.js'), 'UserResetPage') },
  { path: 'oauth/github', page: lazyPage(() => import('../features/auth/OAuthReturnPage.js'), 'GitHubOAuthPage') },
  { path: 'oauth/oidc', page: lazyPage(() => import('../features/auth/OAuthReturnPage.js'), 'OidcOAuthPage') },
  { path: 'oauth/lark', page: lazyPage(() => import('../features/auth/OAuthReturnPage.js'), 'LarkOAuthPage') },
  { path: '404', page: NotFoundPage },
  { path: 'jump', page: lazyPage(() => import('../features/jump/JumpPage.js'), 'JumpPage') },
  {
    path: 'playground',
    page: lazyPage(() => import('../features/playground/PlaygroundPage.js'), 'PublicPlaygroundPage'),
  },
];

/** Console layout, under `/panel`; every route here needs a signed-in user (spec §2, §6). */
export const panelRoutes: PageRoute[] = [
  { path: '', page: DashboardPage },
  { path: 'dashboard', page: DashboardPage },
  {
    path: 'channel',
    admin: true,
    page: lazyPage(() => import('../features/channel/ChannelPage.js'), 'ChannelPage'),
  },
  { path: 'log', page: lazyPage(() => import('../features/log/LogPage.js'), 'LogPage') },
  {
    path: 'audit',
    admin: true,
    page: lazyPage(() => import('../features/audit/AuditPage.js'), 'AuditPage'),
  },
  {
    path: 'midjourney',
    page: lazyPage(() => import('../features/midjourney/MidjourneyPage.js'), 'MidjourneyPage'),
  },
  { path: 'task', page: lazyPage(() => import('../features/task/TaskPage.js'), 'TaskPage') },
  {
    path: 'redemption',
    admin: true,
    page: lazyPage(() => import('../features/redemption/RedemptionPage.js'), 'RedemptionPage'),
  },
  {
    path: 'payment',
    admin: true,
    page: lazyPage(() => import('../features/payment/PaymentPage.js'), 'PaymentPage'),
  },
  {
    path: 'setting',
    root: true,
    page: lazyPage(() => import('../features/setting/SettingPage.js'), 'SettingPage'),
  },
  { path: 'token', page: lazyPage(() => import('../features/token/TokenPage.js'), 'TokenPage') },
  { path: 'topup', page: lazyPage(() => import('../features/topup/TopupPage.js'), 'TopupPage') },
  { path: 'invoice', page: lazyPage(() => import('../features/invoice/InvoicePage.js'), 'InvoicePage') },
  {
    path: 'invoice/detail/:date',
    page: lazyPage(() => import('../features/invoice/InvoiceDetailPage.js'), 'InvoiceDetailPage'),
  },
  {
    path: 'user',
    admin: true,
    page: lazyPage(() => import('../features/user/UserPage.js'), 'UserPage'),
  },
  { path: 'profile', page: lazyPage(() => import('../features/profile/ProfilePage.js'), 'ProfilePage') },
  {
    path: 'system_info',
    root: true,
    page: lazyPage(() => import('../features/system-info/SystemInfoPage.js'), 'SystemInfoPage'),
  },
  {
    path: 'analytics',
    admin: true,
    page: lazyPage(() => import('../features/analytics/AnalyticsPage.js'), 'AnalyticsPage'),
  },
  { path: '404', page: NotFoundPage },
  {
    path: 'pricing',
    admin: true,
    page: lazyPage(() => import('../features/pricing/PricingPage.js'), 'PricingPage'),
  },
  { path: 'model_price', page: lazyPage(() => import('../features/model-price/ModelPricePage.js'), 'ModelPricePage') },
  { path: 'playground', page: lazyPage(() => import('../features/playground/PlaygroundPage.js'), 'PlaygroundPage') },
  {
    path: 'user_group',
    admin: true,
    page: lazyPage(() => import('../features/user-group/UserGroupPage.js'), 'UserGroupPage'),
  },
  {
    path: 'plan',
    admin: true,
    page: lazyPage(() => import('../features/plan/PlanPage.js'), 'PlanPage'),
  },
  {
    path: 'telegram',
    admin: true,
    page: lazyPage(() => import('../features/telegram/TelegramPage.js'), 'TelegramPage'),
  },
];
