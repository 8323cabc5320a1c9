/// <reference lib="dom" />
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, apiCall } from './support/api.js';
import { launchBrowser, screenshot, signInWithForm, text } from './support/browser.js';
import { type RunningServer, startServer } from './support/server.js';

const ROOT_PASSWORD = 'e2e-root-password';
const ROOT_TOKEN = 'e2e-root-access-token-log-errors';
/** A secret the broken upstream quotes in its error: it must never reach the Logs screen. */
const QUOTED_SECRET = 'sk-quotedsecret0123456789';

let server: RunningServer;
let broken: Server;
let good: Server;
let browser: Browser;
let brokenId = 0;
let goodId = 0;

interface LogRow {
  id: number;
  type: number;
  channel_id: number;
  content: string;
}

const call = <T>(method: string, path: string, body?: unknown) =>
  apiCall<T>(server.origin, method, path, { token: ROOT_TOKEN }, body);

/** An OpenAI-style upstream on loopback that answers every request with `status`. */
async function startUpstream(status: number): Promise<Server> {
  const mock = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(status, { 'content-type': 'application/json' });
      if (status !== 200) {
        const message = `the model is overloaded (account key ${QUOTED_SECRET})`;
        response.end(JSON.stringify({ error: { message, type: 'server_error', code: null } }));
        return;
      }
      response.end(
        JSON.stringify({
          id: 'chatcmpl-e2e',
          object: 'chat.completion',
          created: 1_700_000_000,
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => mock.listen(0, '127.0.0.1', resolve));
  return mock;
}

async function addChannel(name: string, upstream: Server, models: string, priority: number): Promise<number> {
  const { port } = upstream.address() as AddressInfo;
  await call('POST', '/api/channel/', {
    name,
    type: 1,
    key: 'sk-upstream',
    base_url: `http://127.0.0.1:${port}`,
    models,
    group: 'default',
    priority,
  });
  const list = await call<{ data: Array<{ id: number; name: string }> }>('GET', '/api/channel/?order=-id&size=1');
  return list.data[0]?.id ?? 0;
}

async function relay(key: string, model: string): Promise<number> {
  const response = await fetch(`${server.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hello' }] }),
  });
  await response.text();
  return response.status;
}

/** Log rows are written in batches: wait until the API lists `count` of `type`. */
async function logsOfType(type: number, count: number): Promise<LogRow[]> {
  let rows: LogRow[] = [];
  await expect
    .poll(async () => {
      rows = (await call<{ data: LogRow[] }>('GET', `/api/log/?log_type=${type}&size=100`)).data;
      return rows.length;
    })
    .toBe(count);
  return rows;
}

async function openPage(language = 'en_US'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript((chosen) => window.localStorage.setItem('appLanguage', chosen), language);
  await signInWithForm(page, server.origin, 'root', ROOT_PASSWORD);
  return page;
}

beforeAll(async () => {
  broken = await startUpstream(500);
  good = await startUpstream(200);
  server = await startServer({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN });
  await adminApi(server.origin, ROOT_TOKEN).addQuota(1, 50_000_000);
  // The broken channel is tried first; only it serves gpt-4o, so a gpt-4o request has nowhere else to go.
  brokenId = await addChannel('broken-upstream', broken, 'gpt-4o-mini,gpt-4o', 10);
  goodId = await addChannel('good-upstream', good, 'gpt-4o-mini', 0);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => broken?.close(resolve));
  await new Promise((resolve) => good?.close(resolve));
});

describe('failed relay requests on the Logs screen', () => {
  let errorRow: LogRow;

  it('retries on the good channel by default, and records a request that failed everywhere', async () => {
    const { key } = await call<{ key: string }>('POST', '/api/token/', {
      name: 'errors-app',
      expired_time: -1,
      remain_quota: 0,
      unlimited_quota: true,
    });
    expect(await relay(key, 'gpt-4o-mini')).toBe(200);
    const [consumed] = await logsOfType(2, 1);
    expect(consumed?.channel_id).toBe(goodId);
    expect(await relay(key, 'gpt-4o')).toBe(502);
    const [failed] = await logsOfType(5, 1);
    expect(failed?.channel_id).toBe(brokenId);
    errorRow = failed as LogRow;
  });

  it('shows the error row with the Error filter: a red chip, the failing channel and a masked message', async () => {
    const page = await openPage();
    await page.goto(`${server.origin}/panel/log`);
    await page.locator('[data-testid^=log-row-]').first().waitFor();
    await page.getByTestId('log-filter-type').locator('[role=combobox]').click();
    await page.getByTestId('log-filter-type-5').click();
    await page.getByTestId('log-filter-submit').click();
    await page.waitForURL(/log_type=5/);
    await expect
      .poll(() =>
        page
          .locator('[data-testid^=log-row-]')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid'))),
      )
      .toEqual([`log-row-${errorRow.id}`]);

    const chip = page.getByTestId(`log-type-${errorRow.id}`);
    expect(await text(page, `log-type-${errorRow.id}`)).toBe('Error');
    const color = await chip.evaluate((element) => getComputedStyle(element).color);
    const [red = 0, green = 0, blue = 0] = (color.match(/\d+/g) ?? []).map(Number);
    expect(red).toBeGreaterThan(green + 60);
    expect(red).toBeGreaterThan(blue + 60);
    expect(await text(page, `log-channel-${errorRow.id}`)).toBe(`#${brokenId} broken-upstream`);
    const detail = await text(page, `log-detail-${errorRow.id}`);
    expect(detail).toContain('the model is overloaded');
    expect(detail).not.toContain(QUOTED_SECRET);
    // The channel cell opens how the request was routed: the one channel tried, and how it failed.
    await page.getByTestId(`log-channel-${errorRow.id}`).click();
    await page.getByTestId('log-route').waitFor();
    const tried = await text(page, 'log-route-tried-0');
    expect(tried).toContain(`#${brokenId}`);
    expect(tried).toContain('Server error');
    await page.keyboard.press('Escape');
    await page.getByTestId('log-route').waitFor({ state: 'detached' });
    await screenshot(page, 'logs-error-rows');
    await page.close();
  });

  it('names the type in Chinese and Japanese', async () => {
    for (const [language, label] of [
      ['zh_CN', '错误'],
      ['ja_JP', 'エラー'],
    ] as const) {
      const page = await openPage(language);
      await page.goto(`${server.origin}/panel/log?log_type=5`);
      await page.getByTestId(`log-type-${errorRow.id}`).waitFor();
      expect(await text(page, `log-type-${errorRow.id}`)).toBe(label);
      await page.close();
    }
  });
});
