import type { TokenView, UserGroupView } from '@one-hub/contracts';
import { describe, expect, it } from 'vitest';
import {
  apiSignIn,
  call,
  openPage,
  ROOT_PASSWORD,
  root,
  server,
  settledScreenshot,
  signIn,
  USERS,
  useAccountSite,
} from './support/account-site.js';
import { text } from './support/browser.js';

useAccountSite();

/** Issue 34: the fallbacks editor of the group and key dialogs, and the group's cache-affinity switch. */
describe('model fallbacks and cache affinity in the console', () => {
  it('the group dialog saves fallbacks and turns affinity off, refusing a cycle on its row, light and dark', async () => {
    const group = await call<UserGroupView>('POST', '/api/user_group/', root, { symbol: 'routing', name: 'Routing' });
    expect(group.cache_affinity).toBe(true);
    const admin = await openPage();
    await signIn(admin, 'root', ROOT_PASSWORD);
    await admin.goto(`${server.origin}/panel/user_group`);
    await admin.getByTestId(`user-group-edit-${group.id}`).click();
    await admin.getByTestId('user-group-form-fallbacks-none').waitFor();
    for (const [index, model, fallbacks] of [
      [0, 'gpt-4o', 'gpt-4o-mini'],
      [1, 'gpt-4o-mini', 'gpt-4o'],
    ] as const) {
      await admin.getByTestId('user-group-form-fallbacks-add').click();
      await admin.getByTestId(`user-group-form-fallbacks-${index}-model`).fill(model);
      await admin.getByTestId(`user-group-form-fallbacks-${index}-fallbacks`).fill(fallbacks);
    }
    await admin.getByTestId('user-group-form-submit').click();
    await expect.poll(() => text(admin, 'user-group-form-fallbacks')).toContain('cycle: gpt-4o → gpt-4o-mini → gpt-4o');
    expect((await call<UserGroupView>('GET', `/api/user_group/${group.id}`, root)).fallbacks).toEqual({});

    await admin.getByTestId('user-group-form-fallbacks-1-remove').click();
    await admin.getByTestId('user-group-form-fallbacks-0-fallbacks').fill('gpt-4o-mini, claude-3-5-haiku');
    await admin.getByTestId('user-group-form-cache-affinity').click();
    await admin.getByTestId('user-group-form-submit').click();
    await admin.getByTestId('user-group-form').waitFor({ state: 'detached' });
    const saved = await call<UserGroupView>('GET', `/api/user_group/${group.id}`, root);
    expect(saved.fallbacks).toEqual({ 'gpt-4o': ['gpt-4o-mini', 'claude-3-5-haiku'] });
    expect(saved.cache_affinity).toBe(false);

    for (const dark of [false, true]) {
      const page = dark ? await openPage({ dark }) : admin;
      if (dark) {
        await signIn(page, 'root', ROOT_PASSWORD);
        await page.goto(`${server.origin}/panel/user_group`);
      }
      await page.getByTestId(`user-group-edit-${group.id}`).click();
      expect(await page.getByTestId('user-group-form-fallbacks-0-model').inputValue()).toBe('gpt-4o');
      expect(await page.getByTestId('user-group-form-fallbacks-0-fallbacks').inputValue()).toBe(
        'gpt-4o-mini, claude-3-5-haiku',
      );
      await page.getByTestId('user-group-form-fallbacks').scrollIntoViewIfNeeded();
      await settledScreenshot(page, `fallbacks-group-dialog-${dark ? 'dark' : 'light'}`);
      await page.getByTestId('user-group-form-cancel').click();
    }
  });

  it('the key dialog saves its own fallbacks and names a model listed as its own fallback', async () => {
    const carol = await apiSignIn(USERS.carol.username, USERS.carol.password);
    const page = await openPage();
    await signIn(page, USERS.carol.username, USERS.carol.password);
    await page.goto(`${server.origin}/panel/token`);
    await page.getByTestId('token-create').click();
    await page.getByTestId('token-form-name').fill('with fallbacks');
    await page.getByTestId('token-form-fallbacks-add').click();
    await page.getByTestId('token-form-fallbacks-0-model').fill('gpt-4o');
    await page.getByTestId('token-form-fallbacks-0-fallbacks').fill('gpt-4o');
    await page.getByTestId('token-form-submit').click();
    await expect.poll(() => text(page, 'token-form-fallbacks')).toContain('cannot be its own fallback');
    await page.getByTestId('token-form-fallbacks-0-fallbacks').fill('gpt-4o-mini');
    await page.getByTestId('token-form-submit').click();
    await page.getByTestId('token-created-key').waitFor();
    await page.getByTestId('token-created-close').click();
    const [listed] = (await call<{ data: TokenView[] }>('GET', '/api/token/?keyword=with%20fallbacks', carol)).data;
    const saved = await call<TokenView>('GET', `/api/token/${listed?.id ?? 0}`, carol);
    expect(saved.setting.fallbacks).toEqual({ 'gpt-4o': ['gpt-4o-mini'] });
  });
});
