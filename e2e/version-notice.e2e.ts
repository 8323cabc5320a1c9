/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

let browser: Browser;
let servers: RunningServer[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  for (const server of servers) await server.stop();
});

describe('an open console learns that its server was updated', () => {
  it('asks for Shift + F5 once the server answers with another version, and not before', async () => {
    const first = await startServer({ npm_package_version: '1.0.0' });
    servers.push(first);
    const port = new URL(first.origin).port;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(() => window.localStorage.setItem('appLanguage', 'en_US'));
    const loaded = page.waitForResponse((response) => response.url().endsWith('/api/status'));
    await page.goto(`${first.origin}/login`);
    await loaded;
    await page.getByTestId('login-submit').waitFor();
    expect(await page.evaluate(() => (window as { __ONE_HUB_VERSION__?: string }).__ONE_HUB_VERSION__)).toMatch(
      /^1\.0\.0/,
    );

    // The tab comes back into view while the same server runs: nothing to announce.
    const sameVersion = page.waitForResponse((response) => response.url().endsWith('/api/status'));
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    expect((await (await sameVersion).json()).data.version).toMatch(/^1\.0\.0/);
    expect(await page.getByTestId('new-version-notice').count()).toBe(0);

    // The server is updated in place (same address) while the page stays open.
    await first.stop();
    servers = [];
    servers.push(await startServer({ npm_package_version: '1.0.1', PORT: port }));
    const updated = page.waitForResponse((response) => response.url().endsWith('/api/status'));
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    expect((await (await updated).json()).data.version).toMatch(/^1\.0\.1/);
    await expect
      .poll(async () => page.getByTestId('new-version-notice').textContent())
      .toBe('A new version is available: press Shift + F5 to reload the page.');
    await screenshot(page, 'version-notice');
    await page.close();
  });
});
