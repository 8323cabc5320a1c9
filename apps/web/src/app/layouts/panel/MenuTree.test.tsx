// @vitest-environment jsdom
/**
 * The kinds of drawer entries (spec §2): the console's own menu has only plain links and
 * collapses, so the external, disabled and chip-and-caption kinds are rendered here from a made-up
 * menu, in English.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MenuGroup } from '../../menu/menu.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
window.localStorage.setItem('appLanguage', 'en_US');

const { i18n } = await import('../../../i18n/index.js');
const { AppStateProvider } = await import('../../state/AppStateProvider.js');
const { MenuTree } = await import('./MenuTree.js');

let root: Root | null = null;
let container: HTMLElement;

async function renderMenu(menu: MenuGroup[]): Promise<HTMLElement> {
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => {
    root?.render(
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient()}>
          <AppStateProvider>
            <MemoryRouter initialEntries={['/panel']}>
              <MenuTree menu={menu} closeOnSelect={false} />
            </MemoryRouter>
          </AppStateProvider>
        </QueryClientProvider>
      </I18nextProvider>,
    );
  });
  return container;
}

const entry = (id: string) => {
  const found = container.querySelector(`[data-testid="menu-${id}"]`);
  if (!found) throw new Error(`no menu entry ${id}`);
  return found;
};

beforeAll(async () => {
  await i18n.changeLanguage('en_US');
});

afterEach(() => {
  act(() => root?.unmount());
  container.remove();
  root = null;
});

describe('drawer menu entries (spec §2 item kinds)', () => {
  it('opens an external link with a target in a new tab, and one without in the same tab', async () => {
    await renderMenu([
      {
        type: 'group',
        id: 'dashboard',
        children: [
          { type: 'item', id: 'about', url: 'https://docs.example.com/', external: true, target: true },
          { type: 'item', id: 'playground', url: 'https://chat.example.com/', external: true },
        ],
      },
    ]);
    const newTab = entry('about');
    expect(newTab.tagName).toBe('A');
    expect(newTab.getAttribute('href')).toBe('https://docs.example.com/');
    expect(newTab.getAttribute('target')).toBe('_blank');
    expect(newTab.getAttribute('rel')).toBe('noopener noreferrer');
    const sameTab = entry('playground');
    expect(sameTab.getAttribute('href')).toBe('https://chat.example.com/');
    expect(sameTab.hasAttribute('target')).toBe(false);
  });

  it('shows a disabled entry that cannot be chosen, and a plain one that links inside the console', async () => {
    await renderMenu([
      {
        type: 'group',
        id: 'usage',
        children: [
          { type: 'item', id: 'log', url: '/panel/log', disabled: true },
          { type: 'item', id: 'task', url: '/panel/task' },
        ],
      },
    ]);
    expect(entry('log').getAttribute('aria-disabled')).toBe('true');
    expect(entry('log').classList.contains('Mui-disabled')).toBe(true);
    expect(entry('task').getAttribute('aria-disabled')).toBeNull();
    expect(entry('task').getAttribute('href')).toBe('/panel/task');
  });

  it('shows a chip after the title and a caption under it, in the reader’s language', async () => {
    await renderMenu([
      {
        type: 'group',
        id: 'billing',
        children: [
          { type: 'item', id: 'topup', url: '/panel/topup', chip: 'groups.billing', caption: 'drawer.welcomeBack' },
        ],
      },
    ]);
    const item = entry('topup');
    expect(item.querySelector('.MuiChip-label')?.textContent).toBe('Billing');
    expect(item.querySelector('.MuiListItemText-secondary')?.textContent).toBe('Welcome back');
    expect(item.querySelector('.MuiListItemText-primary')?.textContent).toBe('Top up');
  });

  it("shows 'Menu Items Error' for an entry of an unknown kind", async () => {
    const unknown = { type: 'widget', id: 'token' } as unknown as MenuGroup['children'][number];
    await renderMenu([{ type: 'group', id: 'account', children: [unknown] }]);
    expect(container.querySelector('[data-testid="menu-items-error"]')?.textContent).toBe('Menu Items Error');
  });
});
