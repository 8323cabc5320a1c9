/// <reference lib="dom" />
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-0123456789';
const USER = { username: 'paula', password: 'paula-password-1', display_name: 'Paula' };

/**
 * Passkeys end to end, with Chromium's virtual authenticator standing in for a phone or a laptop's
 * fingerprint reader. WebAuthn refuses IP addresses as a site's identity, so the console is opened
 * at `localhost` and ServerAddress says the same: the RP ID is `localhost`, a secure context.
 */
describe('passkeys', () => {
  let server: RunningServer;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let devtools: CDPSession;
  let authenticatorId: string;

  const residentCredentials = async () =>
    ((await devtools.send('WebAuthn.getCredentials', { authenticatorId })) as { credentials: unknown[] }).credentials;

  const signOut = async () => {
    await page.getByTestId('avatar-menu').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/panel'));
  };

  beforeAll(async () => {
    server = await startServer({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN });
    origin = server.origin.replace('127.0.0.1', 'localhost');
    const admin = adminApi(server.origin, ROOT_TOKEN);
    await admin.setOption('ServerAddress', origin);
    await admin.createUser(USER);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(() => window.localStorage.setItem('appLanguage', 'en_US'));
    devtools = await page.context().newCDPSession(page);
    await devtools.send('WebAuthn.enable');
    const added = await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    authenticatorId = added.authenticatorId;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('offers no passkey sign-in until an administrator turns it on', async () => {
    await page.goto(`${origin}/login`);
    await page.getByTestId('login-submit').waitFor();
    expect(await page.getByTestId('login-passkey').count()).toBe(0);

    await signInWithForm(page, origin, 'root', ROOT_PASSWORD);
    await page.goto(`${origin}/panel/setting?tab=system`);
    await page.getByTestId('setting-panel-system').waitFor();
    expect(await page.getByTestId('setting-section-access').textContent()).toContain('Sign in with a passkey');
    await page.getByTestId('setting-field-PasskeyLoginEnabled').check();
    await page.getByTestId('setting-save-access').click();
    await page.getByTestId('setting-saved-access').waitFor();
    expect(await page.getByTestId('setting-saved-access').getAttribute('data-keys')).toBe('PasskeyLoginEnabled');
    await signOut();
  });

  it('registers a passkey in the profile', async () => {
    await signInWithForm(page, origin, USER.username, USER.password);
    await page.goto(`${origin}/panel/profile`);
    await page.getByTestId('passkey-empty').waitFor();
    await page.getByTestId('passkey-alias').fill('E2E laptop');
    await page.getByTestId('passkey-password').fill(USER.password);
    await page.getByTestId('passkey-add').click();
    await expect
      .poll(() => page.getByTestId('passkey-item').allTextContents())
      .toEqual([expect.stringContaining('E2E laptop')]);
    // The authenticator holds it as a discoverable credential, for a sign-in without a username.
    expect(await residentCredentials()).toHaveLength(1);
    await screenshot(page, 'profile-passkeys');
    await signOut();
  });

  it('signs in with the passkey button, no username typed', async () => {
    await page.goto(`${origin}/login`);
    await page.getByTestId('login-passkey').waitFor();
    await screenshot(page, 'login-passkey');
    await page.getByTestId('login-passkey').click();
    await page.waitForURL('**/panel**');
    await expect.poll(() => page.getByTestId('user-name').textContent()).toContain(USER.display_name);
  });

  it('deletes the passkey after a confirmation, and it no longer signs in', async () => {
    await page.goto(`${origin}/panel/profile`);
    await page.getByTestId('passkey-item').waitFor();
    await page.getByTestId('passkey-delete').click();
    await page.getByTestId('passkey-delete-dialog-confirm').click();
    await page.getByTestId('passkey-empty').waitFor();
    expect(await page.getByTestId('passkey-item').count()).toBe(0);
    await signOut();

    // The device still offers it, but the site no longer knows it.
    await page.goto(`${origin}/login`);
    const finish = page.waitForResponse((response) => response.url().endsWith('/api/webauthn/login/finish'));
    await page.getByTestId('login-passkey').click();
    expect((await finish).status()).toBe(401);
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
