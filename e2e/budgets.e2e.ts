import type { BudgetWindowView, TokenView, UserGroupView, UserView } from '@one-hub/contracts';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Auth,
  apiSignIn,
  call,
  openPage,
  root,
  server,
  settledScreenshot,
  signIn,
  TINY_PROMPT,
  USERS,
  useAccountSite,
} from './support/account-site.js';
import { expandSection, text } from './support/browser.js';
import { narrowPhone } from './support/pages.js';

useAccountSite();

const QUOTA_PER_DOLLAR = 500_000;

/** One relayed chat request with `key`; the mock answers it with a small usage. */
async function relay(key: string): Promise<void> {
  const response = await fetch(`${server.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: TINY_PROMPT }] }),
  });
  expect(response.status).toBe(200);
  await response.text();
}

async function groupNamed(symbol: string): Promise<UserGroupView> {
  const groups = await call<{ data: UserGroupView[] }>('GET', '/api/user_group/?size=100', root);
  const group = groups.data.find((entry) => entry.symbol === symbol);
  if (!group) throw new Error(`group ${symbol} not found`);
  return group;
}

async function userNamed(username: string): Promise<UserView> {
  const users = await call<{ data: UserView[] }>('GET', `/api/user/?keyword=${username}`, root);
  const user = users.data.find((entry) => entry.username === username);
  if (!user) throw new Error(`user ${username} not found`);
  return user;
}

const windowOf = (windows: BudgetWindowView[] | undefined, scope: string, period: string) =>
  windows?.find((window) => window.scope === scope && window.period === period);

describe('budgets per window in the console', () => {
  let carol: Auth;
  let page: Page;

  beforeAll(async () => {
    carol = await apiSignIn(USERS.carol.username, USERS.carol.password);
  });

  it('the key dialog saves budgets and TPM, and shows them again with their current use', async () => {
    page = await openPage();
    await signIn(page, USERS.carol.username, USERS.carol.password);
    await page.goto(`${server.origin}/panel/token`);
    await page.getByTestId('token-create').click();
    await page.getByTestId('token-form-name').fill('budgeted');
    // The first window added is 5 hours, the next one a day: a period is never offered twice.
    await page.getByTestId('token-form-budgets-add').click();
    await page.getByTestId('token-form-budgets-0-quota').fill('2');
    await page.getByTestId('token-form-budgets-0-requests').fill('100');
    await page.getByTestId('token-form-budgets-add').click();
    await page.getByTestId('token-form-budgets-1-tokens').fill('50000');
    // A window with no allowance is refused on its row, and nothing is saved.
    await page.getByTestId('token-form-budgets-add').click();
    await page.getByTestId('token-form-submit').click();
    await page.getByTestId('token-form-budgets-2-error').waitFor();
    const before = await call<{ data: TokenView[] }>('GET', '/api/token/?keyword=budgeted', carol);
    expect(before.data).toEqual([]);
    await page.getByTestId('token-form-budgets-2-remove').click();
    await expandSection(page, 'token-form-advanced');
    await page.getByTestId('token-form-tpm').fill('20000');
    await page.getByTestId('token-form-submit').click();

    const created = page.getByTestId('token-created-key');
    await created.waitFor();
    const key = (await created.textContent()) ?? '';
    await page.getByTestId('token-created-close').click();
    const [listed] = (await call<{ data: TokenView[] }>('GET', '/api/token/?keyword=budgeted', carol)).data;
    const id = listed?.id ?? 0;
    const saved = await call<TokenView>('GET', `/api/token/${id}`, carol);
    expect(saved.setting.budgets).toEqual([
      { period: '5h', quota: 2 * QUOTA_PER_DOLLAR, requests: 100 },
      { period: 'day', tokens: 50_000 },
    ]);
    expect(saved.setting.limits.tpm).toBe(20_000);

    // One request opens both windows; the dialog reads their use when it opens.
    await relay(key);
    await expect
      .poll(async () => windowOf((await call<TokenView>('GET', `/api/token/${id}`, carol)).budget_windows, 'key', '5h'))
      .toMatchObject({ used_requests: 1 });
    await page.getByTestId(`token-edit-${id}`).click();
    expect(await page.getByTestId('token-form-budgets-0-quota').inputValue()).toBe('2');
    expect(await page.getByTestId('token-form-budgets-0-requests').inputValue()).toBe('100');
    expect(await page.getByTestId('token-form-budgets-1-tokens').inputValue()).toBe('50000');
    // A key with a TPM opens with its advanced settings shown.
    expect(await page.getByTestId('token-form-tpm').inputValue()).toBe('20000');
    await expect.poll(() => text(page, 'token-form-budget-use-key-5h-requests-text')).toBe('1 of 100');
    expect(await text(page, 'token-form-budget-use-key-5h-reset')).toMatch(
      /^Resets at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/,
    );
    expect(await text(page, 'token-form-budget-use-key-day-tokens-text')).toMatch(/^[1-9][\d,]* of 50,000$/);
    await page.getByTestId('token-form-budgets').scrollIntoViewIfNeeded();
    await settledScreenshot(page, 'budgets-key-dialog');
    await page.getByTestId('token-form-cancel').click();

    // On a phone the dialog fills the screen: what shows at once is what a person sees.
    const phone = await openPage({ viewport: narrowPhone });
    await signIn(phone, USERS.carol.username, USERS.carol.password);
    await phone.goto(`${server.origin}/panel/token`);
    await phone.getByTestId(`token-edit-${id}`).click();
    await phone.getByTestId('token-form-budget-use-key-5h-requests').waitFor();
    await phone.getByTestId('token-form-budgets').scrollIntoViewIfNeeded();
    await settledScreenshot(phone, 'budgets-key-dialog-phone', { fullPage: false });
  });

  it('the group dialog saves a window for each member and the TPM, and shows how its members stand', async () => {
    const group = await groupNamed('default');
    const admin = await openPage();
    await signIn(admin, 'root', 'e2e-root-password');
    await admin.goto(`${server.origin}/panel/user_group`);
    await admin.getByTestId(`user-group-edit-${group.id}`).click();
    await admin.getByTestId('user-group-form-tpm').fill('100000');
    await admin.getByTestId('user-group-form-budgets-add').click();
    await admin.getByTestId('user-group-form-budgets-0-period').click();
    await admin.getByTestId('user-group-form-budgets-0-period-month').click();
    await admin.getByTestId('user-group-form-budgets-0-requests').fill('1000');
    expect(await text(admin, 'user-group-form-budgets')).toContain('the group as a whole is not counted');
    await admin.getByTestId('user-group-form-submit').click();
    await admin.getByTestId('user-group-form').waitFor({ state: 'detached' });

    const saved = await groupNamed('default');
    expect(saved.tpm).toBe(100_000);
    expect(saved.budgets).toEqual([{ period: 'month', requests: 1000 }]);
    await admin.getByTestId(`user-group-edit-${group.id}`).click();
    expect(await admin.getByTestId('user-group-form-tpm').inputValue()).toBe('100000');
    expect(await admin.getByTestId('user-group-form-budgets-0-requests').inputValue()).toBe('1000');
    expect(await admin.getByTestId('user-group-form-budgets-0-quota').inputValue()).toBe('');
    expect(await text(admin, 'user-group-form-budget-use-month-top')).toBe('No member has used this window yet.');
    await admin.getByTestId('user-group-form-cancel').click();

    // Carol, a member, uses the window: the dialog counts her and shows her use against the allowance.
    const key = await call<{ key: string }>('POST', '/api/token/', carol, {
      name: 'group member',
      remain_quota: 0,
      unlimited_quota: true,
    });
    await relay(key.key.startsWith('sk-') ? key.key : `sk-${key.key}`);
    // The counts are read from the window use the server saves each second.
    await expect
      .poll(async () => (await call<UserGroupView>('GET', `/api/user_group/${group.id}`, root)).budget_windows?.[0])
      .toMatchObject({ members_using: 1, members_exhausted: 0, top: { username: USERS.carol.username } });
    await admin.getByTestId(`user-group-edit-${group.id}`).click();
    await admin.getByTestId('user-group-form-budget-use-month-requests').waitFor();
    expect(await text(admin, 'user-group-form-budget-use-month-members')).toBe('1 member using this window');
    expect(await text(admin, 'user-group-form-budget-use-month-top')).toBe(`Highest use: ${USERS.carol.username}`);
    expect(await text(admin, 'user-group-form-budget-use-month-requests-text')).toMatch(/^[1-9]\d* of 1,000$/);
    await admin.getByTestId('user-group-form-budget-use').scrollIntoViewIfNeeded();
    await settledScreenshot(admin, 'budgets-group-dialog');
    await admin.getByTestId('user-group-form-cancel').click();

    // The user dialog: the user's own window, and the current use of theirs and their group's.
    const user = await userNamed(USERS.carol.username);
    await admin.goto(`${server.origin}/panel/user`);
    await admin.getByTestId(`user-edit-${user.id}`).click();
    await admin.getByTestId('user-form-budgets-add').click();
    await admin.getByTestId('user-form-budgets-0-period').click();
    await admin.getByTestId('user-form-budgets-0-period-day').click();
    await admin.getByTestId('user-form-budgets-0-quota').fill('5');
    await admin.getByTestId('user-form-submit').click();
    await admin.getByTestId('user-form').waitFor({ state: 'detached' });
    expect((await userNamed(USERS.carol.username)).budgets).toEqual([{ period: 'day', quota: 5 * QUOTA_PER_DOLLAR }]);
    await admin.getByTestId(`user-edit-${user.id}`).click();
    expect(await admin.getByTestId('user-form-budgets-0-quota').inputValue()).toBe('5');
    await admin.getByTestId('user-form-budget-use-user-day').waitFor();
    await admin.getByTestId('user-form-budget-use-group-month').waitFor();
    await settledScreenshot(admin, 'budgets-user-dialog');
  });

  it("the dashboard shows the user's windows as bars with their reset times, and the TPM", async () => {
    const token = await call<{ key: string }>('POST', '/api/token/', carol, {
      name: 'dashboard budgets',
      remain_quota: 0,
      unlimited_quota: true,
    });
    await relay(token.key.startsWith('sk-') ? token.key : `sk-${token.key}`);
    const plan = await call<{ windows: BudgetWindowView[] }>('GET', '/api/user/plan', carol);
    const month = windowOf(plan.windows, 'group', 'month');
    expect(month?.used_requests).toBeGreaterThan(0);

    for (const [name, options] of [
      ['budgets-dashboard', {}],
      ['budgets-dashboard-dark', { dark: true }],
      ['budgets-dashboard-zh_CN', { language: 'zh_CN' }],
      ['budgets-dashboard-phone', { viewport: narrowPhone }],
    ] as const) {
      const dashboard = await openPage(options);
      await signIn(dashboard, USERS.carol.username, USERS.carol.password);
      await dashboard.getByTestId('dashboard-budgets').waitFor();
      await dashboard.getByTestId('dashboard-budget-user-day-quota').waitFor();
      if (name === 'budgets-dashboard') {
        expect(await text(dashboard, 'dashboard-budget-user-day-quota-text')).toMatch(/^\$\d+\.\d+ of \$5\.00$/);
        await expect
          .poll(() => text(dashboard, 'dashboard-budget-group-month-requests-text'))
          .toBe(`${month?.used_requests} of 1,000`);
        expect(await text(dashboard, 'dashboard-budget-group-month-reset')).toMatch(/^Resets at \d{4}-/);
        await expect.poll(() => text(dashboard, 'dashboard-rate-tpm')).toMatch(/^\d[\d,]* \/ 100,000 tokens\/min$/);
      }
      await settledScreenshot(dashboard, name);
    }
  });
});
