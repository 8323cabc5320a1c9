/// <reference lib="dom" />
/**
 * Edges of the console the spec names (issue 35 item 7): the server out of reach at start-up, the
 * toast rules (3 at once, duplicates dropped), the copy toasts, the drawer's head and the layout's
 * sizes. Each waits for a state, never for time.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApi, adminApi, apiCall } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm, text } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-edges-0123';
const desktop = { width: 1280, height: 800 };
const wide = { width: 1920, height: 1080 };
const CODE_NAME = 'edge codes';

let server: RunningServer;
let browser: Browser;
let admin: AdminApi;
let codes: Array<{ id: number; key: string }> = [];

interface CodeRow {
  id: number;
  name: string;
  key: string;
}

/** A fresh context in English; `clipboard: 'none'` takes away both ways a page can copy. */
async function openPage(options: { viewport?: typeof desktop; clipboard?: 'granted' | 'none' } = {}): Promise<Page> {
  const granted = options.clipboard === 'granted';
  const page = await browser.newPage({
    viewport: options.viewport ?? desktop,
    ...(granted ? { permissions: ['clipboard-read', 'clipboard-write'] } : {}),
  });
  await page.addInitScript((noClipboard) => {
    if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', 'en_US');
    if (!noClipboard) return;
    Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true });
    document.execCommand = () => false;
  }, options.clipboard === 'none');
  return page;
}

const signInAsRoot = async (page: Page) => {
  await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);
  await page.getByTestId('drawer-profile').waitFor();
};

/** The texts of the "copy it by hand" toasts on the screen, sorted. */
const manualCopyTexts = async (page: Page) =>
  (await page.locator('[data-testid=manual-copy-toast] code').allTextContents()).sort();

beforeAll(async () => {
  server = await startServer({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN });
  admin = adminApi(server.origin, ROOT_TOKEN);
  const root = { token: ROOT_TOKEN };
  await apiCall(server.origin, 'POST', '/api/redemption/', root, { name: CODE_NAME, quota: 1000, count: 4 });
  const listed = await apiCall<{ data: CodeRow[] }>(server.origin, 'GET', '/api/redemption/?size=100', root);
  codes = listed.data.filter((code) => code.name === CODE_NAME).sort((a, b) => a.id - b.id);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the server out of reach at start-up', () => {
  it("keeps the site info stored by the last visit and says 'Unable to connect to the server correctly!'", async () => {
    await admin.setOption('SystemName', 'Edge Hub');
    const page = await openPage();
    try {
      await page.goto(`${server.origin}/about`);
      await expect.poll(() => page.title()).toBe('Edge Hub');
      await expect
        .poll(() => page.evaluate(() => JSON.parse(window.localStorage.getItem('siteInfo') ?? '{}').system_name))
        .toBe('Edge Hub');
      // The server's answer would now say "One Hub" (the default too): "Edge Hub" can only come from storage.
      await admin.setOption('SystemName', 'One Hub');
      await page.route('**/api/status', (route) => route.abort('connectionrefused'));
      await page.reload();
      const toast = page.locator('.notistack-MuiContent-error', { hasText: 'Unable to connect to the server' });
      await toast.waitFor();
      expect((await toast.textContent())?.trim()).toBe('Unable to connect to the server correctly!');
      expect(await page.title()).toBe('Edge Hub');
      await page.getByTestId('about-empty').waitFor();
    } finally {
      await admin.setOption('SystemName', 'One Hub');
      await page.close();
    }
  });
});

describe('toasts', () => {
  it('show the text to copy by hand when the browser cannot copy, 3 at most, each text once', async () => {
    const [first, second, third, fourth] = codes;
    if (!first || !second || !third || !fourth) throw new Error('four codes expected');
    const page = await openPage({ clipboard: 'none' });
    await signInAsRoot(page);
    await page.goto(`${server.origin}/panel/redemption`);
    await page.getByTestId(`redemption-copy-${fourth.id}`).waitFor();

    // The same text twice: one toast (notistack's preventDuplicate). The toast stays and shows the code.
    await page.getByTestId(`redemption-copy-${first.id}`).click();
    await page.getByTestId(`redemption-copy-${first.id}`).click();
    await page.getByTestId(`redemption-copy-${second.id}`).click();
    await expect.poll(() => manualCopyTexts(page)).toEqual([first.key, second.key].sort());
    expect(await text(page, 'manual-copy-toast')).toContain('Automatic copying is not available');

    // A fourth toast pushes out the oldest: three stay on the screen.
    await page.getByTestId(`redemption-copy-${third.id}`).click();
    await page.getByTestId(`redemption-copy-${fourth.id}`).click();
    await expect.poll(() => manualCopyTexts(page)).toEqual([second.key, third.key, fourth.key].sort());
    expect(await page.locator('.notistack-MuiContent').count()).toBe(3);
    await screenshot(page, 'edges-manual-copy-toasts', { fullPage: false });

    // Each closes from its own button.
    await page.locator('[data-testid=manual-copy-toast]', { hasText: second.key }).getByRole('button').click();
    await expect.poll(() => manualCopyTexts(page)).toEqual([third.key, fourth.key].sort());
    await page.close();
  });

  it("say '<thing> copied!' when the copy worked, and the clipboard holds the text", async () => {
    const [first] = codes;
    if (!first) throw new Error('a code expected');
    const page = await openPage({ clipboard: 'granted' });
    await signInAsRoot(page);
    await page.goto(`${server.origin}/panel/redemption`);
    await page.getByTestId(`redemption-copy-${first.id}`).click();
    await page.locator('.notistack-MuiContent-success', { hasText: 'Redemption code copied!' }).waitFor();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(first.key);
    expect(await page.getByTestId('manual-copy-toast').count()).toBe(0);
    await page.close();
  });
});

describe("the drawer's head", () => {
  it('shows the username, a welcome line and the disabled version chip; the avatar leads to the profile', async () => {
    const status = await apiCall<{ version: string }>(server.origin, 'GET', '/api/status', {});
    expect(status.version).not.toBe('');
    const page = await openPage();
    await signInAsRoot(page);
    const head = page.getByTestId('drawer-profile');
    expect(await text(page, 'drawer-username')).toBe('root');
    expect(await head.textContent()).toContain('Welcome back');
    const chip = page.getByTestId('drawer-version');
    await expect.poll(async () => (await chip.textContent())?.trim()).toBe(status.version);
    expect(await chip.getAttribute('class')).toContain('Mui-disabled');

    await head.getByRole('button', { name: 'Open your profile' }).click();
    await page.waitForURL('**/panel/profile');
    await page.close();
  });

  it("reads 'unknown version' when the server names none", async () => {
    const page = await openPage();
    await page.route('**/api/status', async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as { data: Record<string, unknown> };
      await route.fulfill({ response: answer, json: { ...body, data: { ...body.data, version: '' } } });
    });
    await signInAsRoot(page);
    await expect.poll(() => text(page, 'drawer-version')).toBe('unknown version');
    await page.close();
  });
});

describe('layout sizes (spec §9)', () => {
  it('draws the drawer 260 px wide and stops the page column at 1400 px on a 1920 px screen', async () => {
    const page = await openPage({ viewport: wide });
    await signInAsRoot(page);
    await page.goto(`${server.origin}/panel/token`);
    await page.getByTestId('token-list').waitFor();
    const drawer = page.getByTestId('side-drawer').locator('.MuiDrawer-paper');
    await expect.poll(() => page.getByTestId('side-drawer').getAttribute('data-settled')).toBe('true');
    const drawerBox = await drawer.boundingBox();
    const content = await page.getByTestId('panel-content').boundingBox();
    expect(drawerBox?.width).toBe(260);
    expect(drawerBox?.x).toBe(0);
    expect(content?.width).toBe(1400);
    // Centred in what the drawer leaves (the viewport less a scroll bar, if the page has one).
    const viewportWidth = await page.evaluate(() => document.documentElement.clientWidth);
    expect(content?.x).toBe(260 + (viewportWidth - 260 - 1400) / 2);
    await page.close();
  });
});
