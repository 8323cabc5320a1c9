/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.js';
import { channelNamed, openChannels, phone, REFUSAL, root, site, useChannelSite } from './support/channels.js';

// The channel check dialog: the server's probes stream in model by model, and Stop ends a slow run.
useChannelSite();

const NAME = 'checked';
let channelId = 0;
const pages: Page[] = [];

async function openCheck(options: Parameters<typeof openChannels>[0] = {}): Promise<Page> {
  const page = await openChannels({ ...options, query: `?name=${NAME}` });
  pages.push(page);
  await page.getByTestId(`channel-more-${channelId}`).click();
  await page.getByTestId(`channel-check-${channelId}`).click();
  await page.getByTestId('channel-check-dialog').waitFor();
  return page;
}

const phase = (page: Page) => page.getByTestId('channel-check-progress').getAttribute('data-phase');
/** The statuses of one probe's verdicts for one model, in order. */
const statuses = (page: Page, model: string, step: string) =>
  page
    .getByTestId(`channel-check-model-${model}`)
    .locator(`[data-step="${step}"] [data-testid="channel-check-result"]`)
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-status'))));
const chatRequests = (model: string) =>
  site.upstream.received.filter((entry) => entry.path === '/v1/chat/completions' && entry.model === model).length;

beforeAll(async () => {
  await root('POST', '/api/channel/', {
    name: NAME,
    type: 1,
    key: 'sk-checked-upstream',
    base_url: site.upstream.url,
    models: 'mock-chat,mock-broken',
    group: 'default',
  });
  channelId = (await channelNamed(NAME)).id;
});

afterEach(async () => {
  site.upstream.delayMs = 0;
  for (const page of pages.splice(0)) await page.close();
});

describe('channel check', () => {
  it('checks both models and shows each probe’s verdicts and raw answer', async () => {
    const page = await openCheck();
    // Every model of the channel is chosen at first.
    expect(await page.getByTestId('channel-check-pick-mock-chat').isChecked()).toBe(true);
    expect(await page.getByTestId('channel-check-pick-mock-broken').isChecked()).toBe(true);
    const before = { chat: chatRequests('mock-chat'), broken: chatRequests('mock-broken') };

    await page.getByTestId('channel-check-start').click();
    await expect.poll(() => phase(page)).toBe('done');
    expect(await page.getByTestId('channel-check-progress').textContent()).toContain('2 of 2 models');

    // mock-chat answers "hi" with usage: the basic probe passes on all counts.
    expect(await statuses(page, 'mock-chat', 'basic')).toEqual([1, 1, 1]);
    // mock-chat accepts the invalid request too, which the error probe marks as failed.
    expect(await statuses(page, 'mock-chat', 'error_format')).toEqual([0]);
    // mock-broken refuses everything: each request failed with the upstream's own message.
    expect(await statuses(page, 'mock-broken', 'basic')).toEqual([0]);
    const broken = page.getByTestId('channel-check-model-mock-broken');
    expect(await broken.getAttribute('data-outcome')).toBe('failed');
    expect(await broken.locator('[data-step="basic"]').textContent()).toContain(REFUSAL);
    // The probes really went to the upstream, several per model.
    expect(chatRequests('mock-chat') - before.chat).toBeGreaterThanOrEqual(4);
    expect(chatRequests('mock-broken') - before.broken).toBeGreaterThanOrEqual(4);

    // The raw answer opens under its probe.
    const basic = page.getByTestId('channel-check-model-mock-chat').locator('[data-step="basic"]');
    await basic.getByTestId('channel-check-response-toggle').click();
    expect(await basic.getByTestId('channel-check-response').textContent()).toContain('chatcmpl-mock');
    await screenshot(page, 'channel-check-en-light');
  });

  it('checks only the chosen models', async () => {
    const page = await openCheck();
    await page.getByTestId('channel-check-pick-mock-broken').uncheck();
    const before = chatRequests('mock-broken');
    await page.getByTestId('channel-check-start').click();
    await expect.poll(() => phase(page)).toBe('done');
    expect(await page.getByTestId('channel-check-model-mock-chat').isVisible()).toBe(true);
    expect(await page.getByTestId('channel-check-model-mock-broken').count()).toBe(0);
    expect(chatRequests('mock-broken')).toBe(before);
    expect(await page.getByTestId('channel-check-progress').textContent()).toContain('1 of 1 models');
  });

  it('stops a slow check, and a new run then completes', async () => {
    site.upstream.delayMs = 20_000;
    const page = await openCheck();
    const before = chatRequests('mock-chat');
    await page.getByTestId('channel-check-start').click();
    // The probes are waiting on the slow upstream.
    await expect.poll(() => chatRequests('mock-chat')).toBeGreaterThan(before);
    expect(await phase(page)).toBe('running');

    // Stop aborts the streaming request itself (the server ends the probes when its client leaves).
    const aborted = page.waitForEvent('requestfailed', (request) => request.url().endsWith('/api/sse/channel/check'));
    await page.getByTestId('channel-check-stop').click();
    expect((await aborted).failure()?.errorText).toContain('ABORTED');
    await expect.poll(() => phase(page)).toBe('stopped');
    expect(await page.getByTestId('channel-check-progress').textContent()).toContain('0 of 2 models');
    expect(await page.getByTestId('channel-check-model-mock-chat').count()).toBe(0);

    site.upstream.delayMs = 0;
    await page.getByTestId('channel-check-start').click();
    await expect.poll(() => phase(page)).toBe('done');
    expect(await page.getByTestId('channel-check-model-mock-broken').isVisible()).toBe(true);
  });

  it('looks right in Chinese and dark mode, and on a 400 px phone', async () => {
    const chinese = await openCheck({ language: 'zh_CN', theme: 'dark' });
    expect(await chinese.getByTestId('channel-check-start').textContent()).toBe('开始');
    await chinese.getByTestId('channel-check-start').click();
    await expect.poll(() => phase(chinese)).toBe('done');
    expect(await chinese.getByTestId('channel-check-progress').textContent()).toContain('2 / 2');
    await screenshot(chinese, 'channel-check-zh-dark');

    const small = await openCheck({ viewport: { width: 400, height: phone.height } });
    await small.getByTestId('channel-check-start').click();
    await expect.poll(() => phase(small)).toBe('done');
    // Full screen on a phone: nothing of the dialog is wider than the screen.
    const overflow = await small
      .getByTestId('channel-check-dialog')
      .locator('.MuiDialog-paper')
      .evaluate((paper) => paper.scrollWidth - paper.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(small, 'channel-check-phone');
  });
});
