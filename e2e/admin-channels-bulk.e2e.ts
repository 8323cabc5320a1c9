/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.js';
import {
  addModel,
  channelNamed,
  channelsNamed,
  fieldState,
  openChannels,
  root,
  site,
  tagChannels,
  textOf,
  useChannelSite,
} from './support/channels.js';

// Tags, batch actions, test-all, copy and delete, on the seeded pool tag and spare channel.
useChannelSite();

describe('channel administration: many channels', () => {
  it('folds channels by tag, expands a tag and edits its channels together', async () => {
    const page = await openChannels();
    const pool = await tagChannels('pool');
    expect(pool).toHaveLength(2);
    await page.getByTestId('channel-view-tags').click();
    await page.getByTestId('channel-tag-row-pool').waitFor();
    expect(page.url()).toContain('filter_tag=0');
    for (const channel of pool) expect(await page.getByTestId(`channel-row-${channel.id}`).count()).toBe(0);

    await page.getByTestId('channel-tag-expand-pool').click();
    for (const channel of pool) await page.getByTestId(`channel-row-${channel.id}`).waitFor();
    expect(await textOf(page.getByTestId('channel-tag-enabled-pool'))).toBe('2 / 2 enabled');
    await screenshot(page, 'admin-channels-tag-view');

    // Edit the tag: its two keys are listed; a third line adds a channel, the models change for all.
    await page.getByTestId('channel-tag-edit-pool').click();
    const key = page.getByTestId('channel-form-key');
    await expect.poll(() => key.inputValue()).toBe('sk-pool-1\nsk-pool-2');
    await key.fill('sk-pool-1\nsk-pool-2\nsk-pool-3');
    await addModel(page, 'pool-extra');
    await page.getByTestId('channel-form-submit').click();
    await page.getByTestId('channel-form').waitFor({ state: 'detached' });
    await expect.poll(async () => (await tagChannels('pool')).length).toBe(3);
    for (const channel of await tagChannels('pool')) expect(channel.models).toContain('pool-extra');
    await expect.poll(() => textOf(page.getByTestId('channel-tag-enabled-pool'))).toBe('3 / 3 enabled');

    // Disable all, then set the priority of the whole tag in place.
    await page.getByTestId('channel-tag-more-pool').click();
    await page.getByTestId('channel-tag-disable-pool').click();
    await expect.poll(() => textOf(page.getByTestId('channel-tag-enabled-pool'))).toBe('0 / 3 enabled');
    await page.getByTestId('channel-tag-more-pool').click();
    await page.getByTestId('channel-tag-enable-pool').click();
    await expect.poll(() => textOf(page.getByTestId('channel-tag-enabled-pool'))).toBe('3 / 3 enabled');
    const tagPriority = page.getByTestId('channel-tag-priority-pool');
    await tagPriority.fill('4');
    await tagPriority.press('Enter');
    await expect.poll(async () => (await tagChannels('pool')).map((channel) => channel.priority)).toEqual([4, 4, 4]);
    await page.close();
  });

  it('applies batch actions to the selected rows and tests every channel with visible progress', async () => {
    const page = await openChannels();
    const pool = await tagChannels('pool');
    const [first, second] = pool;
    if (!first || !second) throw new Error('the pool tag lost its channels');
    await page.getByTestId(`channel-select-${first.id}`).check();
    await page.getByTestId(`channel-select-${second.id}`).check();
    await page.getByTestId('channel-batch-bar').waitFor();
    expect(await textOf(page.getByTestId('channel-batch-count'))).toBe('2 selected');
    await screenshot(page, 'admin-channels-batch-bar');

    await page.getByTestId('channel-batch-del-model').click();
    await page.getByTestId('channel-batch-value').fill('pool-only');
    await page.getByTestId('channel-batch-submit').click();
    await page.getByTestId('channel-batch-dialog').waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await tagChannels('pool')).filter((channel) => channel.models.includes('pool-only')).length)
      .toBe(1);

    await page.getByTestId('channel-batch-azure').click();
    await page.getByTestId('channel-batch-value').fill('2024-10-21');
    await page.getByTestId('channel-batch-submit').click();
    await page.getByTestId('channel-batch-dialog').waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await tagChannels('pool')).filter((channel) => channel.other === '2024-10-21').length)
      .toBe(2);

    // Test all: the mock answers slowly so the progress banner can be seen while the run goes.
    site.upstream.delayMs = 1200;
    const before = site.upstream.received.length;
    await page.getByTestId('channel-bulk-menu').click();
    await page.getByTestId('channel-test-all').click();
    const progress = page.getByTestId('channel-test-all-progress');
    // Every channel of this file: the pool tag's three (after the tag edit) and the spare one.
    const everyChannel = 4;
    await progress.waitFor();
    expect(Number(await progress.getAttribute('data-total'))).toBe(everyChannel);
    await screenshot(page, 'admin-channels-test-all');
    await progress.waitFor({ state: 'detached', timeout: 30_000 });
    site.upstream.delayMs = 0;
    expect(site.upstream.received.slice(before).filter((entry) => entry.path === '/v1/chat/completions').length).toBe(
      everyChannel,
    );
    const status = await root<{ running: boolean; done: number; total: number }>('GET', '/api/channel/test/status');
    expect(status).toMatchObject({ running: false, done: everyChannel, total: everyChannel });

    // Delete the two selected channels, after confirming.
    await page.getByTestId('channel-batch-delete').click();
    await page.getByTestId('channel-confirm-confirm').click();
    await page.getByTestId('channel-batch-bar').waitFor({ state: 'detached' });
    await expect.poll(async () => (await tagChannels('pool')).length).toBe(1);
    expect(await page.getByTestId(`channel-row-${first.id}`).count()).toBe(0);
    await page.close();
  });

  it('copies a channel into the create dialog without its key, and deletes one after confirmation', async () => {
    const page = await openChannels();
    const spare = await channelNamed('spare');
    await page.getByTestId(`channel-more-${spare.id}`).click();
    await page.getByTestId(`channel-copy-${spare.id}`).click();
    await expect.poll(() => page.getByTestId('channel-form-name').inputValue()).toBe('spare_copy');
    expect(await page.getByTestId('channel-form-key').inputValue()).toBe('');
    expect(await page.getByTestId('channel-form-base-url').inputValue()).toBe(site.upstream.url);
    await page.getByTestId('channel-form-submit').click();
    expect((await fieldState(page, 'channel-form-key')).invalid).toBe(true);
    await page.getByTestId('channel-form-cancel').click();

    await page.getByTestId(`channel-more-${spare.id}`).click();
    await page.getByTestId(`channel-delete-${spare.id}`).click();
    await page.getByTestId('channel-confirm').waitFor();
    await page.getByTestId('channel-confirm-confirm').click();
    await page.getByTestId(`channel-row-${spare.id}`).waitFor({ state: 'detached' });
    expect(await channelsNamed('spare')).toEqual([]);
    await page.close();
  });
});
