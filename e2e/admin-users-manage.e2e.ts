/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAROL_PASSWORD,
  call,
  DORA,
  findGroup,
  findUser,
  openPage,
  phone,
  phoneShot,
  QUOTA_PER_DOLLAR,
  ROOT_PASSWORD,
  ROOT_TOKEN,
  rowIds,
  server,
  statusOf,
  useAdminUsersSite,
} from './support/admin-users-site.js';
import { sessionCookie } from './support/api.js';
import { closed, exactQuota, screenshot, signInWithForm, sortDirection, text } from './support/browser.js';

useAdminUsersSite();

describe('as root', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage();
    await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    await page.close();
  });

  it('creates a user group with promotion settings after fixing its fields', async () => {
    await page.goto(`${server.origin}/panel/user_group`);
    await page.locator('[data-testid^=user-group-row-]').first().waitFor();
    await page.getByTestId('user-group-create').click();
    await page.getByTestId('user-group-form-submit').click();
    expect(await page.getByTestId('user-group-form-symbol').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('user-group-form-name').getAttribute('aria-invalid')).toBe('true');

    await page.getByTestId('user-group-form-symbol').fill('team');
    await page.getByTestId('user-group-form-name').fill('Team');
    await page.getByTestId('user-group-form-ratio').fill('0.8');
    await page.getByTestId('user-group-form-api-rate').fill('0');
    await page.getByTestId('user-group-form-public').check();
    await page.getByTestId('user-group-form-promotion').check();
    await page.getByTestId('user-group-form-min').fill('100');
    await page.getByTestId('user-group-form-max').fill('10');
    await page.getByTestId('user-group-form-submit').click();
    expect(await page.getByTestId('user-group-form-max').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'admin-user-groups-form-error');
    await page.getByTestId('user-group-form-max').fill('500');
    await page.getByTestId('user-group-form-submit').click();
    await closed(page, 'user-group-dialog');

    const team = await findGroup('team');
    expect(team).toMatchObject({
      name: 'Team',
      ratio: 0.8,
      api_rate: 0,
      public: true,
      promotion: true,
      min: 100,
      max: 500,
      enable: true,
    });
    const id = team?.id ?? 0;
    await page.getByTestId(`user-group-row-${id}`).waitFor();
    expect(await text(page, `user-group-ratio-${id}`)).toBe('×0.8');
    expect(await text(page, `user-group-rate-${id}`)).toBe('No limit');
    expect(await text(page, `user-group-promotion-${id}`)).toBe('$100 – $500');
  });

  it('edits a group but keeps its symbol read-only', async () => {
    const id = (await findGroup('team'))?.id ?? 0;
    await page.getByTestId(`user-group-edit-${id}`).click();
    const symbol = page.getByTestId('user-group-form-symbol');
    expect(await symbol.inputValue()).toBe('team');
    expect(await symbol.getAttribute('readonly')).not.toBeNull();
    await page.getByTestId('user-group-form-api-rate').fill('120');
    await screenshot(page, 'admin-user-groups-edit');
    await page.getByTestId('user-group-form-submit').click();
    await closed(page, 'user-group-dialog');
    await expect.poll(() => text(page, `user-group-rate-${id}`)).toBe('120 / min');
    expect((await findGroup('team'))?.symbol).toBe('team');
  });

  it('filters by name prefix and by enabled state, in the URL, and toggles a group', async () => {
    const id = (await findGroup('team'))?.id ?? 0;
    await page.getByTestId('user-group-search').fill('Te');
    await page.waitForURL(/name=Te/);
    await expect.poll(() => rowIds(page, 'user-group')).toEqual([id]);

    await page.getByTestId(`user-group-toggle-${id}`).locator('input').click();
    await expect.poll(() => page.getByTestId(`user-group-toggle-${id}`).getAttribute('data-checked')).toBe('false');
    expect((await findGroup('team'))?.enable).toBe(false);

    await page.getByTestId('user-group-filter-enable').click();
    await page.getByTestId('user-group-filter-enabled').click();
    await page.waitForURL(/enable=true/);
    await page.getByTestId('user-group-empty').waitFor();
    await page.getByTestId('user-group-clear-filters').click();
    await expect.poll(() => rowIds(page, 'user-group').then((ids) => ids.includes(id))).toBe(true);

    await page.goto(`${server.origin}/panel/user_group?enable=false`);
    await expect.poll(() => rowIds(page, 'user-group')).toEqual([id]);
    await page.getByTestId(`user-group-toggle-${id}`).locator('input').click();
    await expect.poll(() => findGroup('team').then((group) => group?.enable)).toBe(true);
  });

  it('never offers to disable or delete the default group, and the API refuses both', async () => {
    await page.goto(`${server.origin}/panel/user_group`);
    const fallback = await findGroup('default');
    const id = fallback?.id ?? 0;
    await page.getByTestId(`user-group-row-${id}`).waitFor();
    expect(await page.getByTestId(`user-group-delete-${id}`).isDisabled()).toBe(true);
    expect(await page.getByTestId(`user-group-toggle-${id}`).locator('input').isDisabled()).toBe(true);
    await page.getByTestId(`user-group-delete-${id}`).hover({ force: true });
    await page.getByRole('tooltip').waitFor();
    expect(await page.getByRole('tooltip').textContent()).toBe('The default group cannot be deleted');
    await screenshot(page, 'admin-user-groups');

    expect(await statusOf('DELETE', `/api/user_group/${id}`, ROOT_TOKEN)).toBe(400);
    expect(await statusOf('PUT', `/api/user_group/enable/${id}`, ROOT_TOKEN)).toBe(400);
    expect(await findGroup('default')).toMatchObject({ enable: true });
  });

  it('creates a user: a too-short password is refused on the field, then fixed', async () => {
    await page.goto(`${server.origin}/panel/user`);
    await page.locator('[data-testid^=user-row-]').first().waitFor();
    await page.getByTestId('user-create').click();
    await page.getByTestId('user-form-username').fill('carol');
    await page.getByTestId('user-form-password').fill('short');
    await page.getByTestId('user-form-submit').click();
    const password = page.getByTestId('user-form-password');
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(
      await page.locator('[data-testid=user-form] .Mui-error.MuiFormHelperText-root').first().textContent(),
    ).toContain('8');
    await screenshot(page, 'admin-users-create-error');
    expect(await findUser('carol')).toBeUndefined();

    await password.fill(CAROL_PASSWORD);
    await page.getByTestId('user-form-display-name').fill('Carol');
    await page.getByTestId('user-form-submit').click();
    await closed(page, 'user-dialog');
    expect(await findUser('carol')).toMatchObject({ display_name: 'Carol', group: 'default', role: 1, status: 1 });
  });

  it('finds the user by search, kept in the URL', async () => {
    const carol = await findUser('carol');
    await page.getByTestId('user-search').fill('car');
    await page.waitForURL(/keyword=car/);
    await expect.poll(() => rowIds(page, 'user')).toEqual([carol?.id]);
    await page.reload();
    await expect.poll(() => rowIds(page, 'user')).toEqual([carol?.id]);
    expect(await page.getByTestId('user-search').inputValue()).toBe('car');
    expect(await text(page, `user-display-name-${carol?.id}`)).toBe('Carol');

    await page.getByTestId('user-search').fill(String(carol?.id));
    await page.waitForURL(new RegExp(`keyword=${carol?.id}(&|$)`));
    await expect.poll(() => rowIds(page, 'user').then((ids) => ids.includes(carol?.id ?? 0))).toBe(true);
    await page.getByTestId('user-search').fill('zzz-nobody');
    await page.getByTestId('user-empty').waitFor();
    await page.getByTestId('user-search').fill('carol');
    await expect.poll(() => rowIds(page, 'user')).toEqual([carol?.id]);
  });

  it('edits the display name and moves the user into the new group', async () => {
    const id = (await findUser('carol'))?.id ?? 0;
    await page.getByTestId(`user-edit-${id}`).click();
    expect(await page.getByTestId('user-form-username').isDisabled()).toBe(true);
    await page.getByTestId('user-form-display-name').fill('Carol Ann');
    await page.getByTestId('user-form-group').click();
    await page.getByTestId('user-form-group-team').click();
    await page.getByTestId('user-form-password').fill('2short');
    await page.getByTestId('user-form-submit').click();
    expect(await page.getByTestId('user-form-password').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('user-form-password').fill('');
    await screenshot(page, 'admin-users-edit');
    await page.getByTestId('user-form-submit').click();
    await closed(page, 'user-dialog');

    await expect.poll(() => text(page, `user-display-name-${id}`)).toBe('Carol Ann');
    await expect.poll(() => text(page, `user-group-${id}`)).toBe('Team');
    expect(await findUser('carol')).toMatchObject({ display_name: 'Carol Ann', group: 'team' });
    // The password was left empty, so it did not change.
    await sessionCookie(server.origin, 'carol', CAROL_PASSWORD);
  });

  it('will not delete a group that still has users', async () => {
    const groupId = (await findGroup('team'))?.id ?? 0;
    await page.goto(`${server.origin}/panel/user_group`);
    await page.getByTestId(`user-group-delete-${groupId}`).click();
    await page.getByTestId('user-group-delete-confirm').click();
    await page.getByTestId('user-group-delete-error').waitFor();
    expect(await text(page, 'user-group-delete-error')).toContain('team');
    await page.getByTestId('user-group-delete-cancel').click();
    await closed(page, 'user-group-delete-dialog');
    expect(await findGroup('team')).toBeDefined();
  });

  it('adds quota with a remark: the new balance shows before confirming, in the list and in the log', async () => {
    const carol = await findUser('carol');
    const id = carol?.id ?? 0;
    const before = carol?.quota ?? 0;
    await page.goto(`${server.origin}/panel/user?keyword=carol`);
    await page.getByTestId(`user-row-${id}`).waitFor();
    await page.getByTestId(`user-quota-action-${id}`).click();
    expect(Number(await page.getByTestId('user-quota-current').getAttribute('data-quota'))).toBe(before);

    await page.getByTestId('user-quota-subtract').click();
    await page.getByTestId('user-quota-amount').fill(String((before + QUOTA_PER_DOLLAR) / QUOTA_PER_DOLLAR));
    await page.getByTestId('user-quota-submit').click();
    expect(await page.getByTestId('user-quota-amount').getAttribute('aria-invalid')).toBe('true');

    await page.getByTestId('user-quota-add').click();
    await page.getByTestId('user-quota-amount').fill('2.5');
    await page.getByTestId('user-quota-remark').fill('welcome bonus');
    const added = 2.5 * QUOTA_PER_DOLLAR;
    await expect
      .poll(() => page.getByTestId('user-quota-after').getAttribute('data-quota'))
      .toBe(String(before + added));
    await screenshot(page, 'admin-users-quota');
    await page.getByTestId('user-quota-submit').click();
    await closed(page, 'user-quota-dialog');

    await expect.poll(() => exactQuota(page, `user-quota-${id}`)).toBe(before + added);
    expect((await findUser('carol'))?.quota).toBe(before + added);

    await page.getByTestId(`user-more-${id}`).click();
    await page.getByTestId(`user-logs-${id}`).click();
    await page.waitForURL(/\/panel\/log\?username=carol/);
    const logRow = page.locator('[data-testid^=log-row-]').first();
    await logRow.waitFor();
    const logId = Number((await logRow.getAttribute('data-testid'))?.split('-').pop());
    expect(await text(page, `log-user-${logId}`)).toBe('carol');
    expect(await exactQuota(page, `log-quota-${logId}`)).toBe(added);
    expect(await text(page, `log-detail-${logId}`)).toContain('welcome bonus');
  });

  it('disables the user, who then cannot sign in, and enables them again', async () => {
    const id = (await findUser('carol'))?.id ?? 0;
    await page.goto(`${server.origin}/panel/user?keyword=carol`);
    await page.getByTestId(`user-more-${id}`).click();
    await page.getByTestId(`user-disable-${id}`).click();
    await page.getByTestId('user-confirm-dialog').waitFor();
    await screenshot(page, 'admin-users-confirm-disable');
    await page.getByTestId('user-confirm').click();
    await closed(page, 'user-confirm-dialog');
    await expect.poll(() => page.getByTestId(`user-status-${id}`).getAttribute('data-state')).toBe('disabled');
    expect((await findUser('carol'))?.status).toBe(2);

    const carolPage = await openPage();
    await carolPage.goto(`${server.origin}/login`);
    await carolPage.locator('input[name=username]').fill('carol');
    await carolPage.locator('input[name=password]').fill(CAROL_PASSWORD);
    await carolPage.getByTestId('login-submit').click();
    await carolPage.getByTestId('login-error').waitFor();
    expect(new URL(carolPage.url()).pathname).toBe('/login');

    await page.getByTestId(`user-more-${id}`).click();
    await page.getByTestId(`user-enable-${id}`).click();
    await expect.poll(() => page.getByTestId(`user-status-${id}`).getAttribute('data-state')).toBe('enabled');
    await signInWithForm(carolPage, server.origin, 'carol', CAROL_PASSWORD);
    await carolPage.close();
  });

  it('makes the user an admin and cancels it again', async () => {
    const id = (await findUser('carol'))?.id ?? 0;
    await page.getByTestId(`user-more-${id}`).click();
    expect(await page.getByTestId(`user-demote-${id}`).count()).toBe(0);
    await page.getByTestId(`user-promote-${id}`).click();
    await page.getByTestId('user-confirm').click();
    await closed(page, 'user-confirm-dialog');
    await expect.poll(() => page.getByTestId(`user-role-${id}`).getAttribute('data-state')).toBe('admin');
    expect((await findUser('carol'))?.role).toBe(10);

    await page.getByTestId(`user-more-${id}`).click();
    expect(await page.getByTestId(`user-promote-${id}`).count()).toBe(0);
    await page.getByTestId(`user-demote-${id}`).click();
    await page.getByTestId('user-confirm').click();
    await closed(page, 'user-confirm-dialog');
    await expect.poll(() => page.getByTestId(`user-role-${id}`).getAttribute('data-state')).toBe('common');
    expect((await findUser('carol'))?.role).toBe(1);
  });

  it('deletes the user after confirmation, then the emptied group', async () => {
    const id = (await findUser('carol'))?.id ?? 0;
    await page.getByTestId(`user-more-${id}`).click();
    await page.getByTestId(`user-delete-${id}`).click();
    expect(await page.getByTestId('user-confirm').getAttribute('data-action')).toBe('delete');
    await page.getByTestId('user-confirm').click();
    await page.getByTestId('user-empty').waitFor();
    expect(await findUser('carol')).toBeUndefined();
    expect(await statusOf('POST', '/api/user/login', '', { username: 'carol', password: CAROL_PASSWORD })).toBe(401);

    const groupId = (await findGroup('team'))?.id ?? 0;
    await page.goto(`${server.origin}/panel/user_group`);
    await page.getByTestId(`user-group-delete-${groupId}`).click();
    await page.getByTestId('user-group-delete-confirm').click();
    await closed(page, 'user-group-delete-dialog');
    await expect.poll(() => rowIds(page, 'user-group').then((ids) => ids.includes(groupId))).toBe(false);
    expect(await findGroup('team')).toBeUndefined();
  });

  it('sorts and pages the user list through the URL', async () => {
    for (let index = 1; index <= 11; index++) {
      await call('POST', '/api/user/', {
        username: `bulk${String(index).padStart(2, '0')}`,
        password: 'bulk-password-1',
      });
    }
    await page.goto(`${server.origin}/panel/user?keyword=bulk`);
    await expect.poll(() => rowIds(page, 'user').then((ids) => ids.length)).toBe(10);
    const firstName = () => page.locator('[data-testid^=user-name-]').first().textContent();
    const sortState = () => sortDirection(page, 'user-sort-username');
    await page.getByTestId('user-sort-username').click();
    await page.waitForURL(/order=-username/);
    // bulk11 is first in the default (newest first) order too: the header shows the sort took.
    await expect.poll(sortState).toBe('descending');
    await expect.poll(firstName).toBe('bulk11');
    await page.getByTestId('user-sort-username').click();
    await page.waitForURL(/order=username/);
    await expect.poll(sortState).toBe('ascending');
    await expect.poll(firstName).toBe('bulk01');
    await page.getByTestId('user-pagination').getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/page=2/);
    await expect.poll(() => rowIds(page, 'user').then((ids) => ids.length)).toBe(1);
    await page.reload();
    await expect.poll(firstName).toBe('bulk11');
  });
});

describe('screenshots', () => {
  it('of both screens in dark mode, and on a 390 px phone with a dialog', async () => {
    await call('POST', '/api/user_group/', {
      symbol: 'gold',
      name: 'Gold',
      ratio: 0.9,
      api_rate: 300,
      promotion: true,
      min: 20,
    });
    const light = await openPage();
    await signInWithForm(light, server.origin, 'root', ROOT_PASSWORD);
    await light.goto(`${server.origin}/panel/user`);
    await light.locator('[data-testid^=user-row-]').first().waitFor();
    await screenshot(light, 'admin-users');
    await light.close();

    const dark = await openPage({ theme: 'dark' });
    await signInWithForm(dark, server.origin, 'root', ROOT_PASSWORD);
    await dark.goto(`${server.origin}/panel/user`);
    await dark.locator('[data-testid^=user-row-]').first().waitFor();
    await screenshot(dark, 'admin-users-dark');
    await dark.goto(`${server.origin}/panel/user_group`);
    await dark.locator('[data-testid^=user-group-row-]').first().waitFor();
    await screenshot(dark, 'admin-user-groups-dark');
    await dark.close();

    const narrow = await openPage({ viewport: phone });
    await signInWithForm(narrow, server.origin, 'root', ROOT_PASSWORD);
    await narrow.goto(`${server.origin}/panel/user?order=id`);
    const dora = await findUser(DORA.username);
    await narrow.getByTestId(`user-row-${dora?.id}`).waitFor();
    const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(phone.width);
    await phoneShot(narrow, 'admin-users-phone');
    await narrow.getByTestId(`user-quota-action-${dora?.id}`).click();
    await narrow.getByTestId('user-quota-amount').fill('1');
    await phoneShot(narrow, 'admin-users-phone-quota');
    await narrow.getByTestId('user-quota-cancel').click();
    await closed(narrow, 'user-quota-dialog');

    await narrow.goto(`${server.origin}/panel/user_group`);
    await narrow.locator('[data-testid^=user-group-row-]').first().waitFor();
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await phoneShot(narrow, 'admin-user-groups-phone');
    await narrow.getByTestId('user-group-create').click();
    await narrow.getByTestId('user-group-form-promotion').check();
    await phoneShot(narrow, 'admin-user-groups-phone-form');
    await narrow.close();
  });
});
