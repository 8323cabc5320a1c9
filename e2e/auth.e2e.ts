/// <reference lib="dom" />
import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi, apiCall } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type MailCatcher, nextMailTo, smtpOptions, startMailCatcher } from './support/mail.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-0123456789';
const OIDC_CLIENT_ID = 'one-hub-e2e';
const WECHAT_CODE = '246810';
const desktop = { width: 1280, height: 860 };

// ---------------------------------------------------------------------------------------------
// A mock identity provider: OIDC discovery, authorize, token and JWKS, plus a WeChat server.

interface OidcIdentity {
  sub: string;
  username: string;
  name: string;
}

interface MockProvider {
  origin: string;
  /** Who the next sign-in at the authorize page is. */
  identity: OidcIdentity;
  close(): Promise<void>;
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

function signIdToken(privateKey: KeyObject, claims: Record<string, unknown>): string {
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'e2e-key' }));
  const payload = base64url(JSON.stringify(claims));
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey);
  return `${header}.${payload}.${base64url(signature)}`;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return new URLSearchParams(Buffer.concat(parts).toString('utf8'));
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const QR_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="210" height="210" viewBox="0 0 7 7" shape-rendering="crispEdges">
<rect width="7" height="7" fill="#fff"/><path d="M0 0h3v3H0zM4 0h3v3H4zM0 4h3v3H0zM4 4h1v1H4zM6 4h1v3H6zM4 6h1v1H4zM5 5h1v1H5z" fill="#111"/></svg>`;

async function startMockProvider(): Promise<MockProvider> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'e2e-key', use: 'sig', alg: 'RS256' };
  const pendingCodes = new Map<string, { nonce: string; identity: OidcIdentity }>();
  const mock: MockProvider = {
    origin: '',
    identity: { sub: 'oidc-subject-1', username: 'oidcuser', name: 'OIDC User' },
    close: async () => undefined,
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', mock.origin);
      switch (url.pathname) {
        case '/.well-known/openid-configuration':
          return sendJson(response, 200, {
            issuer: mock.origin,
            authorization_endpoint: `${mock.origin}/authorize`,
            token_endpoint: `${mock.origin}/token`,
            jwks_uri: `${mock.origin}/jwks`,
            token_endpoint_auth_methods_supported: ['client_secret_post'],
          });
        case '/authorize': {
          const code = randomBytes(8).toString('hex');
          pendingCodes.set(code, { nonce: url.searchParams.get('nonce') ?? '', identity: { ...mock.identity } });
          const back = new URL(url.searchParams.get('redirect_uri') ?? '');
          back.searchParams.set('code', code);
          back.searchParams.set('state', url.searchParams.get('state') ?? '');
          response.writeHead(302, { location: back.href });
          return response.end();
        }
        case '/token': {
          const form = await readForm(request);
          const pending = pendingCodes.get(form.get('code') ?? '');
          if (!pending) return sendJson(response, 400, { error: 'invalid_grant' });
          pendingCodes.delete(form.get('code') ?? '');
          const now = Math.floor(Date.now() / 1000);
          const idToken = signIdToken(privateKey, {
            iss: mock.origin,
            aud: OIDC_CLIENT_ID,
            sub: pending.identity.sub,
            preferred_username: pending.identity.username,
            name: pending.identity.name,
            nonce: pending.nonce,
            iat: now,
            exp: now + 300,
          });
          return sendJson(response, 200, { id_token: idToken, access_token: 'mock-access', token_type: 'Bearer' });
        }
        case '/jwks':
          return sendJson(response, 200, { keys: [jwk] });
        case '/api/wechat/user':
          return url.searchParams.get('code') === WECHAT_CODE
            ? sendJson(response, 200, { success: true, message: '', data: 'wechat-open-id-1' })
            : sendJson(response, 200, { success: false, message: 'the code is wrong or has expired' });
        case '/qr.svg':
          response.writeHead(200, { 'content-type': 'image/svg+xml' });
          return response.end(QR_SVG);
        default:
          response.writeHead(404);
          return response.end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return mock;
}

// ---------------------------------------------------------------------------------------------

let server: RunningServer;
let browser: Browser;
let admin: AdminApi;
let mail: MailCatcher;
let provider: MockProvider;
const contexts: BrowserContext[] = [];

/** A fresh browser context (own cookies and storage) with a language and optionally dark mode. */
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
      window.localStorage.setItem('appLanguage', language);
      if (dark) window.localStorage.setItem('theme', 'dark');
    },
    { language: options.language ?? 'en_US', dark: options.dark ?? false },
  );
  return page;
}

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).first().textContent()) ?? '';

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await signInWithForm(page, server.origin, username, password);
  await page.getByTestId('avatar-menu').waitFor();
}

const rootGet = <T>(path: string) => apiCall<T>(server.origin, 'GET', path, { token: ROOT_TOKEN });

beforeAll(async () => {
  mail = await startMailCatcher();
  provider = await startMockProvider();
  server = await startServer({
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    CRITICAL_RATE_LIMIT: '1000',
  });
  admin = adminApi(server.origin, ROOT_TOKEN);
  const options: Array<[string, string]> = [
    ['ServerAddress', server.origin],
    ...smtpOptions(mail),
    ['EmailVerificationEnabled', 'true'],
    ['GitHubClientId', 'e2e-github-client'],
    ['GitHubClientSecret', 'e2e-github-secret'],
    ['GitHubOAuthEnabled', 'true'],
    ['OIDCClientId', OIDC_CLIENT_ID],
    ['OIDCClientSecret', 'e2e-oidc-secret'],
    ['OIDCIssuer', provider.origin],
    ['OIDCScopes', 'openid profile'],
    ['OIDCUsernameClaims', 'preferred_username'],
    ['OIDCAuthEnabled', 'true'],
    ['LarkClientId', 'cli_e2e_lark'],
    ['LarkClientSecret', 'e2e-lark-secret'],
    ['LarkAuthEnabled', 'true'],
    ['WeChatServerAddress', provider.origin],
    ['WeChatServerToken', 'e2e-wechat-token'],
    ['WeChatAccountQRCodeImageURL', `${provider.origin}/qr.svg`],
    ['WeChatAuthEnabled', 'true'],
  ];
  for (const [key, value] of options) await admin.setOption(key, value);
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  await provider?.close();
  await mail?.close();
});

describe('login page', () => {
  it('shows every sign-in button the site turns on, and the links', async () => {
    const page = await openPage();
    await page.goto(`${server.origin}/login`);
    for (const id of ['login-github', 'login-oidc', 'login-lark', 'login-wechat', 'login-register', 'login-forgot']) {
      await page.getByTestId(id).waitFor();
    }
    expect(await text(page, 'login-oidc')).toContain('OIDC');
    await screenshot(page, 'auth-login');
  });

  it('hides the buttons when the site turns them off', async () => {
    await admin.setOption('LarkAuthEnabled', 'false');
    await admin.setOption('WeChatAuthEnabled', 'false');
    try {
      const page = await openPage();
      await page.goto(`${server.origin}/login`);
      await page.getByTestId('login-oidc').waitFor();
      expect(await page.getByTestId('login-lark').count()).toBe(0);
      expect(await page.getByTestId('login-wechat').count()).toBe(0);
    } finally {
      await admin.setOption('LarkAuthEnabled', 'true');
      await admin.setOption('WeChatAuthEnabled', 'true');
    }
  });

  it('shows the server’s message for a wrong password, then signs in to /panel', async () => {
    const page = await openPage();
    await page.goto(`${server.origin}/login`);
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.locator('.Mui-error').count()).toBeGreaterThan(0);
    await page.locator('input[name=username]').fill('root');
    await page.locator('input[name=password]').fill('not-the-password');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => text(page, 'login-error')).toContain('wrong username or password');
    expect(page.url()).toContain('/login');
    await screenshot(page, 'auth-login-error');
    await page.locator('input[name=password]').fill(ROOT_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/panel');
    await expect
      .poll(() => page.locator('.notistack-MuiContent-success').first().textContent())
      .toContain('Signed in successfully');
    const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('user') ?? 'null'));
    expect(stored).toMatchObject({ username: 'root', role: 100 });
  });

  it('looks right in dark mode, in Chinese and on a 400 px wide screen', async () => {
    const dark = await openPage({ dark: true });
    await dark.goto(`${server.origin}/login`);
    await dark.getByTestId('login-oidc').waitFor();
    await screenshot(dark, 'auth-login-dark');

    const chinese = await openPage({ language: 'zh_CN' });
    await chinese.goto(`${server.origin}/login`);
    await expect.poll(() => text(chinese, 'login-submit')).toBe('登录');
    expect(await text(chinese, 'login-lark')).toContain('飞书');
    await screenshot(chinese, 'auth-login-zh_CN');

    const phone = await openPage({ viewport: { width: 400, height: 860 } });
    await phone.goto(`${server.origin}/login`);
    await phone.getByTestId('login-wechat').waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone, 'auth-login-phone');
  });
});

describe('sign-in buttons', () => {
  it('GitHub: fetches a state and goes to GitHub’s authorize page with client id, state and scope', async () => {
    const page = await openPage();
    await page.route('https://github.com/**', (route) => route.fulfill({ status: 200, body: 'GitHub stand-in' }));
    await page.goto(`${server.origin}/login`);
    await page.getByTestId('login-github').click();
    await page.waitForURL('https://github.com/**');
    const url = new URL(page.url());
    expect(url.pathname).toBe('/login/oauth/authorize');
    expect(url.searchParams.get('client_id')).toBe('e2e-github-client');
    expect(url.searchParams.get('scope')).toBe('user:email');
    expect(url.searchParams.get('state')).toMatch(/^\w{12}$/);
  });

  it('Lark: goes to Feishu with this console’s return page, the app id and a state', async () => {
    const page = await openPage();
    await page.route('https://open.feishu.cn/**', (route) => route.fulfill({ status: 200, body: 'Feishu stand-in' }));
    await page.goto(`${server.origin}/login`);
    await page.getByTestId('login-lark').click();
    await page.waitForURL('https://open.feishu.cn/**');
    const url = new URL(page.url());
    expect(url.searchParams.get('redirect_uri')).toBe(`${server.origin}/oauth/lark`);
    expect(url.searchParams.get('app_id')).toBe('cli_e2e_lark');
    expect(url.searchParams.get('state')).toMatch(/^\w{12}$/);
  });

  it('OIDC: a full round trip through the provider signs a new user in', async () => {
    provider.identity = { sub: 'oidc-subject-1', username: 'oidcuser', name: 'OIDC User' };
    const page = await openPage();
    await page.goto(`${server.origin}/login?aff=NOPE`);
    await page.getByTestId('login-oidc').click();
    await page.waitForURL('**/panel');
    await expect
      .poll(() => page.locator('.notistack-MuiContent-success').first().textContent())
      .toContain('Signed in successfully');
    const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('user') ?? 'null'));
    expect(stored).toMatchObject({ username: 'oidcuser' });
  });

  it('OIDC: a signed-in user who comes back from the provider binds the identity and lands on the profile', async () => {
    provider.identity = { sub: 'oidc-subject-root', username: 'rootoidc', name: 'Root via OIDC' };
    const page = await openPage();
    await signIn(page, 'root', ROOT_PASSWORD);
    // The profile screen starts the binding; here the same request is made from the signed-in page.
    const address = await page.evaluate(async () => {
      const answer = await fetch('/api/oauth/endpoint').then((response) => response.json());
      return answer.data as string;
    });
    await page.goto(address);
    await page.waitForURL('**/panel/profile');
    await expect
      .poll(() => page.locator('.notistack-MuiContent-success').first().textContent())
      .toContain('Account linked successfully');
    const root = await rootGet<{ oidc_id?: string }>('/api/user/self');
    expect(root.oidc_id).toBe('oidc-subject-root');
  });

  it('WeChat: the dialog shows the QR code, refuses a wrong code and signs in with the right one', async () => {
    const page = await openPage();
    await page.goto(`${server.origin}/login`);
    await page.getByTestId('login-wechat').click();
    const dialog = page.getByTestId('wechat-dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(210);
    await page.locator('input[name=wechat-code]').fill('000000');
    await page.getByTestId('wechat-submit').click();
    await expect.poll(() => text(page, 'wechat-error')).toContain('the code is wrong or has expired');
    await screenshot(page, 'auth-wechat');
    await page.locator('input[name=wechat-code]').fill(WECHAT_CODE);
    await page.getByTestId('wechat-submit').click();
    await page.waitForURL('**/panel');
  });
});

describe('OAuth return pages', () => {
  it('show the server’s error when the state does not match, then count down to /login', async () => {
    const page = await openPage();
    await page.goto(`${server.origin}/oauth/github?code=forged-code&state=forged-state`);
    await page.getByTestId('oauth-error').waitFor();
    expect(await text(page, 'oauth-error-message')).toContain('state is empty or not the same');
    expect(await text(page, 'oauth-countdown')).toMatch(/\d s/);
    await screenshot(page, 'auth-oauth-error');
    await page.waitForURL('**/login', { timeout: 10_000 });
  });

  it('show the provider’s refusal when no code came back', async () => {
    const page = await openPage({ language: 'zh_CN' });
    await page.goto(`${server.origin}/oauth/lark?error=access_denied`);
    await expect.poll(() => text(page, 'oauth-error-message')).toBe('错误：access_denied');
    await page.getByTestId('oauth-retry').click();
    await page.waitForURL('**/login');
  });
});

describe('registration with an e-mail code', () => {
  const newUser = { username: 'bob_e2e', password: 'bob-password-1', email: 'bob@example.com' };

  it('checks the form before anything is sent (on a 400 px wide screen)', async () => {
    const page = await openPage({ viewport: { width: 400, height: 860 } });
    await page.goto(`${server.origin}/register`);
    await page.locator('input[name=username]').fill('ab');
    await page.locator('input[name=password]').fill('short');
    await page.locator('input[name=confirm]').fill('other');
    await page.getByTestId('register-submit').click();
    await expect
      .poll(() => page.locator('.MuiFormHelperText-root.Mui-error').allTextContents())
      .toEqual([
        'The username needs at least 3 characters',
        'The password needs at least 8 characters',
        'The two passwords do not match',
        'Enter your email address',
        'Enter the verification code',
      ]);
    await page.locator('input[name=email]').fill('not-an-address');
    await page.getByTestId('register-send-code').click();
    await expect.poll(() => text(page, 'register-page')).toContain('Enter a valid email address');
    expect(mail.mails.length).toBe(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'auth-register-phone');
  });

  it('mails a code, registers with it and the referral code, and the new user signs in', async () => {
    const rootAff = await rootGet<string>('/api/user/aff');
    const page = await openPage();
    await page.goto(`${server.origin}/register?aff=${rootAff}`);
    await page.locator('input[name=username]').fill(newUser.username);
    await page.locator('input[name=password]').fill(newUser.password);
    await page.locator('input[name=confirm]').fill(newUser.password);
    await page.locator('input[name=email]').fill(newUser.email);
    const seen = mail.mails.length;
    await page.getByTestId('register-send-code').click();
    const message = await nextMailTo(mail, newUser.email, seen);
    const code = /verification code for .+? is ([A-Za-z0-9]+)/.exec(message)?.[1];
    expect(code).toBeTruthy();
    await expect.poll(() => text(page, 'register-send-code')).toMatch(/Resend in \d+ s/);
    expect(await page.getByTestId('register-send-code').isDisabled()).toBe(true);
    await page.getByTestId('register-code').fill(code ?? '');
    await screenshot(page, 'auth-register');
    await page.getByTestId('register-submit').click();
    await page.waitForURL('**/login');
    // The URL changes before the sign-in page's code has arrived; wait for the page itself.
    await page.getByTestId('login-page').waitFor();

    const users = await rootGet<{ data: Array<{ username: string; email: string; inviter_id?: number }> }>(
      `/api/user/?keyword=${newUser.username}`,
    );
    expect(users.data.find((user) => user.username === newUser.username)).toMatchObject({
      email: newUser.email,
      inviter_id: 1,
    });

    await page.locator('input[name=username]').fill(newUser.email);
    await page.locator('input[name=password]').fill(newUser.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/panel');
  });

  it('shows the server’s message when the username is taken', async () => {
    const page = await openPage();
    await page.goto(`${server.origin}/register`);
    await page.locator('input[name=username]').fill(newUser.username);
    await page.locator('input[name=password]').fill(newUser.password);
    await page.locator('input[name=confirm]').fill(newUser.password);
    await page.locator('input[name=email]').fill('other@example.com');
    await page.getByTestId('register-code').fill('ABCDEF');
    await page.getByTestId('register-submit').click();
    await expect.poll(() => text(page, 'register-error')).toMatch(/already taken|wrong or has expired/);
    expect(page.url()).toContain('/register');
  });

  it('password reset: the mailed link gives a new password that signs in', async () => {
    const page = await openPage();
    await page.goto(`${server.origin}/login`);
    await page.getByTestId('login-forgot').click();
    await page.waitForURL('**/reset');
    await page.locator('input[name=email]').fill(newUser.email);
    const seen = mail.mails.length;
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('reset-sent').waitFor();
    expect(await text(page, 'reset-sent')).toContain(newUser.email);
    await expect.poll(() => text(page, 'reset-submit')).toMatch(/Send again in \d+ s/);
    await screenshot(page, 'auth-reset');

    const message = await nextMailTo(mail, newUser.email, seen);
    const link = /(http:\/\/\S+\/user\/reset\?email=[^\s"<]+&token=\w+)/.exec(message)?.[1];
    expect(link?.startsWith(`${server.origin}/user/reset?`)).toBe(true);
    await page.goto(link ?? '');
    await page.getByTestId('user-reset-submit').click();
    const password = (await text(page, 'user-reset-password')).trim();
    expect(password).toMatch(/^\S{12}$/);
    await page.getByTestId('user-reset-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await screenshot(page, 'auth-user-reset');

    // The link works once.
    await page.reload();
    await page.getByTestId('user-reset-submit').click();
    await expect.poll(() => text(page, 'user-reset-error')).toContain('wrong or has expired');

    await signIn(page, newUser.username, password);
  });

  it('a reset link without its token is invalid', async () => {
    const page = await openPage();
    await page.goto(`${server.origin}/user/reset?email=bob%40example.com`);
    await page.getByTestId('user-reset-invalid').waitFor();
    expect(await page.textContent('h1')).toBe('Invalid link');
  });
});

describe('Turnstile', () => {
  it('stands in with the checking text when the widget cannot load, and sends nothing without a token', async () => {
    await admin.setOption('TurnstileSiteKey', 'e2e-site-key');
    await admin.setOption('TurnstileSecretKey', 'e2e-secret-key');
    await admin.setOption('TurnstileCheckEnabled', 'true');
    try {
      const page = await openPage();
      // No test reaches the internet: Cloudflare's script is refused, as on a network that blocks it.
      await page.route('https://challenges.cloudflare.com/**', (route) => route.abort());
      const registrations: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/user/register')) registrations.push(request.url());
      });
      await page.goto(`${server.origin}/register`);
      await page.getByTestId('turnstile-checking').waitFor();
      await page.locator('input[name=username]').fill('carol');
      await page.locator('input[name=password]').fill('carol-password');
      await page.locator('input[name=confirm]').fill('carol-password');
      await page.locator('input[name=email]').fill('carol@example.com');
      await page.getByTestId('register-code').fill('ABCDEF');
      await page.getByTestId('register-submit').click();
      await expect
        .poll(() => page.locator('.notistack-MuiContent-info').first().textContent())
        .toContain('Turnstile is checking');
      expect(registrations).toEqual([]);
    } finally {
      await admin.setOption('TurnstileCheckEnabled', 'false');
    }
  });
});
