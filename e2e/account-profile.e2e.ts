/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  mail,
  openPage,
  phone,
  self,
  server,
  settledScreenshot,
  signIn,
  USERS,
  useAccountSite,
  WECHAT_CODE,
  WECHAT_OPEN_ID,
} from './support/account-site.js';
import { text } from './support/browser.js';
import { nextMailTo } from './support/mail.js';

useAccountSite();

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

  it('changes the password after checking the current one, length and confirmation, and signs in with it', async () => {
    await page.getByTestId('profile-password').fill(newPassword);
    await page.getByTestId('profile-password-confirm').fill(newPassword);
    await page.getByTestId('profile-save').click();
    // The current password is required before anything is sent.
    await expect.poll(() => page.locator('.MuiFormHelperText-root.Mui-error').count()).toBe(1);
    await page.getByTestId('profile-current-password').fill(USERS.erin.password);
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
