import { describe, expect, it } from 'vitest';
import { apiCall, sessionCookie } from './support/api.js';
import { screenshot, text } from './support/browser.js';
import { channelNamed, openChannels, root, site, useChannelSite } from './support/channels.js';

// Issue 34: each channel's health in the list (state, success rate, median latency, last error)
// and its last hour charted in the health dialog, after real relay traffic through the mock.
useChannelSite();

async function chat(key: string, model: string): Promise<number> {
  const response = await fetch(`${site.server.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] }),
  });
  await response.text();
  return response.status;
}

describe('channel health in the console', () => {
  it('shows a failing channel as failing with its last error, a working one healthy, and charts the hour', async () => {
    // One channel each: the mock refuses mock-flaky with a 500 and answers mock-steady.
    for (const name of ['flaky', 'steady']) {
      const model = `mock-${name}`;
      await root('POST', '/api/prices/single', { model, type: 'tokens', channel_type: 1, input: 1, output: 1 });
      const body = { name, type: 1, key: `sk-${name}`, base_url: site.upstream.url, models: model, group: 'default' };
      await root('POST', '/api/channel/', body);
    }
    const flaky = await channelNamed('flaky');
    const steady = await channelNamed('steady');
    // A user of its own, topped up with a code, sends the traffic.
    await root('POST', '/api/user/', { username: 'healthuser', password: 'health-password-1', display_name: 'Health' });
    const cookie = await sessionCookie(site.server.origin, 'healthuser', 'health-password-1');
    const [code] = await root<string[]>('POST', '/api/redemption/', { name: 'health', quota: 5_000_000, count: 1 });
    await apiCall(site.server.origin, 'POST', '/api/user/topup', { cookie }, { key: code });
    const token = await apiCall<{ key: string }>(
      site.server.origin,
      'POST',
      '/api/token/',
      { cookie },
      {
        name: 'health traffic',
        remain_quota: 0,
        unlimited_quota: true,
      },
    );
    const key = token.key.startsWith('sk-') ? token.key : `sk-${token.key}`;
    // Ten failures in the window (the default minimum of samples) open the channel.
    for (let index = 0; index < 10; index++) expect(await chat(key, 'mock-flaky')).toBe(502);
    for (let index = 0; index < 3; index++) expect(await chat(key, 'mock-steady')).toBe(200);

    const page = await openChannels();
    const flakyChip = page.getByTestId(`channel-health-${flaky.id}`);
    await expect.poll(() => flakyChip.getAttribute('data-state')).toBe('open');
    expect(await text(page, `channel-health-${flaky.id}`)).toBe('Failing');
    expect(await text(page, `channel-health-figures-${flaky.id}`)).toMatch(/^0% · —$/);
    await expect.poll(() => page.getByTestId(`channel-health-${steady.id}`).getAttribute('data-state')).toBe('healthy');
    expect(await text(page, `channel-health-figures-${steady.id}`)).toMatch(/^100% · \d+\.\d\d s$/);
    // A channel nobody called: healthy, with nothing counted.
    const spare = await channelNamed('spare');
    expect(await text(page, `channel-health-figures-${spare.id}`)).toBe('No traffic');
    await screenshot(page, 'channel-health-list');

    await flakyChip.click();
    await page.getByTestId('channel-health-dialog').waitFor();
    expect(await text(page, 'channel-health-last-error')).toContain('the mock is overloaded');
    expect(await text(page, 'channel-health-rate')).toBe('0% (10 requests)');
    // The chart's current minute holds the ten failures: its bars are drawn.
    await page.getByTestId('channel-health-chart').locator('.recharts-bar-rectangle').first().waitFor();
    expect(await text(page, 'channel-health-changes')).toContain('Failing');
    await screenshot(page, 'channel-health-dialog');
    await page.getByTestId('channel-health-close').click();
    await page.getByTestId('channel-health-dialog').waitFor({ state: 'detached' });
    await page.close();
  });
});
