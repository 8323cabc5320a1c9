/// <reference lib="dom" />
/**
 * The README's pictures of the console, taken from the real console in Chromium: a site with a few
 * channels in front of a mock upstream, keys and some traffic, shown on the dashboard and the
 * channel list, in English, light and dark. `npm run screenshots` writes them to docs/images/ (run
 * it when these screens change); as part of the browser tests they go to e2e/screenshots/ like the
 * others, so the script cannot silently stop working.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, settle } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm, text } from './support/browser.js';
import { type MockUpstream, startMockUpstream } from './support/mock-openai.js';
import { type RunningServer, startServer } from './support/server.js';

const README_IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));
const directory = process.env.README_SCREENSHOTS === '1' ? README_IMAGES : undefined;

const ROOT_PASSWORD = 'readme-root-password';
const ROOT_TOKEN = 'readme-root-access-token-0123456789';
/** Channels of several providers, all answered by the mock: type, name and models, as an operator sets them up. */
const CHANNELS = [
  { type: 1, name: 'OpenAI', models: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1'] },
  { type: 28, name: 'DeepSeek', models: ['deepseek-chat', 'deepseek-reasoner'] },
  { type: 56, name: 'xAI', models: ['grok-3', 'grok-3-mini'] },
  { type: 30, name: 'Mistral', models: ['mistral-large-latest'] },
  { type: 20, name: 'OpenRouter backup', models: ['gpt-4o', 'gpt-4o-mini'] },
] as const;
const KEYS = ['web-app', 'support-bot', 'nightly-batch'];
const MODELS = [...new Set(CHANNELS.flatMap((channel) => channel.models))];
const REQUESTS = 36;

describe('the README screenshots', () => {
  let upstream: MockUpstream;
  let server: RunningServer;
  let browser: Browser;
  const admin = <T>(method: string, path: string, body?: unknown) =>
    apiCall<T>(server.origin, method, path, { token: ROOT_TOKEN }, body);

  beforeAll(async () => {
    upstream = await startMockUpstream({
      model: MODELS,
      pieces: ['Hello! How can I help you today?'],
      usage: { prompt_tokens: 1200, completion_tokens: 350, total_tokens: 1550 },
    });
    server = await startServer({
      INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
      INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
      INITIAL_ROOT_QUOTA: undefined,
    });
    browser = await launchBrowser();

    for (const channel of CHANNELS) {
      await admin('POST', '/api/channel/', {
        ...channel,
        key: `sk-${channel.name.toLowerCase().replaceAll(' ', '-')}-upstream`,
        base_url: upstream.url,
        models: channel.models.join(','),
        test_model: channel.models[0],
        group: 'default',
      });
    }
    const channels = await admin<{ data: Array<{ id: number }> }>('GET', '/api/channel/?size=100');
    for (const { id } of channels.data) await admin('GET', `/api/channel/test/${id}`);

    const keys: string[] = [];
    for (const name of KEYS) {
      await admin('POST', '/api/token/', { name, remain_quota: 0, unlimited_quota: true });
    }
    const tokens = await admin<{ data: Array<{ key: string }> }>('GET', '/api/token/?size=100');
    for (const token of tokens.data) keys.push(`sk-${token.key}`);
    // Traffic spread unevenly over models and keys, as real traffic is.
    for (let request = 0; request < REQUESTS; request++) {
      const model = MODELS[(request * request) % MODELS.length];
      const key = keys[request % keys.length];
      const answer = await fetch(`${server.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] }),
      });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
    // The dashboard reads a roll-up written in batches: wait until it holds every request.
    await settle(
      async () => {
        const rows = await admin<Array<{ RequestCount: number }> | null>('GET', '/api/user/dashboard');
        return (rows ?? []).reduce((sum, row) => sum + row.RequestCount, 0);
      },
      (requests) => requests === REQUESTS,
    );
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await upstream?.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`shows the dashboard and the channels, ${theme}`, async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
      await context.addInitScript((mode) => window.localStorage.setItem('theme', mode), theme);
      const page: Page = await context.newPage();
      await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);
      // Opened again, as a returning operator sees it: without the "signed in" notice on top.
      await page.goto(`${server.origin}/panel/dashboard`);

      // The dashboard once its numbers and charts have loaded.
      await expect.poll(() => text(page, 'dashboard-period-requests')).toBe(String(REQUESTS));
      await page.mouse.move(0, 0);
      await screenshot(page, `console-dashboard-${theme}`, { directory, fullPage: false });

      await page.getByTestId('menu-channel').click();
      for (const channel of CHANNELS) {
        await page.locator('[data-testid^=channel-name-]', { hasText: channel.name }).first().waitFor();
      }
      await page.mouse.move(0, 0);
      await screenshot(page, `console-channels-${theme}`, { directory, fullPage: false });
      await context.close();
    });
  }
});
