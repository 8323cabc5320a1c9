import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiSignIn,
  call,
  dollars,
  lastToast,
  openPage,
  phone,
  root,
  self,
  server,
  settledScreenshot,
  signIn,
  USERS,
  useAccountSite,
} from './support/account-site.js';
import { text } from './support/browser.js';

useAccountSite();

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
