/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import {
  admin,
  openPage,
  provider,
  ROOT_PASSWORD,
  rootGet,
  server,
  signIn,
  text,
  useAuthSite,
  WECHAT_CODE,
} from './support/auth-site.js';
import { screenshot } from './support/browser.js';

useAuthSite();

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
