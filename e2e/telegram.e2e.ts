/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeBotApi, startFakeBotApi } from '../apps/server/test/telegram/fake-bot-api.js';
import { adminApi, apiCall } from './support/api.js';
import { closed, launchBrowser, screenshot, signInWithForm, text } from './support/browser.js';
import { pageOpener, phone } from './support/pages.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-telegram';
const DAVE = { username: 'dave', password: 'dave-password-1', display_name: 'Dave' };
/** Dave's Telegram account: in a private chat the chat id is the user's id. */
const DAVE_TELEGRAM_ID = 5_550_001;

interface MenuRow {
  id: number;
  command: string;
  description: string;
  parse_mode: string;
  reply_message: string;
}

let fake: FakeBotApi;
let server: RunningServer;
let browser: Browser;
const pages = pageOpener(() => browser);

const call = <T>(method: string, path: string, body?: unknown, token = ROOT_TOKEN) =>
  apiCall<T>(server.origin, method, path, { token }, body);
const menus = async (keyword = '') =>
  (await call<{ data: MenuRow[] }>('GET', `/api/option/telegram/?size=100&keyword=${encodeURIComponent(keyword)}`))
    .data;
const menuNamed = async (command: string) => (await menus(command)).find((menu) => menu.command === command);
const siteBot = async () => (await call<{ telegram_bot: string }>('GET', '/api/status')).telegram_bot;
const rowIds = (page: Page) =>
  page
    .locator('[data-testid^=telegram-row-]')
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-testid')?.split('-').pop())));
const signIn = (page: Page, username: string, password: string) =>
  signInWithForm(page, server.origin, username, password);

beforeAll(async () => {
  fake = await startFakeBotApi();
  server = await startServer({
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
    TG_BOT_API_KEY: fake.token,
    TELEGRAM_API_ROOT: fake.apiRoot,
    CRITICAL_RATE_LIMIT: '1000',
  });
  await adminApi(server.origin, ROOT_TOKEN).createUser(DAVE);
  // The bot starts after the server answers: the console learns its name from /api/status.
  await vi.waitFor(async () => expect(await siteBot()).toBe(fake.botUsername), { timeout: 15_000, interval: 100 });
  browser = await launchBrowser();
});
afterAll(async () => {
  await pages.closeAll();
  await browser?.close();
  await server?.stop();
  await fake?.close();
});

describe('telegram screen', () => {
  let page: Page;
  beforeAll(async () => {
    page = await pages.open();
    await signIn(page, 'root', ROOT_PASSWORD);
  });

  it('shows the running bot, polling, with its @username', async () => {
    await page.goto(`${server.origin}/panel/telegram`);
    await page.getByTestId('telegram-empty').waitFor();
    await expect.poll(() => page.getByTestId('telegram-status-enabled').getAttribute('data-state')).toBe('enabled');
    expect(await page.getByTestId('telegram-status-mode').getAttribute('data-state')).toBe('polling');
    expect(await text(page, 'telegram-status-username')).toBe(`@${fake.botUsername}`);
    expect(await page.getByTestId('telegram-reload').isEnabled()).toBe(true);
    expect(await page.getByTestId('telegram-status-off').count()).toBe(0);
    await screenshot(page, 'telegram-empty-light-en');
  });

  it('creates a command, refusing a built-in name with its reason', async () => {
    await page.getByTestId('telegram-create').click();
    await page.getByTestId('telegram-form').waitFor();
    await page.getByTestId('telegram-form-command').fill('bind');
    await page.getByTestId('telegram-form-description').fill('Steal bind');
    await page.getByTestId('telegram-form-reply').fill('nope');
    await page.getByTestId('telegram-form-submit').click();
    expect(await page.getByTestId('telegram-form-command').getAttribute('aria-invalid')).toBe('true');
    expect(await text(page, 'telegram-form-command-helper')).toBe('/bind is a built-in command; choose another name');
    expect(await menuNamed('bind')).toBeUndefined();
    await screenshot(page, 'telegram-builtin-refused');

    await page.getByTestId('telegram-form-command').fill('/help_me');
    await page.getByTestId('telegram-form-description').fill('How to use the gateway');
    await page.getByTestId('telegram-form-parse-mode').click();
    await page.getByTestId('telegram-parse-mode-MarkdownV2').click();
    await page.getByTestId('telegram-form-reply').fill('Read the *docs* first\\.');
    await page.getByTestId('telegram-form-submit').click();
    await closed(page, 'telegram-dialog');

    const created = await menuNamed('help_me');
    expect(created).toMatchObject({
      description: 'How to use the gateway',
      parse_mode: 'MarkdownV2',
      reply_message: 'Read the *docs* first\\.',
    });
    if (!created) return;
    await expect.poll(() => rowIds(page)).toEqual([created.id]);
    expect(await text(page, `telegram-command-${created.id}`)).toBe('/help_me');
    expect(await text(page, `telegram-reply-${created.id}`)).toBe('Read the *docs* first\\.');
  });

  it('edits a command', async () => {
    const menu = await menuNamed('help_me');
    if (!menu) throw new Error('help_me expected');
    await page.getByTestId(`telegram-edit-${menu.id}`).click();
    await page.getByTestId('telegram-form').waitFor();
    expect(await page.getByTestId('telegram-form-command').inputValue()).toBe('help_me');
    await page.getByTestId('telegram-form-description').fill('Help with the gateway');
    await page.getByTestId('telegram-form-parse-mode').click();
    await page.getByTestId('telegram-parse-mode-HTML').click();
    await page.getByTestId('telegram-form-reply').fill('Read the <b>docs</b>.');
    await screenshot(page, 'telegram-edit-dialog');
    await page.getByTestId('telegram-form-submit').click();
    await closed(page, 'telegram-dialog');
    expect(await menuNamed('help_me')).toEqual({
      id: menu.id,
      command: 'help_me',
      description: 'Help with the gateway',
      parse_mode: 'HTML',
      reply_message: 'Read the <b>docs</b>.',
    });
    await expect.poll(() => text(page, `telegram-reply-${menu.id}`)).toBe('Read the <b>docs</b>.');
  });

  it('searches by command prefix', async () => {
    await call('POST', '/api/option/telegram/', {
      command: 'faq',
      description: 'Questions',
      parse_mode: '',
      reply_message: 'Ask away',
    });
    const [help, faq] = [await menuNamed('help_me'), await menuNamed('faq')];
    if (!help || !faq) throw new Error('two menus expected');
    await page.getByTestId('telegram-refresh').click();
    await expect.poll(() => rowIds(page).then((ids) => ids.sort())).toEqual([help.id, faq.id].sort());
    await page.getByTestId('telegram-search').fill('hel');
    await expect.poll(() => rowIds(page)).toEqual([help.id]);
    expect(page.url()).toContain('keyword=hel');
    await page.getByTestId('telegram-search').fill('fa');
    await expect.poll(() => rowIds(page)).toEqual([faq.id]);
    await page.getByTestId('telegram-search').fill('nothing_like_this');
    await page.getByTestId('telegram-empty').waitFor();
    await page.getByTestId('telegram-clear-search').click();
    await expect.poll(() => rowIds(page).then((ids) => ids.length)).toBe(2);
  });

  it('reloads the bot so Telegram lists the custom commands', async () => {
    await page.getByTestId('telegram-reload').click();
    await page.locator('.notistack-MuiContent-success').first().waitFor();
    await expect.poll(() => fake.commands().map((command) => command.command)).toContain('help_me');
    const commands = fake.commands().map((command) => command.command);
    expect(commands).toEqual(expect.arrayContaining(['bind', 'balance', 'faq']));
  });

  it('deletes a command after asking', async () => {
    const menu = await menuNamed('help_me');
    if (!menu) throw new Error('help_me expected');
    await page.getByTestId(`telegram-delete-${menu.id}`).click();
    await page.getByTestId('telegram-delete-dialog').waitFor();
    expect(await text(page, 'telegram-delete-dialog')).toContain('/help_me');
    await page.getByTestId('telegram-delete-confirm').click();
    await closed(page, 'telegram-delete-dialog');
    await expect.poll(() => rowIds(page)).not.toContain(menu.id);
    expect(await menuNamed('help_me')).toBeUndefined();
  });

  it('looks right in both themes, in Chinese, and at 400 px', async () => {
    await call('POST', '/api/option/telegram/', {
      command: 'pricing_info',
      description: '查看模型价格',
      parse_mode: 'Markdown',
      reply_message: '请访问 *价格* 页面查看所有模型的价格，或发送 /balance 查看余额。',
    });
    const shots = [
      { name: 'telegram-dark-en', dark: true, language: 'en_US' },
      { name: 'telegram-light-zh', dark: false, language: 'zh_CN' },
      { name: 'telegram-phone-dark-zh', dark: true, language: 'zh_CN', viewport: phone },
      { name: 'telegram-phone-light-en', dark: false, language: 'en_US', viewport: phone },
    ];
    for (const shot of shots) {
      const view = await pages.open(shot);
      await signIn(view, 'root', ROOT_PASSWORD);
      await view.goto(`${server.origin}/panel/telegram`);
      await expect.poll(() => rowIds(view).then((ids) => ids.length)).toBe(2);
      await view.getByTestId('telegram-status-mode').waitFor();
      await screenshot(view, shot.name);
      if (shot.viewport) {
        await view.getByTestId('telegram-create').click();
        await view.getByTestId('telegram-form').waitFor();
        await screenshot(view, `${shot.name}-dialog`);
      }
      // Each shot has its own browser context; closing it keeps the browser's memory flat.
      await view.context().close();
    }
  });
});

describe('profile telegram binding', () => {
  it('links the account through the bot with the access token the console generates', async () => {
    const page = await pages.open({ viewport: phone });
    await signIn(page, DAVE.username, DAVE.password);
    await page.goto(`${server.origin}/panel/profile`);
    const row = page.getByTestId('profile-binding-telegram');
    await row.waitFor();
    expect(await text(page, 'profile-binding-telegram-status')).toBe('Not linked');
    expect(await page.getByTestId('profile-bind-telegram').getAttribute('href')).toBe(
      `https://t.me/${fake.botUsername}`,
    );
    expect(await text(page, 'profile-binding-telegram-detail')).toContain('/bind');
    await screenshot(page, 'telegram-profile-unbound');

    await page.getByTestId('profile-token-generate').click();
    await page.getByTestId('profile-token-dialog-confirm').click();
    const accessToken = await page.getByTestId('profile-token-value').inputValue();
    expect(accessToken).not.toBe('');

    await fake.userSays('/bind', { id: DAVE_TELEGRAM_ID, username: 'dave_tg' });
    await fake.nextMessage(DAVE_TELEGRAM_ID);
    await fake.userSays(accessToken, { id: DAVE_TELEGRAM_ID, username: 'dave_tg' });
    await fake.nextMessage(DAVE_TELEGRAM_ID);
    await expect
      .poll(
        async () => (await call<{ telegram_id: number }>('GET', '/api/user/self', undefined, accessToken)).telegram_id,
      )
      .toBe(DAVE_TELEGRAM_ID);

    await page.reload();
    await expect.poll(() => text(page, 'profile-binding-telegram-status')).toBe('Linked');
    expect(await text(page, 'profile-binding-telegram-detail')).toContain('/unbind');
    await screenshot(page, 'telegram-profile-bound');

    const dark = await pages.open({ language: 'zh_CN', dark: true, viewport: phone });
    await signIn(dark, DAVE.username, DAVE.password);
    await dark.goto(`${server.origin}/panel/profile`);
    await expect.poll(() => text(dark, 'profile-binding-telegram-status')).toBe('已绑定');
    await screenshot(dark, 'telegram-profile-bound-dark-zh');
  });
});
