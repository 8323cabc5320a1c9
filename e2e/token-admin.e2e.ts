/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  DORA,
  findUser,
  OPS,
  openPage,
  PEER,
  phone,
  phoneShot,
  server,
  useAdminUsersSite,
} from './support/admin-users-site.js';
import { sessionCookie } from './support/api.js';
import { closed, screenshot, signInWithForm } from './support/browser.js';

// Administrators list the keys of users below them and move a key to another of those users.
useAdminUsersSite();

const ERIN = { username: 'erin', password: 'erin-password-1', display_name: 'Erin' };

interface AdminTokenRow {
  id: number;
  user_id: number;
  name: string;
  owner_name: string;
  setting: { billing_tag?: string };
}

const ids = { dora: 0, erin: 0, peer: 0 };
let doraKey = 0;
let erinKey = 0;
const pages: Page[] = [];

/** What root reads of a key through the administrators' search. */
async function keyById(id: number): Promise<AdminTokenRow | undefined> {
  const page = await call<{ data: AdminTokenRow[] }>('GET', `/api/token/admin/search?token_id=${id}`);
  return page.data[0];
}

async function openTokens(user: { username: string; password: string }, options = {}): Promise<Page> {
  const page = await openPage(options);
  pages.push(page);
  await signInWithForm(page, server.origin, user.username, user.password);
  await page.goto(`${server.origin}/panel/token`);
  await page.getByTestId('token-refresh').waitFor();
  return page;
}

/** Shows every user's keys filtered by `userId` ('' = no filter) and waits for the URL to say so. */
async function filterByUser(page: Page, userId: number | '') {
  await page.getByTestId('token-admin-user-id').fill(String(userId));
  await page.getByTestId('token-admin-filter').click();
  await page.waitForURL((url) => (url.searchParams.get('user_id') ?? '') === String(userId));
}

const row = (page: Page, id: number) => page.getByTestId(`token-row-${id}`);

beforeAll(async () => {
  await call('POST', '/api/user/', ERIN);
  ids.dora = (await findUser(DORA.username))?.id ?? 0;
  ids.erin = (await findUser(ERIN.username))?.id ?? 0;
  ids.peer = (await findUser(PEER.username))?.id ?? 0;
  const create = async (user: { username: string; password: string }, name: string) => {
    const cookie = await sessionCookie(server.origin, user.username, user.password);
    await call('POST', '/api/token/', { name, remain_quota: 1000, expired_time: -1 }, cookie);
    const own = await call<{ data: AdminTokenRow[] }>('GET', `/api/token/?keyword=${name}`, undefined, cookie);
    return own.data[0]?.id ?? 0;
  };
  doraKey = await create(DORA, 'dora-app');
  erinKey = await create(ERIN, 'erin-app');
});

afterEach(async () => {
  for (const page of pages.splice(0)) await page.close();
});

describe("administrators' view of every user's keys", () => {
  it('lists other users’ keys with their owner, filtered by user id', async () => {
    const page = await openTokens(OPS);
    await page.getByTestId('token-scope-all').click();
    await row(page, doraKey).waitFor();
    await row(page, erinKey).waitFor();
    expect(await page.getByTestId(`token-owner-${doraKey}`).textContent()).toContain(DORA.username);
    expect(await page.getByTestId(`token-owner-${erinKey}`).textContent()).toContain('Erin');
    // Another user's key is masked: no copy button, no delete, only edit.
    expect(await page.getByTestId(`token-copy-${doraKey}`).count()).toBe(0);
    expect(await page.getByTestId(`token-delete-${doraKey}`).count()).toBe(0);

    await filterByUser(page, ids.erin);
    await row(page, erinKey).waitFor();
    await row(page, doraKey).waitFor({ state: 'detached' });
    await screenshot(page, 'token-admin-list');
  });

  it('moves a key to another user, and the list and the API show the new owner', async () => {
    const page = await openTokens(OPS);
    await page.getByTestId('token-scope-all').click();
    await filterByUser(page, ids.dora);
    await page.getByTestId(`token-edit-${doraKey}`).click();
    const owner = page.getByTestId('token-form-owner');
    expect(await owner.inputValue()).toBe(String(ids.dora));
    await owner.fill(String(ids.erin));
    await page.getByTestId('token-form-submit').click();
    await closed(page, 'token-dialog');

    // Dora no longer owns it: it leaves her filtered list and joins Erin's.
    await row(page, doraKey).waitFor({ state: 'detached' });
    await filterByUser(page, ids.erin);
    await expect.poll(() => page.getByTestId(`token-owner-${doraKey}`).textContent()).toContain('Erin');
    expect((await keyById(doraKey))?.user_id).toBe(ids.erin);
  });

  it('refuses to give a key to a user of equal rank and shows why', async () => {
    const page = await openTokens(OPS, { language: 'zh_CN', theme: 'dark' });
    await page.getByTestId('token-scope-all').click();
    await row(page, erinKey).waitFor();
    await page.getByTestId(`token-edit-${erinKey}`).click();
    await page.getByTestId('token-form-owner').fill(String(ids.peer));
    await page.getByTestId('token-form-submit').click();
    const problem = page.getByTestId('token-form-error');
    await problem.waitFor();
    expect(await problem.textContent()).toContain('permission denied');
    expect(await page.getByTestId('token-form-owner').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'token-admin-refused-zh-dark');
    expect((await keyById(erinKey))?.user_id).toBe(ids.erin);
    // Typing another owner clears the refusal, which was about the previous one.
    await page.getByTestId('token-form-owner').fill(String(ids.dora));
    await problem.waitFor({ state: 'detached' });
    expect(await page.getByTestId('token-form-owner').getAttribute('aria-invalid')).toBe('false');
  });

  it('fits a 400 px phone as cards with the owner', async () => {
    const page = await openTokens(OPS, { viewport: { width: 400, height: phone.height } });
    await page.getByTestId('token-scope-all').click();
    await page.getByTestId(`token-owner-${erinKey}`).waitFor();
    await phoneShot(page, 'token-admin-phone');
  });

  it('shows a plain user no such switch, even with the view in the URL', async () => {
    const page = await openPage();
    pages.push(page);
    await signInWithForm(page, server.origin, ERIN.username, ERIN.password);
    await page.goto(`${server.origin}/panel/token?scope=all&user_id=${ids.dora}`);
    await row(page, erinKey).waitFor();
    expect(await page.getByTestId('token-scope-all').count()).toBe(0);
    expect(await page.getByTestId('token-admin-filters').count()).toBe(0);
    expect(await page.getByTestId(`token-owner-${erinKey}`).count()).toBe(0);
    // Her own list, with her own actions.
    expect(await page.getByTestId(`token-copy-${erinKey}`).count()).toBe(1);
  });

  it('lets an admin tag a key for billing; its owner sees the tag only once reliable, and keeps it', async () => {
    const page = await openTokens(OPS);
    await page.getByTestId('token-scope-all').click();
    await filterByUser(page, ids.erin);
    await page.getByTestId(`token-edit-${erinKey}`).click();
    await page.getByTestId('token-form-billing-tag').locator('[role=combobox]').click();
    await page.locator('[role=option][data-value="default"]').click();
    await page.getByTestId('token-form-submit').click();
    await closed(page, 'token-dialog');
    expect((await keyById(erinKey))?.setting.billing_tag).toBe('default');

    // A common user's form has no such field, and saving it keeps the tag.
    const own = await openTokens(ERIN);
    await own.getByTestId(`token-edit-${erinKey}`).click();
    await own.getByTestId('token-form-name').waitFor();
    expect(await own.getByTestId('token-form-billing-tag').count()).toBe(0);
    await own.getByTestId('token-form-submit').click();
    await closed(own, 'token-dialog');
    expect((await keyById(erinKey))?.setting.billing_tag).toBe('default');

    await call('POST', '/api/user/manage', { username: ERIN.username, action: 'set_reliable' });
    const reliable = await openTokens(ERIN);
    await reliable.getByTestId(`token-edit-${erinKey}`).click();
    const field = reliable.getByTestId('token-form-billing-tag');
    await field.waitFor();
    expect(await field.locator('input').inputValue()).toBe('default');
    await field.scrollIntoViewIfNeeded();
    await screenshot(reliable, 'token-billing-tag');
  });
});
