/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { admin, mail, openPage, rootGet, server, signIn, text, useAuthSite } from './support/auth-site.js';
import { screenshot } from './support/browser.js';
import { nextMailTo } from './support/mail.js';

useAuthSite();

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
