import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Auth,
  apiSignIn,
  call,
  dollars,
  generateUsage,
  openPage,
  phone,
  root,
  self,
  settledScreenshot,
  signIn,
  USAGE,
  USERS,
  useAccountSite,
} from './support/account-site.js';
import { text } from './support/browser.js';

useAccountSite();

describe('dashboard', () => {
  let carol: Auth;

  beforeAll(async () => {
    carol = await apiSignIn(USERS.carol.username, USERS.carol.password);
    await generateUsage(carol);
  });

  it('charts the relayed usage of the last 8 days with figures that match it', async () => {
    const page = await openPage();
    const rateAnswer = page.waitForResponse((response) => response.url().endsWith('/api/user/dashboard/rate'));
    await signIn(page, USERS.carol.username, USERS.carol.password);
    await page.getByTestId('dashboard-trend').waitFor();
    const account = await self(carol);

    const requests = Object.values(USAGE).reduce((sum, usage) => sum + usage.calls, 0);
    const tokens = Object.values(USAGE).reduce(
      (sum, usage) => sum + usage.calls * (usage.prompt + usage.completion),
      0,
    );
    expect(await text(page, 'dashboard-period-requests')).toBe(String(requests));
    expect((await text(page, 'dashboard-period-tokens')).replace(/\D/g, '')).toBe(String(tokens));
    expect(await text(page, 'dashboard-period-quota')).toBe(dollars(account.used_quota));
    expect(await text(page, 'user-used-quota')).toBe(dollars(account.used_quota));
    expect(await text(page, 'user-quota')).toBe(dollars(account.quota));
    expect(await text(page, 'user-request-count')).toBe(String(requests));
    expect(await text(page, 'user-name')).toContain('Carol');
    // Eight days on the axis, today and the seven before, with zeros where nothing happened.
    expect(
      await page.locator('[data-testid=dashboard-trend-chart] .recharts-xAxis .recharts-cartesian-axis-tick').count(),
    ).toBe(8);

    await page.getByTestId('dashboard-models-metric-requests').click();
    for (const [model, usage] of Object.entries(USAGE)) {
      expect(await text(page, `dashboard-model-value-${model}`)).toBe(String(usage.calls));
    }

    const rate = (await (await rateAnswer).json()).data as { rpm: number; maxRPM: number };
    expect(rate.maxRPM).toBe(30);
    expect(await text(page, 'dashboard-rate-max')).toBe('30');
    expect(Number(await text(page, 'dashboard-rate-rpm'))).toBe(rate.rpm);
    await settledScreenshot(page, 'account-dashboard');

    await page.getByTestId('dashboard-trend-metric-tokens').click();
    await page.locator('[data-testid=dashboard-trend-chart] .recharts-area').nth(1).waitFor();
  });

  it('looks right in the dark theme, in Chinese and at 400 px', async () => {
    const dark = await openPage({ dark: true });
    await signIn(dark, USERS.carol.username, USERS.carol.password);
    await dark.getByTestId('dashboard-models').waitFor();
    await settledScreenshot(dark, 'account-dashboard-dark');

    const chinese = await openPage({ language: 'zh_CN' });
    await signIn(chinese, USERS.carol.username, USERS.carol.password);
    await chinese.getByTestId('dashboard-models').waitFor();
    expect(await text(chinese, 'dashboard-rate')).toContain('速率限制');
    // The chip names the group as the console does everywhere: the seeded default translated, not its symbol.
    await expect.poll(() => text(chinese, 'user-group')).toBe('分组：默认分组');
    await settledScreenshot(chinese, 'account-dashboard-zh_CN');

    const small = await openPage({ viewport: phone });
    await signIn(small, USERS.carol.username, USERS.carol.password);
    await small.getByTestId('dashboard-models').waitFor();
    const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await settledScreenshot(small, 'account-dashboard-phone');
  });

  it('shows a new user an empty state and an unlimited rate', async () => {
    const page = await openPage();
    await signIn(page, USERS.dave.username, USERS.dave.password);
    await page.getByTestId('dashboard-empty').waitFor();
    await page.getByTestId('dashboard-rate-unlimited').waitFor();
    expect(await text(page, 'user-request-count')).toBe('0');
    await settledScreenshot(page, 'account-dashboard-empty');
  });
});

describe('service status (Uptime Kuma)', () => {
  let kuma: Server;

  beforeAll(async () => {
    // An Uptime Kuma status page with one monitor up and one down.
    kuma = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      if (request.url === '/api/status-page/gateway') {
        response.end(
          JSON.stringify({
            publicGroupList: [
              {
                id: 1,
                name: 'Relay',
                monitorList: [
                  { id: 11, name: 'OpenAI channels' },
                  { id: 12, name: 'Claude channels' },
                ],
              },
            ],
          }),
        );
      } else if (request.url === '/api/status-page/heartbeat/gateway') {
        response.end(
          JSON.stringify({
            heartbeatList: { 11: [{ status: 1 }], 12: [{ status: 1 }, { status: 0 }] },
            uptimeList: { '11_24': 1, '12_24': 0.9512 },
          }),
        );
      } else {
        response.statusCode = 404;
        response.end('{}');
      }
    });
    await new Promise<void>((resolve) => kuma.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(kuma.address() as AddressInfo).port}`;
    for (const [key, value] of [
      ['UptimeDomain', origin],
      ['UptimePageName', 'gateway'],
      ['UptimeEnabled', 'true'],
    ]) {
      await call('PUT', '/api/option/', root, { key, value });
    }
  });
  afterAll(async () => {
    await call('PUT', '/api/option/', root, { key: 'UptimeEnabled', value: 'false' });
    await new Promise((resolve) => kuma.close(resolve));
  });

  it("shows each monitor's state and 24-hour uptime on the dashboard", async () => {
    const page = await openPage();
    await signIn(page, USERS.dave.username, USERS.dave.password);
    const monitors = page.getByTestId('service-monitor');
    await expect.poll(() => monitors.count()).toBe(2);
    expect(await monitors.nth(0).getAttribute('data-state')).toBe('up');
    expect(await monitors.nth(0).textContent()).toContain('100.00% over 24 h');
    expect(await monitors.nth(1).getAttribute('data-state')).toBe('down');
    expect(await monitors.nth(1).textContent()).toContain('Claude channels');
    expect(await monitors.nth(1).textContent()).toContain('95.12%');
    await settledScreenshot(page, 'account-dashboard-service-status');

    const dark = await openPage({ dark: true, language: 'zh_CN', viewport: phone });
    await signIn(dark, USERS.dave.username, USERS.dave.password);
    await dark.getByTestId('service-monitor').nth(1).waitFor();
    expect(await dark.getByTestId('service-status').textContent()).toContain('服务状态');
    await settledScreenshot(dark, 'account-dashboard-service-status-dark-zh_CN-phone');
  });
});
