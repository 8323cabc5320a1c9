/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signInWithForm } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';

/** The built console's page, which names its hashed files. */
const builtIndex = new URL('../apps/web/dist/index.html', import.meta.url);

/** Requests one page load made, by path, with the status each got; `sent`: every request's path as it left. */
interface LoadRecord {
  requests: Array<{ path: string; status: number }>;
  sent: string[];
}

type SignedIn = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * Loads the signed-in dashboard in a fresh context (nothing cached: a cold load, with the session
 * cookie) and waits until the console has drawn it; records every request the load made and its answer.
 */
async function coldLoad(browser: Browser, origin: string, session: SignedIn): Promise<LoadRecord> {
  const context = await browser.newContext({ locale: 'en-US', storageState: session });
  const requests: LoadRecord['requests'] = [];
  const sent: string[] = [];
  context.on('request', (request) => {
    sent.push(new URL(request.url()).pathname);
  });
  context.on('response', (response) => {
    requests.push({ path: new URL(response.url()).pathname, status: response.status() });
  });
  try {
    const page = await context.newPage();
    const answer = await page.goto(`${origin}/panel`);
    // A refused page has no console to wait for; the caller reads the refusal from the record.
    if (answer?.status() !== 200) return { requests, sent };
    await page.getByTestId('user-name').waitFor();
    // Files and calls a chunk makes late count too: wait until the network is quiet.
    await page.waitForLoadState('networkidle');
    return { requests, sent };
  } finally {
    await context.close();
  }
}

describe('the per-address limits at their defaults, in a browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let session: SignedIn;

  beforeAll(async () => {
    // Unset: the server's own default limits, not the harness's "off".
    server = await startServer({
      INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
      GLOBAL_API_RATE_LIMIT: undefined,
      GLOBAL_WEB_RATE_LIMIT: undefined,
    });
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: 'en-US' });
    await signInWithForm(await context.newPage(), server.origin, 'root', ROOT_PASSWORD);
    session = await context.storageState();
    await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('asks the API for each path once on a cold load of the dashboard', async () => {
    const { sent } = await coldLoad(browser, server.origin, session);
    const calls = sent.filter((path) => path.startsWith('/api/'));
    expect(calls.length).toBeGreaterThan(3);
    const twice = calls.filter((path, index) => calls.indexOf(path) !== index);
    expect(twice, `asked twice: ${twice.join(', ')}; all: ${calls.join(', ')}`).toEqual([]);
  });

  it('renders the signed-in console on each of 40 cold loads from one address', { timeout: 300_000 }, async () => {
    const loads: LoadRecord[] = [];
    for (let load = 0; load < 40; load++) loads.push(await coldLoad(browser, server.origin, session));
    // A real cold load: the page, its hashed files and the dashboard's API calls.
    const first = loads[0] as LoadRecord;
    expect(first.requests.filter((request) => request.path.includes('/assets/')).length).toBeGreaterThan(10);
    expect(first.requests.filter((request) => request.path.startsWith('/api/')).length).toBeGreaterThan(3);
    const refused = loads.flatMap((load, index) =>
      load.requests.filter((request) => request.status === 429).map((request) => `load ${index}: ${request.path}`),
    );
    expect(refused).toEqual([]);
  });

  it('shows a page in the visitor’s language once the address is over the limit, and still serves hashed files', async () => {
    const context = await browser.newContext({ locale: 'ja-JP' });
    try {
      const page = await context.newPage();
      let answer: Awaited<ReturnType<typeof page.goto>> = null;
      // Uses up the address's console allowance with an unhashed file (the hashed ones are not counted),
      // then navigates; again if the window (which began with the test above) ended in between.
      for (let attempt = 0; attempt < 3 && answer?.status() !== 429; attempt++) {
        for (let count = 0; count < 200; count++) {
          if ((await context.request.get(`${server.origin}/favicon.svg`)).status() === 429) break;
        }
        answer = await page.goto(`${server.origin}/login`);
      }
      expect(answer?.status()).toBe(429);
      const wait = Number(answer?.headers()['retry-after']);
      expect(wait).toBeGreaterThan(0);
      await expect.poll(() => page.locator('h1').textContent()).toBe('リクエストが多すぎます');
      expect(await page.locator('main').textContent()).toContain(`${wait} 秒後にもう一度お試しください`);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
      const english = await context.request.get(`${server.origin}/panel`, {
        headers: { accept: 'text/html', 'accept-language': 'en-US,en;q=0.9' },
      });
      expect(english.status()).toBe(429);
      expect(await english.text()).toContain('sent too many requests to this site');
      // The console's hashed files are still served: a browser that has the page can finish loading it.
      const script = /assets\/[^"]+\.js/.exec(readFileSync(builtIndex, 'utf8'));
      expect(script).not.toBeNull();
      expect((await context.request.get(`${server.origin}/${script?.[0]}`)).status()).toBe(200);
    } finally {
      await context.close();
    }
  });
});
