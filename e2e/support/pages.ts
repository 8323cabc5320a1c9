/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const desktop = { width: 1280, height: 860 };
export const phone = { width: 400, height: 860 };
/** A common phone's screen (390×844 CSS pixels), the narrowest the budget and plan screens are looked at. */
export const narrowPhone = { width: 390, height: 844 };

export interface PageOptions {
  /** The console's language on first load (`appLanguage`); English unless given. */
  language?: string;
  dark?: boolean;
  viewport?: { width: number; height: number };
}

export interface PageOpener {
  /** A page in a fresh browser context (its own cookies and storage), so each opens signed out. */
  open(options?: PageOptions): Promise<Page>;
  /** Closes every context `open` made. */
  closeAll(): Promise<void>;
}

/** Opens console pages in `browser()` (read at each call: the browser starts in a `beforeAll`). */
export function pageOpener(browser: () => Browser): PageOpener {
  const contexts: BrowserContext[] = [];
  return {
    async open(options = {}) {
      const context = await browser().newContext({
        viewport: options.viewport ?? desktop,
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      contexts.push(context);
      const page = await context.newPage();
      await page.addInitScript(
        ({ language, dark }) => {
          if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', language);
          if (dark) window.localStorage.setItem('theme', 'dark');
        },
        { language: options.language ?? 'en_US', dark: options.dark ?? false },
      );
      return page;
    },
    async closeAll() {
      for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
    },
  };
}
