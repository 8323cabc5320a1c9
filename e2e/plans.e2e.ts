import type { Paged, PlanView, SubscriberView, UserPlanView, UserView } from '@one-hub/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startEpaySimulator } from '../apps/server/test/payments/epay/simulator.js';
import { sessionCookie } from './support/api.js';
import { text } from './support/browser.js';
import { narrowPhone } from './support/pages.js';
import {
  call,
  createGateway,
  openPage,
  PAYER,
  payerAuth,
  QUOTA_PER_DOLLAR,
  root,
  server,
  settledScreenshot,
  signIn,
  signInAsRoot,
  usePaymentSite,
} from './support/payments.js';

const site = usePaymentSite(startEpaySimulator);

const GRANTEE = { username: 'grantee', password: 'grantee-password-1', display_name: 'Grantee' };
const SECOND_HOLDER = { username: 'holder2', password: 'holder2-password-1', display_name: 'Second holder' };

async function plans(): Promise<PlanView[]> {
  return (await call<Paged<PlanView>>('GET', '/api/plan/?size=100', root)).data;
}

async function planNamed(name: string): Promise<PlanView> {
  const plan = (await plans()).find((entry) => entry.name === name);
  if (!plan) throw new Error(`no plan named ${name}`);
  return plan;
}

async function openPlans(page: Page): Promise<void> {
  const item = page.getByTestId('menu-plan');
  if (!(await item.isVisible())) await page.getByTestId('menu-paySetting').click();
  await item.click();
  await page.waitForURL((url) => url.pathname === '/panel/plan');
}

describe('subscription plans in the console', () => {
  it('an administrator creates, edits, grants, ends subscriptions of and deletes plans on the Plans screen', async () => {
    await call('POST', '/api/user/', root, GRANTEE);
    const page = await openPage();
    await signInAsRoot(page);
    await openPlans(page);
    await page.getByTestId('plan-empty').waitFor();

    await page.getByTestId('plan-create').click();
    // Nothing typed: the name and price are named; the monthly window asks for an allowance.
    await page.getByTestId('plan-form-submit').click();
    expect(await page.getByTestId('plan-form-name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('plan-form-price').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('plan-form-budgets-0-error').waitFor();
    expect(await plans()).toEqual([]);

    await page.getByTestId('plan-form-name').fill('Pro');
    await page.getByTestId('plan-form-price').fill('9.90');
    await page.getByTestId('plan-form-duration').fill('30');
    await page.getByTestId('plan-form-budgets-0-quota').fill('20');
    await page.getByTestId('plan-form-budgets-add').click();
    await page.getByTestId('plan-form-budgets-1-requests').fill('50');
    await page.getByTestId('plan-form-submit').click();
    await page.getByTestId('plan-form').waitFor({ state: 'detached' });

    const pro = await planNamed('Pro');
    expect(pro).toMatchObject({
      price: 9.9,
      currency: 'USD',
      duration_days: 30,
      budgets: [
        { period: 'month', quota: 20 * QUOTA_PER_DOLLAR },
        { period: '5h', requests: 50 },
      ],
      fallback_to_balance: true,
      enable: true,
    });
    await page.getByTestId(`plan-name-${pro.id}`).waitFor();
    expect(await text(page, `plan-price-${pro.id}`)).toBe('$9.90');
    expect(await text(page, `plan-allowance-${pro.id}`)).toContain('Every 5 hours: 50 requests');

    // Edit: the stored values come back, and a change saves.
    await page.getByTestId(`plan-edit-${pro.id}`).click();
    expect(await page.getByTestId('plan-form-price').inputValue()).toBe('9.9');
    expect(await page.getByTestId('plan-form-budgets-0-quota').inputValue()).toBe('20');
    await page.getByTestId('plan-form-price').fill('12.50');
    await page.getByTestId('plan-form-description').fill('For daily coding');
    await page.getByTestId('plan-form-submit').click();
    await page.getByTestId('plan-form').waitFor({ state: 'detached' });
    await expect.poll(() => text(page, `plan-price-${pro.id}`)).toBe('$12.50');
    expect(await planNamed('Pro')).toMatchObject({ price: 12.5, description: 'For daily coding' });

    // Grant: an unknown username is named; a known one gets the plan.
    await page.getByTestId(`plan-grant-${pro.id}`).click();
    await page.getByTestId('plan-grant-user').fill('nobody-here');
    await page.getByTestId('plan-grant-confirm').click();
    await expect.poll(() => text(page, 'plan-grant-error')).toContain('nobody-here');
    await page.getByTestId('plan-grant-user').fill(GRANTEE.username);
    await page.getByTestId('plan-grant-confirm').click();
    await page.getByTestId('plan-grant-dialog').waitFor({ state: 'hidden' });
    const grantee = { cookie: await sessionCookie(server.origin, GRANTEE.username, GRANTEE.password) };
    const granted = await call<UserPlanView>('GET', '/api/user/plan', grantee);
    expect(granted.subscriptions[0]).toMatchObject({ plan_id: pro.id, status: 'active', source: 'grant' });

    // Subscribers: both holders are listed; ending one asks first, and a refusal stays in the dialog.
    await call('POST', '/api/user/', root, SECOND_HOLDER);
    const second = (await call<Paged<UserView>>('GET', '/api/user/?keyword=holder2', root)).data[0];
    if (!second) throw new Error('holder2 was not created');
    await call('POST', '/api/plan/grant', root, { user_id: second.id, plan_id: pro.id });
    const holders = async () =>
      (await call<Paged<SubscriberView>>('GET', `/api/plan/subscriptions?plan_id=${pro.id}`, root)).data;
    const [secondSub, granteeSub] = await holders();
    if (!secondSub || !granteeSub) throw new Error('the two subscriptions are not listed');
    await page.getByTestId(`plan-subscribers-${pro.id}`).click();
    await page.getByTestId(`plan-subscriber-${granteeSub.id}`).waitFor();
    expect(await text(page, `plan-subscriber-user-${granteeSub.id}`)).toBe(
      `Grantee · grantee (#${granteeSub.user_id})`,
    );
    expect(await page.getByTestId('plan-subscribers-list').locator('tbody tr').count()).toBe(2);
    await settledScreenshot(page, 'plans-subscribers');

    await page.getByTestId(`plan-subscriber-end-${secondSub.id}`).click();
    await page.getByTestId('plan-end-dialog').waitFor();
    await settledScreenshot(page, 'plans-subscriber-end');
    // Ended elsewhere meanwhile: the server's 409 is shown, and the list drops the row.
    await call('POST', `/api/plan/subscription/${secondSub.id}/end`, root, {});
    await page.getByTestId('plan-end-confirm').click();
    await expect.poll(() => text(page, 'plan-end-error')).toContain('already ended');
    await page.getByTestId('plan-end-cancel').click();
    await page.getByTestId('plan-end-dialog').waitFor({ state: 'hidden' });
    await page.getByTestId(`plan-subscriber-${secondSub.id}`).waitFor({ state: 'detached' });

    await page.getByTestId(`plan-subscriber-end-${granteeSub.id}`).click();
    await page.getByTestId('plan-end-confirm').click();
    await page.getByTestId('plan-end-dialog').waitFor({ state: 'hidden' });
    await page.getByTestId('plan-subscribers-empty').waitFor();
    expect(await holders()).toEqual([]);
    const ended = await call<UserPlanView>('GET', '/api/user/plan', grantee);
    expect(ended.subscriptions[0]).toMatchObject({ plan_id: pro.id, status: 'expired', source: 'grant' });
    await page.getByTestId('plan-subscribers-close').click();
    await page.getByTestId('plan-subscribers-dialog').waitFor({ state: 'hidden' });

    // Delete, after confirming.
    await call('POST', '/api/plan/', root, {
      name: 'Temporary',
      price: 1,
      duration_days: 7,
      budgets: [{ period: 'day', requests: 10 }],
    });
    const temporary = await planNamed('Temporary');
    await page.getByTestId('plan-refresh').click();
    await page.getByTestId(`plan-delete-${temporary.id}`).click();
    await page.getByTestId('plan-delete-dialog').waitFor();
    expect((await plans()).map((plan) => plan.name)).toContain('Temporary');
    await page.getByTestId('plan-delete-confirm').click();
    await page.getByTestId(`plan-row-${temporary.id}`).waitFor({ state: 'detached' });
    expect((await plans()).map((plan) => plan.name)).toEqual(['Pro']);

    for (const [name, options] of [
      ['plans-list', {}],
      ['plans-list-dark', { dark: true }],
      ['plans-list-zh_CN', { language: 'zh_CN' }],
      ['plans-list-phone', { viewport: narrowPhone }],
    ] as const) {
      const shot = name === 'plans-list' ? page : await openPage(options);
      if (shot !== page) {
        await signInAsRoot(shot);
        await shot.goto(`${server.origin}/panel/plan`);
      }
      await shot.getByTestId(`plan-row-${pro.id}`).waitFor();
      await settledScreenshot(shot, name);
    }
    await page.getByTestId(`plan-edit-${pro.id}`).click();
    await settledScreenshot(page, 'plans-dialog');
  });

  it('a user buys a plan on the top-up page through the gateway, then sees it and its windows', async () => {
    const gateway = await createGateway({
      type: 'epay',
      name: 'Epay sandbox',
      currency: 'USD',
      config: { pay_domain: site.vendor.url, partner_id: site.vendor.partnerId, key: site.vendor.key },
    });
    const pro = await planNamed('Pro');
    await call('POST', '/api/plan/', root, {
      name: 'Other',
      price: 3,
      duration_days: 7,
      budgets: [{ period: 'week', tokens: 1_000_000 }],
      sort: -1,
    });
    const other = await planNamed('Other');
    const payer = await payerAuth();

    const page = await openPage();
    await signIn(page, PAYER.username, PAYER.password);
    await page.goto(`${server.origin}/panel/topup`);
    await page.getByTestId(`topup-plan-${pro.id}`).waitFor();
    expect(await text(page, `topup-plan-price-${pro.id}`)).toBe('$12.50');
    expect(await text(page, `topup-plan-allowance-${pro.id}`)).toContain('Monthly: $20.00');
    expect(await page.getByTestId('topup-subscription').count()).toBe(0);
    await page.getByTestId(`topup-plan-gateway-${gateway.uuid}`).click();

    const cashierOpened = page.context().waitForEvent('page');
    await page.getByTestId(`topup-plan-buy-${pro.id}`).click();
    const cashier = await cashierOpened;
    await cashier.waitForURL((url) => url.href.startsWith(site.vendor.url));
    await page.getByTestId('topup-pay-state-pending').waitFor();
    // The simulator's page stands in for the vendor's: paying there sends the signed callback.
    await cashier.getByRole('button').first().click();
    await page.getByTestId('topup-pay-state-success').waitFor();

    // The page behind the dialog shows the plan and its windows as soon as the order is paid.
    await page.getByTestId('topup-subscription').waitFor();
    expect(await text(page, 'topup-subscription-name')).toBe('Pro');
    expect(await page.getByTestId('topup-subscription-status').getAttribute('data-state')).toBe('active');
    expect(await text(page, 'topup-subscription-expires')).toMatch(/^Until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d · Bought$/);
    await page.getByTestId('topup-subscription-window-plan-month-quota').waitFor();
    expect(await page.getByTestId('topup-pay-dialog').isVisible()).toBe(true);
    await page.getByTestId('topup-pay-close').click();
    expect(await text(page, `topup-plan-buy-${pro.id}`)).toBe('Renew');
    const bought = await call<UserPlanView>('GET', '/api/user/plan', payer);
    expect(bought.subscriptions[0]).toMatchObject({ plan_id: pro.id, status: 'active', source: 'order' });
    // The order was for the plan: the balance did not grow.
    expect((await call<{ quota: number }>('GET', '/api/user/self', payer)).quota).toBe(0);

    // Another plan cannot be bought while this one runs: the server's reason is shown.
    await page.getByTestId(`topup-plan-buy-${other.id}`).click();
    await expect
      .poll(() => page.locator('.notistack-MuiContent').last().textContent())
      .toContain('already have the plan');
    expect((await call<UserPlanView>('GET', '/api/user/plan', payer)).subscriptions).toHaveLength(1);

    for (const [name, options] of [
      ['plans-topup', {}],
      ['plans-topup-dark', { dark: true }],
      ['plans-topup-zh_CN', { language: 'zh_CN' }],
      ['plans-topup-phone', { viewport: narrowPhone }],
    ] as const) {
      const shot = await openPage(options);
      await signIn(shot, PAYER.username, PAYER.password);
      await shot.goto(`${server.origin}/panel/topup`);
      await shot.getByTestId('topup-subscription-window-plan-month-quota').waitFor();
      await settledScreenshot(shot, name);
    }

    // The dashboard shows the plan's windows as bars.
    const dashboard = await openPage();
    await signIn(dashboard, PAYER.username, PAYER.password);
    await dashboard.getByTestId('dashboard-budget-plan-month-quota').waitFor();
    expect(await text(dashboard, 'dashboard-budget-plan-month-quota-text')).toBe('$0.00 of $20.00');
    expect(await text(dashboard, 'dashboard-budget-plan-5h-requests-text')).toBe('0 of 50');
    await settledScreenshot(dashboard, 'plans-dashboard');
  });
});
