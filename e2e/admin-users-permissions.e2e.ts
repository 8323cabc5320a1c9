import { describe, expect, it } from 'vitest';
import {
  DORA,
  findUser,
  OPS,
  openPage,
  PEER,
  server,
  statusOf,
  useAdminUsersSite,
} from './support/admin-users-site.js';
import { sessionCookie } from './support/api.js';
import { screenshot, signInWithForm } from './support/browser.js';

useAdminUsersSite();

describe('as an admin who is not root', () => {
  it("lists only itself and the users below it (its own row: the display name only), hides root-only actions, and the API refuses root's and a peer's", async () => {
    const [root, ops, peer, dora] = await Promise.all(
      ['root', OPS.username, PEER.username, DORA.username].map(findUser),
    );
    const page = await openPage();
    await signInWithForm(page, server.origin, OPS.username, OPS.password);
    await page.goto(`${server.origin}/panel/user?size=50`);
    await page.getByTestId(`user-row-${dora?.id}`).waitFor();

    // Root and the other admin are not listed at all (issue 29). Its own row is not locked: it
    // edits its display name there; its password, group and balance are not offered (the server
    // refuses them on the admin route), the dialog points to the profile page instead.
    for (const hidden of [root, peer]) {
      expect(await page.getByTestId(`user-row-${hidden?.id}`).count(), `row of ${hidden?.username}`).toBe(0);
    }
    const opsId = ops?.id ?? 0;
    expect(await page.getByTestId(`user-locked-${opsId}`).count()).toBe(0);
    expect(await page.getByTestId(`user-quota-action-${opsId}`).count()).toBe(0);
    await page.getByTestId(`user-edit-${opsId}`).click();
    await page.getByTestId('user-form-own-hint').waitFor();
    expect(await page.getByTestId('user-form-password').count()).toBe(0);
    expect(await page.getByTestId('user-form-group-value').isDisabled()).toBe(true);
    expect(await page.getByTestId('user-form-profile-link').getAttribute('href')).toBe('/panel/profile');
    await screenshot(page, 'admin-users-as-admin');
    await page.getByTestId('user-form-display-name').fill('Ops Renamed');
    await page.getByTestId('user-form-submit').click();
    await expect.poll(async () => (await findUser(OPS.username))?.display_name).toBe('Ops Renamed');
    expect((await findUser(OPS.username))?.group).toBe(ops?.group);
    const doraId = dora?.id ?? 0;
    expect(await page.getByTestId(`user-edit-${doraId}`).count()).toBe(1);
    await page.getByTestId(`user-more-${doraId}`).click();
    await page.getByTestId(`user-disable-${doraId}`).waitFor();
    expect(await page.getByTestId(`user-promote-${doraId}`).count()).toBe(0);
    expect(await page.getByTestId(`user-delete-${doraId}`).count()).toBe(1);
    await page.keyboard.press('Escape');

    const session = await sessionCookie(server.origin, OPS.username, OPS.password);
    for (const target of [root, peer]) {
      const name = target?.username ?? '';
      const id = target?.id ?? 0;
      expect(await statusOf('GET', `/api/user/${id}`, session)).toBe(403);
      expect(await statusOf('PUT', '/api/user/', session, { id, display_name: 'x' })).toBe(403);
      expect(await statusOf('POST', `/api/user/quota/${id}`, session, { quota: 1 })).toBe(403);
      expect(await statusOf('DELETE', `/api/user/${id}`, session)).toBe(403);
      for (const action of ['disable', 'delete', 'demote']) {
        expect(await statusOf('POST', '/api/user/manage', session, { username: name, action }), action).toBe(403);
      }
    }
    expect(await statusOf('POST', '/api/user/manage', session, { username: DORA.username, action: 'promote' })).toBe(
      403,
    );
    expect((await findUser(DORA.username))?.role).toBe(1);
    expect((await findUser(PEER.username))?.status).toBe(1);
    await page.close();
  });
});
