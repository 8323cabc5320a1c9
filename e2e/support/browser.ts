import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

export const screenshotDirectory = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** The system Chromium from Debian's package; test tools' own browser downloads do not work here. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * Waits for the page's running animations and transitions to end (sliding drawers, fading dialogs,
 * toasts moving in), after two frames so that one a click has just started is counted; endless
 * ones (spinners) are not waited for.
 */
export async function animationsEnded(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
        .map((animation) => animation.finished.catch(() => undefined)),
    );
  });
}

/** A full-page screenshot into `directory` (e2e/screenshots/ unless given), once animations have ended. */
export async function screenshot(
  page: Page,
  name: string,
  { directory = screenshotDirectory, fullPage = true }: { directory?: string; fullPage?: boolean } = {},
): Promise<void> {
  mkdirSync(directory, { recursive: true });
  await animationsEnded(page);
  const viewport = page.viewportSize();
  // A full-page capture draws fixed elements (the side drawer, 100% of the viewport high) only as
  // high as the viewport, so the drawer looked cut off half-way down a long page: make the viewport
  // as high as the page for the capture, then give it back.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const grow = fullPage && viewport !== null && height > viewport.height;
  if (grow) {
    await page.setViewportSize({ width: viewport.width, height });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }
  try {
    await page.screenshot({ path: join(directory, `${name}.png`), fullPage });
  } finally {
    if (grow) await page.setViewportSize(viewport);
  }
}

/** Signs in through the login form and waits for the console. */
export async function signInWithForm(page: Page, origin: string, username: string, password: string): Promise<void> {
  // Once the page's own requests (the site's status) are answered: the form may re-render when they
  // are, and a re-render on a fresh browser has emptied fields typed before it.
  await page.goto(`${origin}/login`, { waitUntil: 'networkidle' });
  const fields = [
    [page.locator('input[name=username]'), username],
    [page.locator('input[name=password]'), password],
  ] as const;
  for (let attempt = 1; ; attempt++) {
    for (const [field, value] of fields) await field.fill(value);
    const kept = await Promise.all(fields.map(async ([field, value]) => (await field.inputValue()) === value));
    if (kept.every(Boolean)) break;
    if (attempt === 3) throw new Error('the login form lost what was typed three times');
  }
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/panel');
}

/**
 * The `aria-sort` of the column whose sort label has `testId`: wait for it after a click, before
 * the next one, or that click may act on the order the header had before (the URL changes first).
 */
export function sortDirection(page: Page, testId: string): Promise<string | null> {
  return page.getByTestId(testId).locator('xpath=ancestor::th').getAttribute('aria-sort');
}

/**
 * Opens a collapsed section by its summary and waits until it has finished growing: the dialog
 * around it re-centres meanwhile, so a click during the animation can land beside its target.
 */
export async function expandSection(page: Page, summaryTestId: string): Promise<void> {
  const summary = page.getByTestId(summaryTestId);
  await summary.click();
  await page.locator('.MuiAccordion-root', { has: summary }).locator('.MuiCollapse-entered').waitFor();
}

/** The trimmed text of the first element with `testId`. */
export const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

/** The exact quota behind a displayed amount (the Quota component's tooltip). */
export const exactQuota = async (page: Page, testId: string) =>
  Number(((await page.getByTestId(testId).first().getAttribute('title')) ?? '').replace(/\D/g, ''));

/** Waits for the dialog's fade-out, so screenshots and the next clicks see the page. */
export const closed = (page: Page, testId: string) => page.getByTestId(testId).waitFor({ state: 'hidden' });

/** What the page's clipboard holds. */
export const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** Picks a format from a screen's Export menu (`testId`, items `${testId}-<format>`) and reads the file the browser saved. */
export async function exportFrom(
  page: Page,
  testId: string,
  format: 'csv' | 'jsonl',
): Promise<{ name: string; content: string }> {
  await page.getByTestId(testId).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(`${testId}-${format}`).click(),
  ]);
  return { name: download.suggestedFilename(), content: await readFile(await download.path(), 'utf8') };
}
