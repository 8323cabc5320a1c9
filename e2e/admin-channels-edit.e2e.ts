/// <reference lib="dom" />
import { describe, expect, it } from 'vitest';
import { expandSection, exportFrom, screenshot } from './support/browser.js';
import {
  addModel,
  channelNamed,
  channelsNamed,
  fieldState,
  openChannels,
  phone,
  root,
  site,
  textOf,
  useChannelSite,
} from './support/channels.js';

// One channel from creation to its switch, and how the page looks on a phone and in Chinese.
useChannelSite();

describe('channel administration: one channel', () => {
  let mainId = 0;

  it('creates a channel through the dialog, refusing a bad wildcard and a bad mapping on their fields', async () => {
    const page = await openChannels();
    await page.getByTestId('channel-create').click();
    await page.getByTestId('channel-form').waitFor();
    // The type list comes from /api/providers; the first one (OpenAI) is chosen.
    expect(await page.getByTestId('channel-form-type').inputValue()).toBe('OpenAI');

    await page.getByTestId('channel-form-name').fill('mock-main');
    await page.getByTestId('channel-form-base-url').fill(site.upstream.url);
    await page.getByTestId('channel-form-key').fill('sk-main-upstream');
    await addModel(page, 'mock-chat');
    await addModel(page, '*bad');
    await expandSection(page, 'channel-form-advanced');
    await page.getByTestId('channel-form-model-mapping').fill('{"gpt-mock": 1');
    await page.getByTestId('channel-form-submit').click();

    await expect.poll(async () => (await fieldState(page, 'channel-form-models')).invalid).toBe(true);
    expect((await fieldState(page, 'channel-form-models')).helper).toContain('*bad');
    const mapping = await fieldState(page, 'channel-form-model-mapping');
    expect(mapping.invalid).toBe(true);
    expect(mapping.helper).toContain('JSON object');
    await screenshot(page, 'admin-channels-dialog-errors');
    expect(await channelsNamed('mock-main')).toEqual([]);

    // "Fetch from provider" asks the mock (with the typed key) for its model list.
    await page.getByTestId('channel-form-clear-models').click();
    await page.getByTestId('channel-form-fetch-models').click();
    await expect
      .poll(() =>
        site.upstream.received.some(
          (entry) => entry.path === '/v1/models' && entry.authorization.includes('sk-main-upstream'),
        ),
      )
      .toBe(true);
    await addModel(page, 'mock-broken');
    await addModel(page, 'mock-*');
    await page.getByTestId('channel-form-test-model').fill('mock-chat');
    await page.getByTestId('channel-form-model-mapping').fill('{"gpt-mock": "mock-chat"}');
    await page.getByTestId('channel-form-submit').click();
    await page.getByTestId('channel-form').waitFor({ state: 'detached' });

    const saved = await channelNamed('mock-main');
    mainId = saved.id;
    expect(saved.models.split(',')).toEqual(['mock-chat', 'mock-extra', 'mock-broken', 'mock-*']);
    expect(JSON.parse(saved.model_mapping)).toEqual({ 'gpt-mock': 'mock-chat' });
    await page.getByTestId(`channel-row-${mainId}`).waitFor();
    expect(await textOf(page.getByTestId(`channel-name-${mainId}`))).toBe('mock-main');
    expect(await page.getByTestId(`channel-status-${mainId}`).getAttribute('data-state')).toBe('enabled');
    await page.close();
  });

  it('names the models without a price, with the fallback price or the refusal the setting chooses', async () => {
    const page = await openChannels();
    const note = page.getByTestId('channel-unpriced-note');
    const openDialogWith = async (models: string[]) => {
      await page.getByTestId('channel-create').click();
      await page.getByTestId('channel-form').waitFor();
      for (const model of models) await addModel(page, model);
    };
    await openDialogWith(['mock-chat']);
    // Priced models only: no note.
    expect(await note.count()).toBe(0);
    await addModel(page, 'house-7b');
    await note.waitFor();
    expect(await note.getAttribute('data-policy')).toBe('fallback');
    const fallbackText = await textOf(note);
    expect(fallbackText).toContain('house-7b');
    expect(fallbackText).not.toContain('mock-chat');
    expect(fallbackText).toContain('$60 per 1M input tokens and $60 per 1M output tokens');
    // Out of the model list's popup, so the note is what the picture shows.
    await page.getByTestId('channel-form-name').click();
    await note.scrollIntoViewIfNeeded();
    await screenshot(page, 'admin-channels-unpriced-note');
    await page.getByTestId('channel-form-cancel').click();
    await page.getByTestId('channel-form').waitFor({ state: 'detached' });

    await root('PUT', '/api/option/', { key: 'UnpricedModelPolicy', value: 'refuse' });
    try {
      await page.reload();
      await page.getByTestId('channel-list').waitFor();
      await openDialogWith(['house-7b']);
      await expect.poll(() => note.getAttribute('data-policy')).toBe('refuse');
      expect(await textOf(note)).toContain('refused (HTTP 400)');
    } finally {
      await root('PUT', '/api/option/', { key: 'UnpricedModelPolicy', value: 'fallback' });
    }
    await page.close();
  });

  it('edits priority in place (refusing a negative one) and the name in the dialog', async () => {
    const page = await openChannels();
    const priority = page.getByTestId(`channel-priority-${mainId}`);
    await priority.fill('-1');
    expect(await priority.getAttribute('aria-invalid')).toBe('true');
    await priority.press('Enter');
    await priority.fill('7');
    expect(await priority.getAttribute('aria-invalid')).toBe('false');
    await priority.press('Enter');
    await expect.poll(async () => (await channelNamed('mock-main')).priority).toBe(7);

    await page.getByTestId(`channel-edit-${mainId}`).click();
    const name = page.getByTestId('channel-form-name');
    await expect.poll(() => name.inputValue()).toBe('mock-main');
    expect(await page.getByTestId('channel-form-priority').inputValue()).toBe('7');
    await name.fill('mock-main-edited');
    await page.getByTestId('channel-form-weight').fill('0');
    await page.getByTestId('channel-form-submit').click();
    await expect.poll(async () => (await fieldState(page, 'channel-form-weight')).invalid).toBe(true);
    await page.getByTestId('channel-form-weight').fill('3');
    await screenshot(page, 'admin-channels-edit-dialog');
    await page.getByTestId('channel-form-submit').click();
    await page.getByTestId('channel-form').waitFor({ state: 'detached' });
    await expect.poll(() => textOf(page.getByTestId(`channel-name-${mainId}`))).toBe('mock-main-edited');
    const saved = await channelNamed('mock-main-edited');
    expect(saved).toMatchObject({ weight: 3, priority: 7 });
    await page.close();
  });

  it('records an edit of priority and key in the audit log, the key only as changed', async () => {
    // A long name, so the audit table has a wide Target next to the Changes and Address columns.
    const [longNamed] = await root<Array<{ id: number }>>('POST', '/api/channel/', {
      name: 'openai-eu-west-production-primary-account-2026',
      type: 1,
      key: 'sk-audit-long-name-0003',
      base_url: site.upstream.url,
      models: 'mock-chat',
      group: 'default',
    });
    const [audited] = await root<Array<{ id: number }>>('POST', '/api/channel/', {
      name: 'audited',
      type: 1,
      key: 'sk-audit-before-0001',
      base_url: site.upstream.url,
      models: 'mock-chat',
      group: 'default',
    });
    const id = audited?.id ?? 0;
    const page = await openChannels();
    await page.getByTestId(`channel-edit-${id}`).click();
    await expect.poll(() => page.getByTestId('channel-form-name').inputValue()).toBe('audited');
    await page.getByTestId('channel-form-priority').fill('5');
    await page.getByTestId('channel-form-key').fill('sk-audit-after-0002');
    await page.getByTestId('channel-form-submit').click();
    await page.getByTestId('channel-form').waitFor({ state: 'detached' });
    await expect.poll(async () => (await channelNamed('audited')).priority).toBe(5);

    // The Audit log screen, reached from the menu, filtered to channels.
    await page.goto(`${site.server.origin}/panel/audit`);
    await page.getByTestId('audit-list').waitFor();
    await page.getByTestId('audit-filter-resource').click();
    await page.getByTestId('audit-option-channel').click();
    await page.getByTestId('audit-filter-submit').click();
    await expect.poll(() => page.url()).toContain('resource=channel');
    const [update] = await root<{ data: Array<{ id: number; action: string }> }>(
      'GET',
      `/api/audit/?resource=channel&target_id=${id}&action=update`,
    ).then((answer) => answer.data);
    const summary = page.getByTestId(`audit-changes-${update?.id}`);
    await expect.poll(() => textOf(summary)).toBe('priority: 0 → 5, key: changed');
    expect(await textOf(page.getByTestId(`audit-target-${update?.id}`))).toBe(`audited #${id}`);
    expect(await textOf(page.getByTestId(`audit-actor-${update?.id}`))).toMatch(/^root #\d+$/);
    // Every row on the screen is a channel's once the filtered page replaced the unfiltered one
    // (kept on screen while it loads); neither key appears anywhere, the dialog included.
    const resources = () => page.locator('[data-testid^=audit-resource-]').allTextContents();
    await expect.poll(async () => [...new Set(await resources())]).toEqual(['Channel']);
    // At 1400 px beside the side menu the table fits its container, the long name's row included:
    // the Address column stays in view instead of past the edge of a sideways scroll.
    const [longCreate] = await root<{ data: Array<{ id: number }> }>(
      'GET',
      `/api/audit/?resource=channel&target_id=${longNamed?.id}&action=create`,
    ).then((answer) => answer.data);
    await page.getByTestId(`audit-row-${longCreate?.id}`).waitFor();
    expect(page.viewportSize()?.width).toBe(1400);
    const overflow = await page
      .getByTestId('audit-list')
      .evaluate((table) => (table.parentElement?.scrollWidth ?? 0) - (table.parentElement?.clientWidth ?? 0));
    expect(overflow).toBe(0);
    await page.getByTestId(`audit-details-${update?.id}`).click();
    await page.getByTestId('audit-field-key').waitFor();
    expect(await textOf(page.getByTestId('audit-field-priority'))).toBe('priority05');
    const content = await page.content();
    for (const key of ['sk-audit-before-0001', 'sk-audit-after-0002']) {
      expect(content).not.toContain(key);
    }
    // The export holds what the filtered list shows: channel rows only, the key nowhere.
    await page.keyboard.press('Escape');
    const exported = await exportFrom(page, 'audit-export', 'jsonl');
    expect(exported.name).toMatch(/^audit-\d{8}-\d{6}\.jsonl$/);
    const lines = exported.content
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(new Set(lines.map((line) => line.resource))).toEqual(new Set(['channel']));
    expect(lines.map((line) => line.id)).toContain(update?.id);
    for (const key of ['sk-audit-before-0001', 'sk-audit-after-0002']) {
      expect(exported.content).not.toContain(key);
    }
    await page.close();
  });

  it('tests the channel against the mock: the time is shown, a failure says why', async () => {
    const page = await openChannels();
    const before = site.upstream.received.length;
    expect(await textOf(page.getByTestId(`channel-response-${mainId}`))).toBe('Not tested');
    await page.getByTestId(`channel-test-${mainId}`).click();
    await expect.poll(() => textOf(page.getByTestId(`channel-response-${mainId}`))).toMatch(/^\d+\.\d\d s$/);
    expect(await page.getByTestId(`channel-response-${mainId}`).getAttribute('data-tone')).not.toBe('error');
    const probe = site.upstream.received.slice(before).find((entry) => entry.path === '/v1/chat/completions');
    expect(probe).toMatchObject({ model: 'mock-chat', authorization: 'Bearer sk-main-upstream' });
    expect((await channelNamed('mock-main-edited')).test_time).toBeGreaterThan(0);

    await page.getByTestId(`channel-test-menu-${mainId}`).click();
    await page.getByTestId('channel-test-model-mock-broken').click();
    await expect.poll(() => page.getByTestId(`channel-response-${mainId}`).getAttribute('data-tone')).toBe('error');
    expect(await textOf(page.getByTestId(`channel-response-${mainId}`))).toMatch(/^Failed/);
    expect(site.upstream.received.some((entry) => entry.model === 'mock-broken')).toBe(true);

    // Balance: OpenAI's billing endpoints on the mock say 20 − 5 = 15 dollars.
    await page.getByTestId(`channel-more-${mainId}`).click();
    await page.getByTestId(`channel-balance-refresh-${mainId}`).click();
    await expect.poll(() => textOf(page.getByTestId(`channel-balance-${mainId}`))).toBe('$15.00');
    await page.close();
  });

  it('disables and enables a channel from its switch', async () => {
    const page = await openChannels();
    await page.getByTestId(`channel-toggle-${mainId}`).click();
    await expect.poll(() => page.getByTestId(`channel-status-${mainId}`).getAttribute('data-state')).toBe('disabled');
    expect((await channelNamed('mock-main-edited')).status).toBe(2);
    await page.getByTestId(`channel-toggle-${mainId}`).click();
    await expect.poll(() => page.getByTestId(`channel-status-${mainId}`).getAttribute('data-state')).toBe('enabled');
    expect((await channelNamed('mock-main-edited')).status).toBe(1);

    // Filters live in the URL: status "disabled" lists nothing now.
    await page.getByTestId('channel-filter-toggle').click();
    await page.getByTestId('channel-filter-status').click();
    await page.getByTestId('channel-filter-status-2').click();
    await page.getByTestId('channel-filter-submit').click();
    await page.getByTestId('channel-empty').waitFor();
    expect(page.url()).toContain('status=2');
    await page.getByTestId('channel-clear-filters').click();
    await page.getByTestId(`channel-row-${mainId}`).waitFor();
    await screenshot(page, 'admin-channels-list');
    await page.close();
  });

  it('fits a 390 px screen in dark mode, as cards', async () => {
    const page = await openChannels({ viewport: phone, theme: 'dark' });
    await page.getByTestId(`channel-row-${mainId}`).waitFor();
    expect(await page.locator('table').count()).toBe(0);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(phone.width);
    await screenshot(page, 'admin-channels-phone-dark');
    await page.close();
  });

  it('speaks Chinese, with the per-type settings of Azure in the dialog', async () => {
    const page = await openChannels({ language: 'zh_CN' });
    expect(await textOf(page.locator('[data-testid=channel-page] h1'))).toBe('渠道');
    await page.getByTestId('channel-create').click();
    await page.getByTestId('channel-form').waitFor();
    const type = page.getByTestId('channel-form-type');
    await type.fill('Azure OpenAI');
    await page.getByTestId('channel-form-type-3').click();
    // Azure's API version comes from /api/providers, labelled in Chinese, and is required.
    await page.getByTestId('channel-form-other').waitFor();
    await page.getByTestId('channel-form-submit').click();
    const other = await fieldState(page, 'channel-form-other');
    expect(other.invalid).toBe(true);
    expect(other.helper).toBe('此类型必须填写');
    expect((await fieldState(page, 'channel-form-base-url')).helper).toBe('此类型需要填写代理地址');
    await screenshot(page, 'admin-channels-dialog-zh_CN');
    await page.close();
  });
});
