import { describe, expect, it } from 'vitest';
import { clearanceOf, collapseTarget, consoleMenu, findMenuTrail, visibleMenu } from './menu.js';

const ids = (menu: ReturnType<typeof visibleMenu>) =>
  menu.flatMap((group) =>
    group.children.flatMap((entry) =>
      entry.type === 'collapse' ? [entry.id, ...entry.children.map((child) => child.id)] : [entry.id],
    ),
  );

describe('console menu (spec §2, §6)', () => {
  it('shows every item to an admin, in the spec order', () => {
    const menu = visibleMenu(consoleMenu, 'root');
    expect(menu.map((group) => group.id)).toEqual(['dashboard', 'account', 'billing', 'usage', 'setting']);
    expect(ids(menu)).toEqual([
      'dashboard',
      'analytics',
      'system_info',
      'playground',
      'token',
      'profile',
      'topup',
      'model_price',
      'log',
      'audit',
      'midjourney',
      'task',
      'user',
      'channel',
      'operation',
      'user_group',
      'pricing',
      'telegram',
      'paySetting',
      'redemption',
      'payment',
      'plan',
      'setting',
    ]);
  });

  it('hides the admin-only items from a common user', () => {
    const menu = visibleMenu(consoleMenu, 'user');
    expect(menu.map((group) => group.id)).toEqual(['dashboard', 'account', 'billing', 'usage']);
    expect(ids(menu)).toEqual([
      'dashboard',
      'playground',
      'token',
      'profile',
      'topup',
      'model_price',
      'log',
      'midjourney',
      'task',
    ]);
  });

  it('hides the root-only Settings and system information from an administrator who is not root, and nothing else', () => {
    const everything = ids(visibleMenu(consoleMenu, 'root'));
    const rootOnly = ['setting', 'system_info'];
    expect(ids(visibleMenu(consoleMenu, 'admin'))).toEqual(everything.filter((id) => !rootOnly.includes(id)));
  });

  it('reads the clearance from the numeric role (spec §6)', () => {
    expect([0, 1, 9, 10, 99, 100].map(clearanceOf)).toEqual(['user', 'user', 'user', 'admin', 'admin', 'root']);
    expect(clearanceOf(undefined)).toBe('user');
  });

  it('hides a group whose items are all hidden, and a collapse left empty', () => {
    const menu = visibleMenu(
      [
        { type: 'group', id: 'billing', children: [{ type: 'item', id: 'topup', url: '/panel/topup', admin: true }] },
        {
          type: 'group',
          id: 'setting',
          children: [
            { type: 'collapse', id: 'operation', children: [{ type: 'item', id: 'pricing', url: '/x', admin: true }] },
            { type: 'item', id: 'token', url: '/panel/token' },
          ],
        },
      ],
      'user',
    );
    expect(ids(menu)).toEqual(['token']);
    expect(menu.map((group) => group.id)).toEqual(['setting']);
  });

  it('finds the group, collapse and item of a path', () => {
    const trail = findMenuTrail(consoleMenu, '/panel/user_group');
    expect([trail?.group.id, trail?.collapse?.id, trail?.link.id]).toEqual(['setting', 'operation', 'user_group']);
    expect(findMenuTrail(consoleMenu, '/panel')?.link.id).toBe('dashboard');
    expect(findMenuTrail(consoleMenu, '/panel/token/42')?.link.id).toBe('token');
    // Keys and profile sit under the user's account, not under the site's settings.
    expect(findMenuTrail(consoleMenu, '/panel/token')?.group.id).toBe('account');
    expect(findMenuTrail(consoleMenu, '/panel/profile')?.group.id).toBe('account');
    expect(findMenuTrail(consoleMenu, '/panel/nowhere')).toBeNull();
  });

  it('lets the screens of wide tables use the whole width, and no other', () => {
    const wideIds = visibleMenu(consoleMenu, 'root')
      .flatMap((group) => group.children.flatMap((entry) => (entry.type === 'collapse' ? entry.children : [entry])))
      .filter((entry) => entry.wide)
      .map((entry) => entry.id);
    expect(wideIds).toEqual(['log', 'audit', 'midjourney', 'task', 'channel']);
    expect(findMenuTrail(consoleMenu, '/panel/log')?.link.wide).toBe(true);
  });

  it('sends a collapsible group to its first child, except "authentication"', () => {
    const operation = consoleMenu
      .find((group) => group.id === 'setting')
      ?.children.find((entry) => entry.id === 'operation');
    expect(operation?.type === 'collapse' && collapseTarget(operation)).toBe('/panel/user_group');
    expect(
      collapseTarget({ id: 'authentication', children: [{ type: 'item', id: 'login', url: '/login' }] }),
    ).toBeNull();
  });
});
