/// <reference lib="dom" />
/**
 * What the channel administration e2e files share: a small OpenAI-compatible upstream, a server
 * seeded through the real API (priced models, a team group, a tag of two channels and a spare one),
 * and helpers to open the channel page and read its fields.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { apiCall } from './api.js';
import { launchBrowser, signInWithForm } from './browser.js';
import { type RunningServer, startServer } from './server.js';

export const ROOT_PASSWORD = 'e2e-root-password';
export const ROOT_TOKEN = 'e2e-root-access-token-channels-0123';
export const desktop = { width: 1400, height: 900 };
export const phone = { width: 390, height: 844 };
export const REFUSAL = 'The mock refuses this model';

// ---- a tiny OpenAI-compatible upstream ----

export interface MockUpstream {
  url: string;
  /** Every request: method, path, the model asked for and the key it came with. */
  received: Array<{ method: string; path: string; model: string; authorization: string }>;
  /** Milliseconds the chat answers wait (to make a test-all run last long enough to be seen). */
  delayMs: number;
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function sendJson(response: import('node:http').ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function startMockUpstream(): Promise<MockUpstream> {
  const mock: MockUpstream = { url: '', received: [], delayMs: 0, close: async () => {} };
  const server: Server = createServer((request, response) => {
    void readJson(request).then(async (body) => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      const model = typeof body.model === 'string' ? body.model : '';
      mock.received.push({
        method: request.method ?? '',
        path,
        model,
        authorization: request.headers.authorization ?? '',
      });
      if (path === '/v1/models') {
        sendJson(response, 200, { object: 'list', data: [{ id: 'mock-chat' }, { id: 'mock-extra' }] });
      } else if (path === '/v1/dashboard/billing/subscription') {
        sendJson(response, 200, { hard_limit_usd: 20 });
      } else if (path === '/v1/dashboard/billing/usage') {
        sendJson(response, 200, { total_usage: 500 });
      } else if (path === '/v1/chat/completions') {
        if (mock.delayMs) await new Promise((resolve) => setTimeout(resolve, mock.delayMs));
        if (model === 'mock-flaky') {
          sendJson(response, 500, { error: { message: 'the mock is overloaded', type: 'server_error' } });
          return;
        }
        if (model === 'mock-broken') {
          sendJson(response, 400, { error: { message: REFUSAL, type: 'invalid_request_error' } });
          return;
        }
        sendJson(response, 200, {
          id: 'chatcmpl-mock',
          object: 'chat.completion',
          created: 1_700_000_000,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
        });
      } else {
        sendJson(response, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return mock;
}

// ---- set-up through the real API ----

export interface ChannelRow {
  id: number;
  name: string;
  status: number;
  priority: number;
  weight: number;
  models: string;
  model_mapping: string;
  other: string;
  tag: string;
  test_time: number;
  response_time: number;
}

/** The running pieces, filled in before the file's tests (see useChannelSite). */
export const site = {} as { server: RunningServer; upstream: MockUpstream; browser: Browser };

export const root = <T>(method: string, path: string, body?: unknown) =>
  apiCall<T>(site.server.origin, method, path, { token: ROOT_TOKEN }, body);

export async function channelsNamed(name: string): Promise<ChannelRow[]> {
  const page = await root<{ data: ChannelRow[] }>('GET', `/api/channel/?filter_tag=3&size=100&name=${name}`);
  return page.data;
}

export async function channelNamed(name: string): Promise<ChannelRow> {
  const [found] = (await channelsNamed(name)).filter((channel) => channel.name === name);
  if (!found) throw new Error(`no channel named ${name}`);
  return found;
}

export const tagChannels = (tag: string) => root<ChannelRow[]>('GET', `/api/channel_tag/${tag}/list`);

async function seed(): Promise<void> {
  for (const model of ['mock-chat', 'mock-broken', 'mock-priced']) {
    await root('POST', '/api/prices/single', { model, type: 'tokens', channel_type: 1, input: 1, output: 1 });
  }
  await root('POST', '/api/user_group/', { symbol: 'team', name: 'Team', ratio: 1, api_rate: 600, public: true });
  // A tag of two channels (one per key), and a plain channel to delete.
  await root('POST', '/api/channel/', {
    name: 'pool',
    type: 1,
    key: 'sk-pool-1\nsk-pool-2',
    base_url: site.upstream.url,
    models: 'mock-chat,pool-only',
    group: 'default',
    tag: 'pool',
    test_model: 'mock-chat',
  });
  await root('POST', '/api/channel/', {
    name: 'spare',
    type: 1,
    key: 'sk-spare',
    base_url: site.upstream.url,
    models: 'mock-chat',
    group: 'default',
    test_model: 'mock-chat',
  });
}

/** Starts the upstream, the seeded server and the browser before the file's tests; stops them after. */
export function useChannelSite(): void {
  beforeAll(async () => {
    site.upstream = await startMockUpstream();
    site.server = await startServer({ INITIAL_ROOT_PASSWORD: ROOT_PASSWORD, INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN });
    await seed();
    site.browser = await launchBrowser();
  });
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.stop();
    await site.upstream?.close();
  });
}

// ---- browser helpers ----

export async function openChannels(
  options: { viewport?: { width: number; height: number }; theme?: 'dark'; query?: string; language?: string } = {},
): Promise<Page> {
  const page = await site.browser.newPage({ viewport: options.viewport ?? desktop });
  await page.addInitScript(
    ({ theme, language }) => {
      if (!window.localStorage.getItem('appLanguage')) window.localStorage.setItem('appLanguage', language);
      if (theme && !window.localStorage.getItem('theme')) window.localStorage.setItem('theme', theme);
    },
    { theme: options.theme ?? '', language: options.language ?? 'en_US' },
  );
  await signInWithForm(page, site.server.origin, 'root', ROOT_PASSWORD);
  await page.goto(`${site.server.origin}/panel/channel${options.query ?? ''}`);
  await page.getByTestId('channel-list').waitFor();
  return page;
}

/** The helper text under the input with this test id, and whether the input is marked invalid. */
export async function fieldState(page: Page, testId: string): Promise<{ invalid: boolean; helper: string }> {
  const input = page.getByTestId(testId);
  const control = page.locator('.MuiFormControl-root', { has: input }).last();
  return {
    invalid: (await input.getAttribute('aria-invalid')) === 'true',
    helper: (await control.locator('.MuiFormHelperText-root').textContent()) ?? '',
  };
}

export async function addModel(page: Page, model: string): Promise<void> {
  const input = page.getByTestId('channel-form-models');
  await input.fill(model);
  await input.press('Enter');
}

export const textOf = async (locator: Locator) => (await locator.textContent())?.trim() ?? '';
