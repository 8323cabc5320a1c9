/// <reference lib="dom" />
/**
 * Issue 5, "done when": an administrator sets One Hub up from an empty database to serving a user
 * entirely from the console. Every change below is made by clicking through the console; the
 * management API is only used to read back what the console did and to assert on it.
 */
import { formatQuota } from '@one-hub/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { animationsEnded, clipboard, closed, exactQuota, signInWithForm, text } from './support/browser.js';
import { allowedWords, englishWords, PRODUCT_TERMS } from './support/english-words.js';
import {
  type ChannelRow,
  type CodeRow,
  consumeLogs,
  findUser,
  type LogRow,
  languageCheckScreens,
  newContext,
  openFromMenu,
  options,
  paged,
  ROOT_PASSWORD,
  read,
  server,
  settle,
  shot,
  shownData,
  signInPastNotice,
  type UserRow,
  upstream,
  useJourneySite,
} from './support/journey.js';

const SYSTEM_NAME = 'Journey Hub';
const NOTICE_HEADLINE = 'Welcome to Journey Hub';
const NOTICE = `**${NOTICE_HEADLINE}.** Redeem your gift code on the Top-up page to start.`;
const CHANNEL_NAME = 'Mock upstream';
const UPSTREAM_KEY = 'sk-journey-upstream-key';
const MODEL = 'mock-chat';
/** Multipliers of the price: 500 → $1.00 per 1K input tokens, 1000 → $2.00 per 1K output tokens. */
const PRICE = { input: 500, output: 1000 };
const CAROL = { username: 'carol', password: 'carol-password-1', display_name: 'Carol Journey' };
const BALANCE_DOLLARS = 10;
const BALANCE_REMARK = 'Starter balance for the journey';
const CODE_NAME = 'Journey gift';
const CODE_DOLLARS = 5;
const TOKEN_NAME = 'carol-app';
/** The site shows currency by default: $1 is 500 000 quota. */
const QUOTA_PER_DOLLAR = 500_000;

/** What the mock streams, and the usage it reports for every answer. */
const ANSWER_PIECES = ['Hello', ' Carol,', ' this', ' is', ' the', ' mock', ' upstream.'];
const ANSWER_TEXT = ANSWER_PIECES.join('');
const USAGE = { prompt_tokens: 11, completion_tokens: 9, total_tokens: 20 };
/** 11 × 500 + 9 × 1000 at group ratio 1. */
const COST_PER_CALL = USAGE.prompt_tokens * PRICE.input + USAGE.completion_tokens * PRICE.output;

const money = (quota: number) => formatQuota(quota, { quotaPerUnit: QUOTA_PER_DOLLAR, displayInCurrency: true });

useJourneySite({ model: MODEL, pieces: ANSWER_PIECES, usage: USAGE });

// ---- the journey ----

describe('from an empty database to serving a user, entirely from the console', () => {
  let rootContext: BrowserContext;
  let userContext: BrowserContext;
  let admin: Page;
  let user: Page;
  let channelId = 0;
  let carolId = 0;
  let code = '';
  let userKey = '';

  beforeAll(async () => {
    rootContext = await newContext();
    userContext = await newContext();
    admin = await rootContext.newPage();
    user = await userContext.newPage();
  });
  afterAll(async () => {
    await rootContext?.close();
    await userContext?.close();
  });

  it('starts empty: root is the only user, with no channel, price, code or request', async () => {
    expect((await paged<UserRow>('/api/user/?size=100')).map((row) => row.username)).toEqual(['root']);
    expect(await read<{ total_count: number }>('/api/channel/?filter_tag=3')).toMatchObject({ total_count: 0 });
    expect((await read<Array<{ model: string }>>('/api/prices')).some((price) => price.model === MODEL)).toBe(false);
    expect(await read<{ total_count: number }>('/api/redemption/')).toMatchObject({ total_count: 0 });
    expect(await read<{ total_count: number }>('/api/log/?log_type=2')).toMatchObject({ total_count: 0 });
    expect(await read<string>('/api/notice')).toBe('');
  });

  it('1. root signs in with the initial password, names the system, posts a notice and checks registration', async () => {
    await signInWithForm(admin, server.origin, 'root', ROOT_PASSWORD);
    await admin.getByTestId('avatar-menu').waitFor();

    await openFromMenu(admin, 'setting');
    await admin.getByTestId('setting-panel-operation').waitFor();
    await admin.getByTestId('setting-tab-other').click();
    await admin.getByTestId('setting-panel-other').waitFor();
    await admin.getByTestId('setting-field-SystemName').fill(SYSTEM_NAME);
    await admin.getByTestId('setting-save-branding').click();
    await admin.getByTestId('setting-saved-branding').waitFor();
    expect(await admin.getByTestId('setting-saved-branding').getAttribute('data-keys')).toBe('SystemName');
    await expect.poll(() => admin.title()).toBe(SYSTEM_NAME);
    await expect.poll(async () => (await admin.locator('header').first().textContent()) ?? '').toContain(SYSTEM_NAME);

    await admin.getByTestId('setting-field-Notice').fill(NOTICE);
    await admin.getByTestId('setting-preview-Notice').click();
    await expect.poll(() => text(admin, 'setting-preview-box-Notice')).toContain(NOTICE_HEADLINE);
    await admin.getByTestId('setting-save-notice').click();
    await admin.getByTestId('setting-saved-notice').waitFor();
    // The new notice opens by itself, for root too; acknowledging it closes it.
    await admin.getByTestId('notice-dialog').waitFor();
    expect(await text(admin, 'notice-content')).toContain(NOTICE_HEADLINE);
    await admin.getByTestId('notice-close').click();
    await closed(admin, 'notice-dialog');
    await shot(admin, '01-settings-other');

    await admin.getByTestId('setting-tab-system').click();
    await admin.getByTestId('setting-panel-system').waitFor();
    let changed = false;
    for (const key of ['RegisterEnabled', 'PasswordRegisterEnabled']) {
      const toggle = admin.getByTestId(`setting-field-${key}`);
      if (!(await toggle.isChecked())) {
        await toggle.check();
        changed = true;
      }
    }
    if (changed) {
      await admin.getByTestId('setting-save-access').click();
      await admin.getByTestId('setting-saved-access').waitFor();
    }
    expect(await admin.getByTestId('setting-field-PasswordRegisterEnabled').isChecked()).toBe(true);

    const stored = await options();
    expect(stored.get('SystemName')).toBe(SYSTEM_NAME);
    expect(stored.get('Notice')).toBe(NOTICE);
    expect(stored.get('RegisterEnabled')).toBe('true');
    expect(stored.get('PasswordRegisterEnabled')).toBe('true');
    expect(await read<string>('/api/notice')).toBe(NOTICE);
  });

  it('2. creates a channel for the mock upstream and tests it', async () => {
    await openFromMenu(admin, 'channel');
    await admin.getByTestId('channel-empty').waitFor();
    await admin.getByTestId('channel-create').click();
    await admin.getByTestId('channel-form').waitFor();
    await expect.poll(() => admin.getByTestId('channel-form-type').inputValue()).toBe('OpenAI');
    await admin.getByTestId('channel-form-name').fill(CHANNEL_NAME);
    await admin.getByTestId('channel-form-base-url').fill(upstream.url);
    await admin.getByTestId('channel-form-key').fill(UPSTREAM_KEY);
    await admin.getByTestId('channel-form-models').fill(MODEL);
    await admin.getByTestId('channel-form-models').press('Enter');
    await admin.getByTestId('channel-form-test-model').fill(MODEL);
    await admin.getByTestId('channel-form-test-model').press('Tab');
    await shot(admin, '02-channel-dialog');
    await admin.getByTestId('channel-form-submit').click();
    await admin.getByTestId('channel-form').waitFor({ state: 'detached' });

    const [saved, ...others] = await paged<ChannelRow>('/api/channel/?filter_tag=3&size=100');
    expect(others).toEqual([]);
    expect(saved).toMatchObject({
      name: CHANNEL_NAME,
      type: 1,
      base_url: upstream.url,
      models: MODEL,
      group: 'default',
      test_model: MODEL,
      status: 1,
      test_time: 0,
    });
    channelId = saved?.id ?? 0;
    await admin.getByTestId(`channel-row-${channelId}`).waitFor();
    expect(await text(admin, `channel-name-${channelId}`)).toBe(CHANNEL_NAME);

    const before = upstream.received.length;
    await admin.getByTestId(`channel-test-${channelId}`).click();
    await expect.poll(() => text(admin, `channel-response-${channelId}`)).toMatch(/^\d+\.\d\d s$/);
    expect(await admin.getByTestId(`channel-response-${channelId}`).getAttribute('data-tone')).not.toBe('error');
    expect(upstream.received.slice(before)).toContainEqual({
      path: '/v1/chat/completions',
      model: MODEL,
      stream: false,
      authorization: `Bearer ${UPSTREAM_KEY}`,
    });
    const tested = await paged<ChannelRow>('/api/channel/?filter_tag=3&size=100');
    expect(tested[0]?.test_time).toBeGreaterThan(0);
    await admin.mouse.move(0, 0);
    await shot(admin, '02-channel-tested');
  });

  it('3. prices the model in Pricing', async () => {
    await openFromMenu(admin, 'pricing', 'operation');
    await admin.getByTestId('pricing-list').waitFor();
    await admin.getByTestId('pricing-create').click();
    await admin.getByTestId('pricing-form').waitFor();
    await admin.getByTestId('pricing-form-model').fill(MODEL);
    await admin.getByTestId('pricing-form-channel-type').fill('OpenAI');
    await admin.getByTestId('pricing-form-channel-type-option-1').click();
    await admin.getByTestId('pricing-form-input').fill(String(PRICE.input));
    await admin.getByTestId('pricing-form-output').fill(String(PRICE.output));
    await expect.poll(() => text(admin, 'pricing-form-input-hint')).toContain('$1.00 / 1K tokens');
    await admin.getByTestId('pricing-form-submit').click();
    await closed(admin, 'pricing-dialog');

    await admin.getByTestId('pricing-search').fill(MODEL);
    const row = admin.getByTestId(`pricing-row-${MODEL}`);
    await row.waitFor();
    expect(((await row.getByTestId('pricing-input-per-1k').textContent()) ?? '').trim()).toBe('$1.00 / 1K tokens');
    expect(((await row.getByTestId('pricing-output-per-1k').textContent()) ?? '').trim()).toBe('$2.00 / 1K tokens');
    expect(((await row.getByTestId('pricing-owner').textContent()) ?? '').trim()).toBe('OpenAI');
    const price = (await read<Array<Record<string, unknown>>>('/api/prices')).find((entry) => entry.model === MODEL);
    expect(price).toMatchObject({ type: 'tokens', channel_type: 1, input: PRICE.input, output: PRICE.output });
    await shot(admin, '03-pricing');
  });

  it('4. keeps the default group, creates the user, gives a balance with a remark and makes a gift code', async () => {
    // User groups: the built-in `default` group (ratio 1) is the one the channel serves.
    await openFromMenu(admin, 'user_group', 'operation');
    const groups = await paged<{ id: number; symbol: string; ratio: number; enable: boolean }>(
      '/api/user_group/?size=100',
    );
    const fallback = groups.find((group) => group.symbol === 'default');
    expect(fallback).toMatchObject({ ratio: 1, enable: true });
    await admin.getByTestId(`user-group-row-${fallback?.id}`).waitFor();
    expect(await text(admin, `user-group-ratio-${fallback?.id}`)).toBe('×1');

    // Users: create Carol in the default group.
    await openFromMenu(admin, 'user');
    await admin.locator('[data-testid^=user-row-]').first().waitFor();
    await admin.getByTestId('user-create').click();
    await admin.getByTestId('user-form').waitFor();
    await admin.getByTestId('user-form-username').fill(CAROL.username);
    await admin.getByTestId('user-form-password').fill(CAROL.password);
    await admin.getByTestId('user-form-display-name').fill(CAROL.display_name);
    await admin.getByTestId('user-form-submit').click();
    await closed(admin, 'user-dialog');
    const created = await findUser(CAROL.username);
    expect(created).toMatchObject({ display_name: CAROL.display_name, group: 'default' });
    carolId = created?.id ?? 0;
    const startQuota = created?.quota ?? 0;
    await admin.getByTestId(`user-row-${carolId}`).waitFor();

    // Give her a balance, with a remark.
    const added = BALANCE_DOLLARS * QUOTA_PER_DOLLAR;
    await admin.getByTestId(`user-quota-action-${carolId}`).click();
    await admin.getByTestId('user-quota-form').waitFor();
    await admin.getByTestId('user-quota-add').click();
    await admin.getByTestId('user-quota-amount').fill(String(BALANCE_DOLLARS));
    await admin.getByTestId('user-quota-remark').fill(BALANCE_REMARK);
    await expect
      .poll(() => admin.getByTestId('user-quota-after').getAttribute('data-quota'))
      .toBe(String(startQuota + added));
    await shot(admin, '04-user-balance');
    await admin.getByTestId('user-quota-submit').click();
    await closed(admin, 'user-quota-dialog');
    await expect.poll(() => exactQuota(admin, `user-quota-${carolId}`)).toBe(startQuota + added);
    expect((await findUser(CAROL.username))?.quota).toBe(startQuota + added);
    const manageLogs = await paged<LogRow>(`/api/log/?username=${CAROL.username}&size=100`);
    expect(manageLogs.some((log) => log.content.includes(BALANCE_REMARK) && log.quota === added)).toBe(true);

    // Redemption codes: one $5 gift code, copied from the dialog that shows it.
    await openFromMenu(admin, 'redemption', 'paySetting');
    await admin.getByTestId('redemption-empty').waitFor();
    await admin.getByTestId('redemption-create').click();
    await admin.getByTestId('redemption-form').waitFor();
    await admin.getByTestId('redemption-form-name').fill(CODE_NAME);
    await admin.getByTestId('redemption-form-quota').fill(String(CODE_DOLLARS));
    await admin.getByTestId('redemption-form-count').fill('1');
    await admin.getByTestId('redemption-form-submit').click();
    await admin.getByTestId('redemption-created-dialog').waitFor();
    const shown = admin.getByTestId('redemption-created-code');
    await expect.poll(() => shown.count()).toBe(1);
    code = ((await shown.textContent()) ?? '').trim();
    await admin.getByTestId('redemption-created-copy').click();
    await expect.poll(() => clipboard(admin)).toBe(code);
    await shot(admin, '04-redemption-code');
    await admin.getByTestId('redemption-created-close').click();
    await closed(admin, 'redemption-created-dialog');

    const codes = await paged<CodeRow>(`/api/redemption/?keyword=${encodeURIComponent(CODE_NAME)}&size=100`);
    expect(codes).toHaveLength(1);
    expect(codes[0]).toMatchObject({ key: code, name: CODE_NAME, quota: CODE_DOLLARS * QUOTA_PER_DOLLAR, status: 1 });
    await admin.getByTestId(`redemption-row-${codes[0]?.id}`).waitFor();
    expect(await admin.getByTestId(`redemption-status-${codes[0]?.id}`).getAttribute('data-state')).toBe('unredeemed');
  });

  it('5. root signs out; the user signs in, reads the notice, redeems the code, makes a key and chats', async () => {
    await admin.getByTestId('avatar-menu').click();
    await admin.getByTestId('sign-out').click();
    await admin.waitForURL((url) => !url.pathname.startsWith('/panel'));
    await admin.goto(`${server.origin}/panel/channel`);
    await admin.waitForURL('**/login');

    // Carol, on her own device: the notice greets her as soon as she opens the site.
    await user.goto(`${server.origin}/login`);
    await user.getByTestId('notice-dialog').waitFor();
    expect(await text(user, 'notice-content')).toContain(NOTICE_HEADLINE);
    await expect.poll(() => user.title()).toBe(SYSTEM_NAME);
    await shot(user, '05-user-notice');
    await user.getByTestId('notice-close').click();
    await closed(user, 'notice-dialog');
    await signInWithForm(user, server.origin, CAROL.username, CAROL.password);
    await user.getByTestId('avatar-menu').waitFor();
    // Read once, it stays available from the top bar.
    await user.getByTestId('notice-button').click();
    await user.getByTestId('notice-dialog').waitFor();
    expect(await text(user, 'notice-content')).toContain(NOTICE_HEADLINE);
    await user.getByTestId('notice-close').click();
    await closed(user, 'notice-dialog');
    // Not an administrator: no admin screens in her menu.
    expect(await user.getByTestId('menu-channel').count()).toBe(0);

    // Top-up: the balance root gave, then the redeemed code on top.
    const before = BALANCE_DOLLARS * QUOTA_PER_DOLLAR;
    const after = before + CODE_DOLLARS * QUOTA_PER_DOLLAR;
    await openFromMenu(user, 'topup');
    await expect.poll(() => text(user, 'topup-balance')).toBe(money(before));
    await user.getByTestId('topup-code').fill(code);
    await user.getByTestId('topup-redeem').click();
    await expect.poll(() => text(user, 'topup-balance')).toBe(money(after));
    expect((await findUser(CAROL.username))?.quota).toBe(after);
    const [redeemed] = await paged<CodeRow>(`/api/redemption/?keyword=${encodeURIComponent(CODE_NAME)}&size=100`);
    expect(redeemed).toMatchObject({ status: 3, redeemed_username: CAROL.username });
    await shot(user, '05-user-topup');

    // Tokens: an API key for her own app.
    await openFromMenu(user, 'token');
    await user.getByTestId('token-create').click();
    await user.getByTestId('token-form').waitFor();
    await user.getByTestId('token-form-name').fill(TOKEN_NAME);
    await user.getByTestId('token-form-submit').click();
    await user.getByTestId('token-created-key').waitFor();
    userKey = await text(user, 'token-created-key');
    expect(userKey).toMatch(/^sk-/);
    await user.getByTestId('token-created-copy').click();
    await expect.poll(() => clipboard(user)).toBe(userKey);
    await shot(user, '05-user-token');
    await user.getByTestId('token-created-close').click();
    await user.locator('[data-testid^=token-name-]', { hasText: TOKEN_NAME }).first().waitFor();

    // Her app uses the key against the gateway (the relay, not the management API).
    const relayed = await fetch(`${server.origin}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello from my app' }] }),
    });
    expect(relayed.status).toBe(200);
    const answer = (await relayed.json()) as { choices: Array<{ message: { content: string } }> };
    expect(answer.choices[0]?.message.content).toBe(ANSWER_TEXT);

    // Playground: the answer streams in, piece by piece.
    await openFromMenu(user, 'playground');
    await user.getByTestId('playground').waitFor();
    const toggle = user.getByTestId('playground-settings-toggle');
    if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const modelInput = user.getByTestId('playground-model');
    await expect.poll(() => modelInput.inputValue()).not.toBe('');
    await modelInput.click();
    await modelInput.fill(MODEL);
    await user.getByTestId(`playground-model-option-${MODEL}`).click();
    await expect.poll(() => modelInput.inputValue()).toBe(MODEL);
    const streamedBefore = upstream.received.filter((entry) => entry.stream).length;
    await user.getByTestId('playground-input').fill('Say hello to Carol');
    await user.getByTestId('playground-input').press('Enter');
    const last = user.getByTestId('playground-message-assistant').last();
    // Text is on screen while the stream is still open.
    await user
      .locator('[data-testid=playground-message-assistant][data-state=streaming] [data-testid=playground-answer]')
      .waitFor();
    expect(ANSWER_TEXT.startsWith(await text(user, 'playground-answer'))).toBe(true);
    await expect.poll(() => last.getAttribute('data-state'), { timeout: 15_000 }).toBe('done');
    expect(await last.getByTestId('playground-answer').textContent()).toBe(ANSWER_TEXT);
    expect(await text(user, 'playground-usage')).toBe('Tokens: 11 in · 9 out · 20 total');
    expect(upstream.received.filter((entry) => entry.stream).length).toBe(streamedBefore + 1);
    await shot(user, '05-user-playground');
  });

  it('6. root signs back in and finds the user’s requests in Logs and in Analytics', async () => {
    // Consume logs are written in batches: wait for both calls (her app's and the playground's).
    const logs = await settle(
      () => consumeLogs(CAROL.username),
      (rows) => rows.length === 2,
    );
    for (const log of logs) expect(log).toMatchObject({ model_name: MODEL, quota: COST_PER_CALL, prompt_tokens: 11 });
    expect(new Set(logs.map((log) => log.token_name)).has(TOKEN_NAME)).toBe(true);
    const spent = 2 * COST_PER_CALL;
    await settle(
      () => findUser(CAROL.username),
      (row) => row?.used_quota === spent,
    );

    await signInWithForm(admin, server.origin, 'root', ROOT_PASSWORD);
    await openFromMenu(admin, 'log');
    await admin.getByTestId('log-filter-username').fill(CAROL.username);
    await admin.getByTestId('log-filter-submit').click();
    await admin.waitForURL(/username=carol/);
    for (const log of logs) {
      await admin.getByTestId(`log-row-${log.id}`).waitFor();
      expect(await text(admin, `log-user-${log.id}`)).toBe(CAROL.username);
      expect(await text(admin, `log-model-${log.id}`)).toBe(MODEL);
      expect(await text(admin, `log-token-${log.id}`)).toBe(log.token_name);
      expect(await exactQuota(admin, `log-quota-${log.id}`)).toBe(COST_PER_CALL);
    }
    const appLog = logs.find((log) => log.token_name === TOKEN_NAME);
    expect(await text(admin, `log-input-${appLog?.id}`)).toBe('11');
    expect(await text(admin, `log-output-${appLog?.id}`)).toBe('9');
    await expect.poll(() => exactQuota(admin, 'log-stat-quota')).toBe(spent);
    await shot(admin, '06-logs');

    // Analytics reads a roll-up that also settles in the background.
    const now = Math.floor(Date.now() / 1000);
    await settle(
      () =>
        read<{ total_request_count: number }>(
          `/api/analytics/top_users?start_timestamp=${now - 86_400}&end_timestamp=${now + 86_400}`,
        ),
      (top) => top.total_request_count === 2,
    );
    await openFromMenu(admin, 'analytics');
    await admin.getByTestId('analytics-card-users').waitFor();
    expect(await text(admin, 'analytics-card-users')).toBe('2');
    expect(await text(admin, 'analytics-card-channels')).toBe('1');
    await admin.getByTestId('analytics-trend-chart').waitFor();
    await expect.poll(() => text(admin, 'analytics-period-requests')).toBe('2');
    await admin.getByTestId('analytics-breakdown-metric-requests').click();
    await expect.poll(() => text(admin, `analytics-breakdown-value-${MODEL}`)).toBe('2');
    await admin.getByTestId('analytics-breakdown-group-channel').click();
    await expect.poll(() => text(admin, `analytics-breakdown-value-${CHANNEL_NAME}`)).toBe('2');
    await admin.getByTestId('analytics-breakdown-group-model').click();
    await admin.getByTestId(`analytics-breakdown-item-${MODEL}`).waitFor();
    await shot(admin, '06-analytics');

    await admin.getByTestId('analytics-tab-users').click();
    const carol = admin.getByTestId(`analytics-top-user-${CAROL.username}`);
    await carol.waitFor();
    expect(((await carol.getByTestId('analytics-top-user-requests').textContent()) ?? '').trim()).toBe('2');
    expect(((await carol.getByTestId('analytics-top-user-quota').textContent()) ?? '').trim()).toBe(money(spent));
    await shot(admin, '06-analytics-users');
  });
});

// ---- the admin screens in Chinese and Japanese ----

describe('the admin screens speak Chinese and Japanese', () => {
  let context: BrowserContext;
  let page: Page;
  /** Everything the screens show as data: names typed in by the journey, models, owners, keys. */
  let data: string[] = [];
  let allowed: ReadonlySet<string> = new Set();
  const found: Record<string, string[]> = {};

  beforeAll(async () => {
    context = await newContext();
    page = await context.newPage();
    await signInPastNotice(page, ROOT_PASSWORD);
    const typedIn = [SYSTEM_NAME, NOTICE, CHANNEL_NAME, BALANCE_REMARK, CODE_NAME, TOKEN_NAME];
    data = [...PRODUCT_TERMS, ...typedIn, ...(await shownData())];
    allowed = allowedWords();
  });
  afterAll(async () => {
    await context?.close();
  });

  const screens = languageCheckScreens(MODEL, CAROL.username);

  it('finds the English of the English console (so the check below can fail)', async () => {
    await page.goto(`${server.origin}/panel/user`);
    await page.locator('[data-testid^=user-row-]').first().waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is wanted, not hidden nodes' text.
    const words = englishWords(await page.locator('main').innerText(), data, allowed);
    expect(words.length).toBeGreaterThan(5);
    // The data on the screen is not taken for interface text.
    expect(words.join(' ')).not.toContain(CAROL.display_name);
  });

  for (const language of ['zh_CN', 'ja_JP'] as const) {
    it(`shows no English words on the admin screens in ${language}`, async () => {
      await page.evaluate((code) => window.localStorage.setItem('appLanguage', code), language);
      for (const screen of screens) {
        await page.goto(`${server.origin}${screen.path}`);
        await screen.ready(page);
        // Whatever the screen loads after its first rows (counts, options) is in, and drawn.
        await page.waitForLoadState('networkidle');
        await animationsEnded(page);
        expect(await page.evaluate(() => document.documentElement.lang)).toMatch(/^(zh|ja)/);
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is wanted, not hidden nodes' text.
        const visible = await page.locator('main').innerText();
        found[`${language} ${screen.id}`] = englishWords(visible, data, allowed);
        if (language === 'zh_CN') await shot(page, `zh_CN-${screen.id}`);
      }
      const offending = Object.entries(found).filter(([key, words]) => key.startsWith(language) && words.length > 0);
      expect(Object.fromEntries(offending)).toEqual({});
    });
  }
});
