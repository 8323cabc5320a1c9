/// <reference lib="dom" />
/**
 * The README's "Your first call in five steps", walked as a newcomer does on a fresh server: the
 * printed root password, a channel with its base URL, a key, the README's own curl command and
 * openai SDK snippet (read from README.md, with only `localhost:3000` and the key placeholder
 * replaced), and the two calls in Logs; then docs/api.md's commands that get an access token for
 * the management API. When those pages change, this test runs the new text.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clipboard,
  exactQuota,
  launchBrowser,
  screenshot,
  screenshotDirectory,
  signInWithForm,
  text,
} from './support/browser.js';
import { type MockUpstream, startMockUpstream } from './support/mock-openai.js';
import { type RunningServer, startServer } from './support/server.js';

const run = promisify(execFile);

/** A section of one of the project's Markdown pages, from its `## heading` to the next one. */
function section(page: string, heading: string): string {
  const text = readFileSync(fileURLToPath(new URL(`../${page}`, import.meta.url)), 'utf8');
  const start = text.indexOf(`## ${heading}\n`);
  if (start < 0) throw new Error(`${page} has no "## ${heading}" section`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The code block of `language` in `text`, without the list item's indentation. */
function codeBlock(text: string, language: string): string {
  const found = new RegExp(`^( *)\`\`\`${language}\\n([\\s\\S]*?)^\\1\`\`\`$`, 'm').exec(text);
  if (!found) throw new Error(`no \`\`\`${language} block in the section`);
  const indent = found[1]?.length ?? 0;
  return (found[2] ?? '')
    .split('\n')
    .map((line) => line.slice(indent))
    .join('\n');
}

const steps = section('README.md', 'Your first call in five steps');
const curlCommand = codeBlock(steps, 'sh');
const sdkSnippet = codeBlock(steps, 'js');
/** docs/api.md's commands that get an access token from a shell. */
const tokenCommands = codeBlock(section('docs/api.md', 'Getting an access token'), 'sh');
/** What the README tells the reader to type into the channel's Models field. */
const MODEL = 'gpt-4o-mini';
const CHANNEL_NAME = 'My OpenAI';
const UPSTREAM_KEY = 'sk-upstream-first-call';
const NEW_PASSWORD = 'my-own-root-password';
const ANSWER = ['Hello', ' from', ' the', ' mock', ' upstream!'];
const USAGE = { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 };

describe("the README's first call in five steps", () => {
  let upstream: MockUpstream;
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let key = '';
  let scratch = '';
  /** The README's commands for this server: its address instead of localhost:3000. */
  const forThisServer = (snippet: string) => snippet.replaceAll('http://localhost:3000', server.origin);

  beforeAll(async () => {
    upstream = await startMockUpstream({ model: MODEL, pieces: ANSWER, usage: USAGE });
    // As after `npm start` on a fresh clone: no password given, root's starting balance as shipped.
    server = await startServer({ INITIAL_ROOT_QUOTA: undefined });
    browser = await launchBrowser();
    // An English browser that has never been here: no language chosen in the console.
    context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await context.newPage();
    // Inside the repository, so the snippet's `import 'openai'` finds the installed SDK.
    mkdirSync(screenshotDirectory, { recursive: true });
    scratch = mkdtempSync(join(screenshotDirectory, 'first-call-'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await upstream?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('has the commands this test runs, for the address and key a reader replaces', () => {
    expect(curlCommand).toContain('http://localhost:3000/v1/chat/completions');
    expect(curlCommand).toMatch(/^export ONE_HUB_KEY=sk-\.\.\. /m);
    expect(sdkSnippet).toContain("baseURL: 'http://localhost:3000/v1'");
    expect(sdkSnippet).toContain('process.env.ONE_HUB_KEY');
    expect(steps).toContain(`\`${MODEL}\``);
    expect(tokenCommands).toContain('"password": "YOUR-PASSWORD"');
  });

  it('1. signs in as root with the printed password and chooses a new one', async () => {
    const printed = /password: (\S+)/;
    await expect.poll(() => printed.exec(server.output())?.[1] ?? '').toHaveLength(16);
    const password = printed.exec(server.output())?.[1] ?? '';
    await signInWithForm(page, server.origin, 'root', password);
    await page.getByTestId('password-change-dialog').waitFor();
    await page.getByTestId('password-change-new').fill(NEW_PASSWORD);
    await page.getByTestId('password-change-confirm').fill(NEW_PASSWORD);
    await page.getByTestId('password-change-submit').click();
    await page.getByTestId('password-change-dialog').waitFor({ state: 'detached' });
    // The console greets an English browser in English.
    await expect.poll(() => text(page, 'menu-channel')).toBe('Channels');
  });

  it('2. adds an OpenAI channel with its key, base URL and model, and tests it', async () => {
    await page.getByTestId('menu-channel').click();
    await page.getByTestId('channel-create').click();
    await page.getByTestId('channel-form').waitFor();
    await expect.poll(() => page.getByTestId('channel-form-type').inputValue()).toBe('OpenAI');
    await page.getByTestId('channel-form-name').fill(CHANNEL_NAME);
    await page.getByTestId('channel-form-key').fill(UPSTREAM_KEY);
    await page.getByTestId('channel-form-base-url').fill(upstream.url);
    await page.getByTestId('channel-form-models').fill(MODEL);
    await page.getByTestId('channel-form-models').press('Enter');
    await screenshot(page, 'first-call-2-channel');
    await page.getByTestId('channel-form-submit').click();
    await page.getByTestId('channel-form').waitFor({ state: 'detached' });

    const row = page.locator('[data-testid^=channel-row-]', { hasText: CHANNEL_NAME });
    await row.waitFor();
    const id = ((await row.getAttribute('data-testid')) ?? '').replace('channel-row-', '');
    await page.getByTestId(`channel-test-${id}`).click();
    // Without a test model, the test asks which of the channel's models to send.
    await page.getByTestId(`channel-test-model-${MODEL}`).click();
    await expect.poll(() => text(page, `channel-response-${id}`)).toMatch(/^\d+\.\d\d s$/);
    expect(await page.getByTestId(`channel-response-${id}`).getAttribute('data-tone')).not.toBe('error');
    expect(upstream.received.at(-1)).toMatchObject({ model: MODEL, authorization: `Bearer ${UPSTREAM_KEY}` });
  });

  it('3. makes an API key and copies it from the dialog', async () => {
    await page.getByTestId('menu-token').click();
    await page.getByTestId('token-create').click();
    await page.getByTestId('token-form').waitFor();
    await page.getByTestId('token-form-name').fill('my-app');
    await page.getByTestId('token-form-submit').click();
    await page.getByTestId('token-created-key').waitFor();
    await page.getByTestId('token-created-copy').click();
    await expect.poll(() => clipboard(page)).toMatch(/^sk-\w{48}$/);
    key = await clipboard(page);
    expect(key).toBe(await text(page, 'token-created-key'));
    await page.getByTestId('token-created-close').click();
  });

  it("4. calls it with the README's curl command and its openai SDK snippet", async () => {
    const curl = forThisServer(curlCommand).replace('ONE_HUB_KEY=sk-...', `ONE_HUB_KEY=${key}`);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', curl]);
    const answer = JSON.parse(stdout) as { model: string; choices: Array<{ message: { content: string } }> };
    expect(answer.choices[0]?.message.content).toBe(ANSWER.join(''));

    const file = join(scratch, 'first-call.mjs');
    writeFileSync(file, forThisServer(sdkSnippet));
    const sdk = await run(process.execPath, [file], { env: { ...process.env, ONE_HUB_KEY: key } });
    expect(sdk.stdout.trim()).toBe(ANSWER.join(''));
  });

  it('5. sees both calls in Logs, with their tokens and cost', async () => {
    await page.getByTestId('menu-log').click();
    const rows = page.locator('[data-testid^=log-model-]', { hasText: MODEL });
    // Log rows are written in batches: refresh until both are there.
    await expect
      .poll(async () => {
        await page.getByTestId('log-refresh').click();
        return rows.count();
      })
      .toBe(2);
    for (const testId of await rows.evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-testid')))) {
      const id = String(testId).replace('log-model-', '');
      expect(await text(page, `log-input-${id}`)).toBe(String(USAGE.prompt_tokens));
      expect(await text(page, `log-output-${id}`)).toBe(String(USAGE.completion_tokens));
      expect(await exactQuota(page, `log-quota-${id}`)).toBeGreaterThan(0);
    }
    await page.mouse.move(0, 0);
    await screenshot(page, 'first-call-5-logs');
  });

  it("then gets an access token with docs/api.md's shell commands and reads its own account", async () => {
    const commands = forThisServer(tokenCommands).replace('YOUR-PASSWORD', NEW_PASSWORD);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', commands], { cwd: scratch });
    const self = JSON.parse(stdout) as { success: boolean; data: { username: string; role: number } };
    expect(self).toMatchObject({ success: true, data: { username: 'root', role: 100 } });
  });
});
