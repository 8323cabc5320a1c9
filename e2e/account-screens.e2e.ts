/// <reference lib="dom" />
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiAuth, apiCall, sessionCookie } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type MailCatcher, nextMailTo, smtpOptions, startMailCatcher } from './support/mail.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-0123456789';
const WECHAT_CODE = '135790';
const WECHAT_OPEN_ID = 'wx-open-id-erin';
const QUOTA_PER_DOLLAR = 500_000;
const desktop = { width: 1280, height: 860 };
const phone = { width: 400, height: 860 };

/** What the mock upstream reports per model, so the dashboard's figures are known in advance. */
const USAGE = {
  'gpt-4o': { prompt: 20_000, completion: 5_000, calls: 2 },
  'gpt-4o-mini': { prompt: 40_000, completion: 10_000, calls: 3 },
} as const;
type MockModel = keyof typeof USAGE;

const USERS = {
  carol: { username: 'carol', password: 'carol-password-1', display_name: 'Carol' },
  dave: { username: 'dave', password: 'dave-password-1', display_name: 'Dave' },
  erin: { username: 'erin', password: 'erin-password-1', display_name: 'Erin' },
} as const;

// ---------------------------------------------------------------------------------------------
// A local stand-in: an OpenAI-style upstream (also a WeChat server).

interface MockUpstream {
  url: string;
  close(): Promise<void>;
}

async function startMockUpstream(): Promise<MockUpstream> {
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/api/wechat/user') {
        const known = url.searchParams.get('code') === WECHAT_CODE;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify(known ? { success: true, data: WECHAT_OPEN_ID } : { success: false, message: 'bad code' }),
        );
        return;
      }
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as { model?: string };
      const model = (body.model ?? 'gpt-4o') as MockModel;
      const usage = USAGE[model] ?? USAGE['gpt-4o'];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-e2e',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [
            { index: 0, message: { role: 'assistant', content: 'Hello from the mock.' }, finish_reason: 'stop' },
          ],
          usage: {
            prompt_tokens: usage.prompt,
            completion_tokens: usage.completion,
            total_tokens: usage.prompt + usage.completion,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The management API, as root (access token) or as a user (session cookie).

let server: RunningServer;
let browser: Browser;
let upstream: MockUpstream;
let mail: MailCatcher;
const contexts: BrowserContext[] = [];
const userIds: Record<string, number> = {};

type Auth = ApiAuth;

const call = <T>(method: string, path: string, auth: Auth, body?: unknown) =>
  apiCall<T>(server.origin, method, path, auth, body);

const root: Auth = { token: ROOT_TOKEN };

async function apiSignIn(username: string, password: string): Promise<Auth> {
  return { cookie: await sessionCookie(server.origin, username, password) };
}

interface Self {
  id: number;
  quota: number;
  used_quota: number;
  display_name: string;
  email: string;
  wechat_id: string;
  username: string;
}

const self = (auth: Auth) => call<Self>('GET', '/api/user/self', auth);
const dollars = (quota: number) => `$${(quota / QUOTA_PER_DOLLAR).toFixed(2)}`;

async function createUser(user: (typeof USERS)[keyof typeof USERS]): Promise<number> {
  await call('POST', '/api/user/', root, user);
  const list = await call<{ data: Array<{ id: number; username: string }> }>(
    'GET',
    `/api/user/?keyword=${user.username}`,
    root,
  );
  const id = list.data.find((entry) => entry.username === user.username)?.id;
  if (!id) throw new Error(`user ${user.username} not found`);
  return id;
}

async function setGroupRate(symbol: string, apiRate: number): Promise<void> {
  const groups = await call<{ data: Array<Record<string, unknown> & { symbol: string }> }>(
    'GET',
    '/api/user_group/?size=100',
    root,
  );
  const group = groups.data.find((entry) => entry.symbol === symbol);
  if (!group) throw new Error(`group ${symbol} not found`);
  await call('PUT', '/api/user_group/', root, { ...group, api_rate: apiRate });
}

/** Real relay traffic through the mock upstream, then waits for the statistics roll-up. */
async function generateUsage(auth: Auth): Promise<void> {
  const token = await call<{ key: string }>('POST', '/api/token/', auth, {
    name: 'e2e usage',
    remain_quota: 0,
    unlimited_quota: true,
  });
  const key = token.key.startsWith('sk-') ? token.key : `sk-${token.key}`;
  for (const [model, usage] of Object.entries(USAGE)) {
    for (let attempt = 0; attempt < usage.calls; attempt++) {
      const response = await fetch(`${server.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] }),
      });
      expect(response.status).toBe(200);
    }
  }
  const expected = Object.values(USAGE).reduce((sum, usage) => sum + usage.calls, 0);
  // The log writer batches rows for about a second before the roll-up has them.
  for (let attempt = 0; attempt < 75; attempt++) {
    const rows = await call<Array<{ RequestCount: number }> | null>('GET', '/api/user/dashboard', auth);
    if ((rows ?? []).reduce((sum, row) => sum + row.RequestCount, 0) === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the relayed requests never reached the dashboard statistics');
}

// ---------------------------------------------------------------------------------------------
// Browser helpers.

async function openPage(
  options: { language?: string; dark?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: options.viewport ?? desktop,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  contexts.push(context);
  const page = await context.newPage();
  await page.addInitScript(
    ({ language, dark }) => {
      if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', language);
      if (dark) window.localStorage.setItem('theme', 'dark');
    },
    { language: options.language ?? 'en_US', dark: options.dark ?? false },
  );
  return page;
}

const signIn = (page: Page, username: string, password: string) =>
  signInWithForm(page, server.origin, username, password);

const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').trim();
const lastToast = (page: Page) => page.locator('.notistack-MuiContent').last();

/** Lets the charts and fonts settle (and, unless they are the point, the toasts go) before a screenshot. */
async function settledScreenshot(page: Page, name: string, options: { keepToasts?: boolean } = {}): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  // A full-page capture of a scrolled page paints the fixed top bar mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  if (!options.keepToasts) {
    await expect.poll(() => page.locator('.notistack-MuiContent').count(), { timeout: 15_000 }).toBe(0);
  }
  await page.waitForTimeout(300);
  await screenshot(page, name);
}

beforeAll(async () => {
  upstream = await startMockUpstream();
  mail = await startMailCatcher();
  server = await startServer({
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    // Many sign-ins and password changes from one address in a few seconds.
    CRITICAL_RATE_LIMIT: '0',
  });
  const options: Record<string, string> = {
    ...Object.fromEntries(smtpOptions(mail)),
    WeChatServerAddress: upstream.url,
    WeChatAuthEnabled: 'true',
    GitHubClientId: 'e2e-github-client',
    GitHubClientSecret: 'e2e-github-secret',
    GitHubOAuthEnabled: 'true',
  };
  for (const [key, value] of Object.entries(options)) await call('PUT', '/api/option/', root, { key, value });
  for (const [name, user] of Object.entries(USERS)) userIds[name] = await createUser(user);
  await call('POST', '/api/channel/', root, {
    name: 'mock upstream',
    type: 1,
    key: 'sk-mock-upstream',
    base_url: upstream.url,
    models: Object.keys(USAGE).join(','),
    group: 'default',
  });
  // Below 60 a minute the limiter counts a fixed window, so the rate card's figure is exact.
  await setGroupRate('default', 30);
  await setGroupRate('vip', 0);
  await call('PUT', '/api/user/', root, { id: userIds.dave, group: 'vip' });
  await call('POST', `/api/user/quota/${userIds.carol}`, root, { quota: 50 * QUOTA_PER_DOLLAR });
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  await upstream?.close();
  await mail?.close();
});

// ---------------------------------------------------------------------------------------------

describe('dashboard', () => {
  let carol: Auth;

  beforeAll(async () => {
    carol = await apiSignIn(USERS.carol.username, USERS.carol.password);
    await generateUsage(carol);
  });

  it('charts the relayed usage of the last 8 days with figures that match it', async () => {
    const page = await openPage();
    const rateAnswer = page.waitForResponse((response) => response.url().endsWith('/api/user/dashboard/rate'));
    await signIn(page, USERS.carol.username, USERS.carol.password);
    await page.getByTestId('dashboard-trend').waitFor();
    const account = await self(carol);

    const requests = Object.values(USAGE).reduce((sum, usage) => sum + usage.calls, 0);
    const tokens = Object.values(USAGE).reduce(
      (sum, usage) => sum + usage.calls * (usage.prompt + usage.completion),
      0,
    );
    expect(await text(page, 'dashboard-period-requests')).toBe(String(requests));
    expect((await text(page, 'dashboard-period-tokens')).replace(/\D/g, '')).toBe(String(tokens));
    expect(await text(page, 'dashboard-period-quota')).toBe(dollars(account.used_quota));
    expect(await text(page, 'user-used-quota')).toBe(dollars(account.used_quota));
    expect(await text(page, 'user-quota')).toBe(dollars(account.quota));
    expect(await text(page, 'user-request-count')).toBe(String(requests));
    expect(await text(page, 'user-name')).toContain('Carol');
    // Eight days on the axis, today and the seven before, with zeros where nothing happened.
    expect(
      await page.locator('[data-testid=dashboard-trend-chart] .recharts-xAxis .recharts-cartesian-axis-tick').count(),
    ).toBe(8);

    await page.getByTestId('dashboard-models-metric-requests').click();
    for (const [model, usage] of Object.entries(USAGE)) {
      expect(await text(page, `dashboard-model-value-${model}`)).toBe(String(usage.calls));
    }

    const rate = (await (await rateAnswer).json()).data as { rpm: number; maxRPM: number };
    expect(rate.maxRPM).toBe(30);
    expect(await text(page, 'dashboard-rate-max')).toBe('30');
    expect(Number(await text(page, 'dashboard-rate-rpm'))).toBe(rate.rpm);
    await settledScreenshot(page, 'account-dashboard');

    await page.getByTestId('dashboard-trend-metric-tokens').click();
    await page.locator('[data-testid=dashboard-trend-chart] .recharts-area').nth(1).waitFor();
  });

  it('looks right in the dark theme, in Chinese and at 400 px', async () => {
    const dark = await openPage({ dark: true });
    await signIn(dark, USERS.carol.username, USERS.carol.password);
    await dark.getByTestId('dashboard-models').waitFor();
    await settledScreenshot(dark, 'account-dashboard-dark');

    const chinese = await openPage({ language: 'zh_CN' });
    await signIn(chinese, USERS.carol.username, USERS.carol.password);
    await chinese.getByTestId('dashboard-models').waitFor();
    expect(await text(chinese, 'dashboard-rate')).toContain('速率限制');
    await settledScreenshot(chinese, 'account-dashboard-zh_CN');

    const small = await openPage({ viewport: phone });
    await signIn(small, USERS.carol.username, USERS.carol.password);
    await small.getByTestId('dashboard-models').waitFor();
    const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await settledScreenshot(small, 'account-dashboard-phone');
  });

  it('shows a new user an empty state and an unlimited rate', async () => {
    const page = await openPage();
    await signIn(page, USERS.dave.username, USERS.dave.password);
    await page.getByTestId('dashboard-empty').waitFor();
    await page.getByTestId('dashboard-rate-unlimited').waitFor();
    expect(await text(page, 'user-request-count')).toBe('0');
    await settledScreenshot(page, 'account-dashboard-empty');
  });
});

describe('top-up', () => {
  let codes: string[];
  const CODE_QUOTA = 1_250_000;

  beforeAll(async () => {
    codes = await call<string[]>('POST', '/api/redemption/', root, { name: 'e2e codes', quota: CODE_QUOTA, count: 2 });
  });

  it('redeems a code: the balance rises by exactly its quota', async () => {
    const carol = await apiSignIn(USERS.carol.username, USERS.carol.password);
    const before = await self(carol);
    const page = await openPage();
    await signIn(page, USERS.carol.username, USERS.carol.password);
    await page.getByTestId('menu-topup').click();
    await page.waitForURL('**/panel/topup');
    await expect.poll(() => text(page, 'topup-balance')).toBe(dollars(before.quota));
    expect(await page.getByTestId('topup-no-link').count()).toBe(1);
    // No payment gateways on this server: the online payment section stays hidden.
    expect(await page.getByTestId('topup-payment').count()).toBe(0);

    await page.getByTestId('topup-redeem').click();
    await page.locator('.MuiFormHelperText-root.Mui-error').first().waitFor();

    await page.getByTestId('topup-code').fill(codes[0] ?? '');
    await page.getByTestId('topup-redeem').click();
    await expect.poll(() => lastToast(page).textContent()).toContain(dollars(CODE_QUOTA));
    await expect.poll(() => text(page, 'topup-balance')).toBe(dollars(before.quota + CODE_QUOTA));
    expect((await self(carol)).quota).toBe(before.quota + CODE_QUOTA);
    expect(await page.getByTestId('topup-code').inputValue()).toBe('');

    await page.getByTestId('topup-code').fill(codes[0] ?? '');
    await page.getByTestId('topup-redeem').click();
    await expect.poll(() => lastToast(page).textContent()).toContain('already been used');
    expect((await self(carol)).quota).toBe(before.quota + CODE_QUOTA);
    await settledScreenshot(page, 'account-topup', { keepToasts: true });
  });

  it('copies the invite link', async () => {
    const carol = await apiSignIn(USERS.carol.username, USERS.carol.password);
    const affCode = await call<string>('GET', '/api/user/aff', carol);
    const options = await call<Array<{ key: string; value: string }>>('GET', '/api/option/', root);
    const serverAddress = options.find((option) => option.key === 'ServerAddress')?.value.replace(/\/+$/, '') ?? '';
    const expected = `${serverAddress || server.origin}/register?aff=${affCode}`;

    const page = await openPage();
    await signIn(page, USERS.carol.username, USERS.carol.password);
    await page.goto(`${server.origin}/panel/topup`);
    await expect.poll(() => page.getByTestId('topup-invite-link').inputValue()).toBe(expected);
    await page.getByTestId('topup-invite-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(expected);

    // Without a configured server address, the console's own origin stands in.
    await call('PUT', '/api/option/', root, { key: 'ServerAddress', value: '' });
    await call('PUT', '/api/option/', root, { key: 'TopUpLink', value: 'https://shop.example.com/codes' });
    await page.reload();
    await expect
      .poll(() => page.getByTestId('topup-invite-link').inputValue())
      .toBe(`${server.origin}/register?aff=${affCode}`);
    expect(await page.getByTestId('topup-buy').getAttribute('href')).toBe('https://shop.example.com/codes');
  });

  it('looks right in the dark theme, in Chinese and at 400 px', async () => {
    for (const [name, options] of [
      ['account-topup-dark', { dark: true }],
      ['account-topup-zh_CN', { language: 'zh_CN' }],
      ['account-topup-phone', { viewport: phone }],
    ] as const) {
      const page = await openPage(options);
      await signIn(page, USERS.carol.username, USERS.carol.password);
      await page.goto(`${server.origin}/panel/topup`);
      await page.getByTestId('topup-invite-link').waitFor();
      await expect.poll(() => page.getByTestId('topup-invite-link').inputValue()).toContain('aff=');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await settledScreenshot(page, name);
    }
  });
});

describe('profile', () => {
  let page: Page;
  const newPassword = 'erin-new-password-2';

  beforeAll(async () => {
    page = await openPage();
    await signIn(page, USERS.erin.username, USERS.erin.password);
    await page.goto(`${server.origin}/panel/profile`);
    await page.getByTestId('profile-bindings').waitFor();
  });

  it('changes the display name', async () => {
    expect(await page.getByTestId('profile-username').inputValue()).toBe('erin');
    expect(await page.getByTestId('profile-username').isDisabled()).toBe(true);
    await page.getByTestId('profile-display-name').fill('Erin Example');
    await page.getByTestId('profile-save').click();
    await expect.poll(() => text(page, 'profile-heading')).toBe('Erin Example');
    const erin = await apiSignIn(USERS.erin.username, USERS.erin.password);
    expect((await self(erin)).display_name).toBe('Erin Example');
  });

  it('changes the password after checking length and confirmation, and signs in with it', async () => {
    await page.getByTestId('profile-password').fill('short');
    await page.getByTestId('profile-password-confirm').fill('short');
    await page.getByTestId('profile-save').click();
    await page.locator('.MuiFormHelperText-root.Mui-error').first().waitFor();
    await page.getByTestId('profile-password').fill(newPassword);
    await page.getByTestId('profile-password-confirm').fill(`${newPassword}x`);
    await page.getByTestId('profile-save').click();
    await expect.poll(() => page.locator('.MuiFormHelperText-root.Mui-error').count()).toBe(1);

    await page.getByTestId('profile-password-confirm').fill(newPassword);
    await page.getByTestId('profile-save').click();
    await expect.poll(() => page.getByTestId('profile-password').inputValue()).toBe('');

    await page.getByTestId('avatar-menu').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/panel'));
    const refused = await fetch(`${server.origin}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: USERS.erin.username, password: USERS.erin.password }),
    });
    expect(refused.status).toBe(401);
    await signIn(page, USERS.erin.username, newPassword);
    await page.goto(`${server.origin}/panel/profile`);
    await page.getByTestId('profile-bindings').waitFor();
  });

  it('regenerates the access token after a confirmation, and the token works', async () => {
    await page.getByTestId('profile-token-generate').click();
    await page.getByTestId('profile-token-dialog-confirm').click();
    const token = await page.getByTestId('profile-token-value').inputValue();
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    await page.getByTestId('profile-token-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    expect((await self({ token })).username).toBe('erin');
  });

  it('binds an e-mail address with the code mailed to it', async () => {
    const address = 'erin@example.com';
    const seen = mail.mails.length;
    await page.getByTestId('profile-bind-email').click();
    await page.getByTestId('profile-email-input').fill(address);
    await page.getByTestId('profile-email-send').click();
    const message = await nextMailTo(mail, address, seen);
    const code = /verification code for .+? is ([A-Za-z0-9]+)\./.exec(message)?.[1] ?? '';
    expect(code).not.toBe('');
    await page.getByTestId('profile-email-code').fill(code);
    await page.getByTestId('profile-email-submit').click();
    await expect.poll(() => text(page, 'profile-binding-email-detail')).toBe(address);
    expect(await text(page, 'profile-binding-email-status')).toBe('Linked');
    const erin = await apiSignIn(USERS.erin.username, newPassword);
    expect((await self(erin)).email).toBe(address);
  });

  it('binds and unbinds WeChat with the code the official account replied with', async () => {
    await page.getByTestId('profile-bind-wechat').click();
    await page.getByTestId('profile-wechat-code').fill(WECHAT_CODE);
    await page.getByTestId('profile-wechat-submit').click();
    await expect.poll(() => text(page, 'profile-binding-wechat-detail')).toContain(WECHAT_OPEN_ID);
    await settledScreenshot(page, 'account-profile');

    await page.getByTestId('profile-unbind-wechat').click();
    await page.getByTestId('profile-unbind-dialog-confirm').click();
    await expect.poll(() => text(page, 'profile-binding-wechat-status')).toBe('Not linked');
    const erin = await apiSignIn(USERS.erin.username, newPassword);
    expect((await self(erin)).wechat_id).toBe('');
  });

  it('starts the GitHub binding with the server’s state', async () => {
    await page.route('https://github.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<p>GitHub stand-in</p>' }),
    );
    await page.getByTestId('profile-bind-github').click();
    await page.waitForURL('https://github.com/**');
    const target = new URL(page.url());
    expect(target.pathname).toBe('/login/oauth/authorize');
    expect(target.searchParams.get('client_id')).toBe('e2e-github-client');
    expect(target.searchParams.get('scope')).toBe('user:email');
    expect(target.searchParams.get('state')).toMatch(/^[A-Za-z0-9]{12}$/);
  });

  it('looks right in the dark theme, in Chinese and at 400 px', async () => {
    for (const [name, options] of [
      ['account-profile-dark', { dark: true }],
      ['account-profile-zh_CN', { language: 'zh_CN' }],
      ['account-profile-phone', { viewport: phone }],
    ] as const) {
      const view = await openPage(options);
      await signIn(view, USERS.erin.username, newPassword);
      await view.goto(`${server.origin}/panel/profile`);
      await view.getByTestId('profile-bindings').waitFor();
      const overflow = await view.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await settledScreenshot(view, name);
    }
  });
});
