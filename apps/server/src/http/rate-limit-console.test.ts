import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { loadConfig } from '../config.js';
import { hashedAssetPaths } from './console.js';

/** A fresh client address per test, so counts of one test (or an earlier run on a shared Redis) never leak into another. */
let addresses = 0;
const newAddress = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${++addresses}`;

/** The headers of a browser's navigation, and of its fetches of a page's files. */
const NAVIGATION = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const FILE = { accept: '*/*' };

/**
 * A console laid out as Vite builds it: index.html at the root referring to its content-hashed
 * files under assets/ (here all of them, as modulepreload links, so that reading the page finds
 * every file a cold load fetches) and to the unhashed favicon. 26 hashed files and the favicon make
 * a cold load of 28 requests, as the real console's (e2e/console-loads.e2e.ts loads that one).
 */
function viteLikeConsole(): string {
  const directory = mkdtempSync(join(tmpdir(), 'one-hub-console-'));
  mkdirSync(join(directory, 'assets'));
  const files = Array.from({ length: 25 }, (_, index) => `chunk${index}-C${index}xYz9_.js`).concat(
    'index-Dq3k_8aB.css',
  );
  for (const file of files) writeFileSync(join(directory, 'assets', file), `/* ${file} */`);
  writeFileSync(join(directory, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const links = files
    .map((file) =>
      file.endsWith('.css')
        ? `<link rel="stylesheet" crossorigin href="./assets/${file}">`
        : `<link rel="modulepreload" crossorigin href="./assets/${file}">`,
    )
    .join('\n    ');
  writeFileSync(
    join(directory, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <link rel="icon" type="image/svg+xml" href="./favicon.svg" />
    <script type="module" crossorigin src="./assets/${files[0]}"></script>
    ${links}
  </head>
  <body><div id="root"></div></body>
</html>`,
  );
  return directory;
}

/** The files a browser fetches for a page: every src and href of its tags, resolved against the page. */
function referencedFiles(html: string): string[] {
  const references = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
  // The server writes <base href="/"> into the page; relative references resolve against it.
  return [...new Set(references.filter((reference) => reference !== '/'))].map(
    (reference) => new URL(reference, 'http://console.test/').pathname,
  );
}

/** The configuration's own defaults of the per-address limits (the test harness turns them off). */
function defaultLimits(): Record<string, string> {
  const { globalRateLimit } = loadConfig({ SESSION_SECRET: 'defaults-only-0123456789abcdef' });
  return {
    GLOBAL_API_RATE_LIMIT: String(globalRateLimit.api),
    GLOBAL_WEB_RATE_LIMIT: String(globalRateLimit.web),
    GLOBAL_RATE_WINDOW_SECONDS: String(globalRateLimit.windowSeconds),
  };
}

describe('cold console loads under the default per-address limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: defaultLimits(), consoleDirectory: viteLikeConsole() });
  });
  afterAll(async () => t?.close());

  it('serves 40 cold loads from one address in a row, every page and every file it refers to', async () => {
    const address = newAddress();
    const failures: string[] = [];
    let fetched = 0;
    for (let load = 0; load < 40; load++) {
      const page = await t.app.inject({ method: 'GET', url: '/', headers: NAVIGATION, remoteAddress: address });
      if (page.statusCode !== 200) failures.push(`load ${load}: / answered ${page.statusCode}`);
      const files = referencedFiles(page.body);
      // The page must really refer to the built files, or the loop below would prove nothing.
      if (load === 0) expect(files).toHaveLength(27);
      for (const file of files) {
        const response = await t.app.inject({ method: 'GET', url: file, headers: FILE, remoteAddress: address });
        fetched++;
        if (response.statusCode !== 200) failures.push(`load ${load}: ${file} answered ${response.statusCode}`);
      }
    }
    expect(fetched).toBe(40 * 27);
    expect(failures.slice(0, 5)).toEqual([]);
  });
});

describe('an address over the console limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { GLOBAL_API_RATE_LIMIT: '5', GLOBAL_WEB_RATE_LIMIT: '2', GLOBAL_RATE_WINDOW_SECONDS: '180' },
      consoleDirectory: viteLikeConsole(),
    });
  });
  afterAll(async () => t?.close());

  const get = (url: string, address: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url, headers, remoteAddress: address });

  /** Uses up the address's console allowance with two page loads. */
  async function exhaust(address: string): Promise<void> {
    for (let count = 0; count < 2; count++) expect((await get('/', address, NAVIGATION)).statusCode).toBe(200);
  }

  function expectPage(response: LightMyRequestResponse): number {
    expect(response.statusCode).toBe(429);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const wait = Number(response.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(180);
    return wait;
  }

  it('answers a page request with an English page saying when to retry', async () => {
    const address = newAddress();
    await exhaust(address);
    const refused = await get('/panel/dashboard', address, { ...NAVIGATION, 'accept-language': 'en-US,en;q=0.9' });
    const wait = expectPage(refused);
    expect(refused.body).toContain('<html lang="en">');
    expect(refused.body).toContain(`Your address (${address}) sent too many requests`);
    expect(refused.body).toContain(`try again in ${wait} seconds`);
  });

  it('answers a Japanese browser in Japanese', async () => {
    const address = newAddress();
    await exhaust(address);
    const refused = await get('/', address, { ...NAVIGATION, 'accept-language': 'ja,en-US;q=0.9,en;q=0.8' });
    const wait = expectPage(refused);
    expect(refused.body).toContain('<html lang="ja">');
    expect(refused.body).toContain(`${wait} 秒後にもう一度お試しください`);
  });

  it('keeps the JSON error for a request that is not a page', async () => {
    const address = newAddress();
    await exhaust(address);
    const refused = await get('/favicon.svg', address, FILE);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ success: false, message: expect.stringContaining('too many requests') });
  });

  it('still serves the content-hashed files, uncounted', async () => {
    const address = newAddress();
    await exhaust(address);
    expect((await get('/', address, NAVIGATION)).statusCode).toBe(429);
    for (let count = 0; count < 10; count++) {
      const asset = await get('/assets/chunk3-C3xYz9_.js', address, FILE);
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toBe('/* chunk3-C3xYz9_.js */');
    }
  });

  it('counts a path under assets/ that is not a built file like any other request', async () => {
    const address = newAddress();
    await exhaust(address);
    expect((await get('/assets/not-built-1234.js', address, FILE)).statusCode).toBe(429);
  });

  it('leaves the API answering JSON, with its own allowance', async () => {
    const address = newAddress();
    await exhaust(address);
    expect((await get('/api/status', address, NAVIGATION)).statusCode).toBe(200);
  });
});

describe('the uncounted files under a base path', () => {
  it('are the built files under <base path>assets/, and nothing else', () => {
    const directory = viteLikeConsole();
    mkdirSync(join(directory, 'assets', 'fonts'));
    writeFileSync(join(directory, 'assets', 'fonts', 'inter-Bx9q.woff2'), '');
    const paths = hashedAssetPaths(directory, '/hub/');
    expect(paths.size).toBe(27);
    expect(paths.has('/hub/assets/chunk3-C3xYz9_.js')).toBe(true);
    expect(paths.has('/hub/assets/fonts/inter-Bx9q.woff2')).toBe(true);
    expect(paths.has('/hub/favicon.svg')).toBe(false);
    expect(paths.has('/hub/assets/fonts')).toBe(false);
    expect(hashedAssetPaths(join(directory, 'not-built'), '/')).toEqual(new Set());
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('the limiter keys in Redis', () => {
  let t: TestApp;
  let redis: Redis;
  beforeAll(async () => {
    t = await startTestApp({
      cache: 'configured',
      env: {
        REDIS_CONN_STRING: redisUrl as string,
        GLOBAL_API_RATE_LIMIT: '50',
        GLOBAL_WEB_RATE_LIMIT: '50',
      },
      consoleDirectory: viteLikeConsole(),
    });
    redis = new Redis(redisUrl as string);
  });
  afterAll(async () => {
    await t?.close();
    redis?.disconnect();
  });

  it('are named <namespace>ratelimit:<limit>:<address>, with the window as their lifetime', async () => {
    const address = newAddress();
    await t.app.inject({ method: 'GET', url: '/', headers: NAVIGATION, remoteAddress: address });
    await t.app.inject({ method: 'GET', url: '/api/status', remoteAddress: address });
    await t.app.inject({ method: 'GET', url: '/api/status', remoteAddress: address });
    // A hashed file is not counted, so it makes no key of its own.
    await t.app.inject({ method: 'GET', url: '/assets/chunk1-C1xYz9_.js', headers: FILE, remoteAddress: address });
    const namespace = `onehub:${await t.services.options.instanceId()}:`;
    const keys = (await redis.keys(`*${address}*`)).sort();
    expect(keys).toEqual([`${namespace}ratelimit:api:${address}`, `${namespace}ratelimit:web:${address}`]);
    expect(await redis.get(`${namespace}ratelimit:api:${address}`)).toBe('2');
    expect(await redis.get(`${namespace}ratelimit:web:${address}`)).toBe('1');
    const lifetime = await redis.pttl(`${namespace}ratelimit:web:${address}`);
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(180_000);
  });
});
