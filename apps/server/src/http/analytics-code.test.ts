import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, startTestApp, type TestApp } from '../../test/app.js';
import { analyticsSnippet } from './analytics-code.js';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

const GTAG = [
  '<!-- Google tag -->',
  '<script async src="https://www.googletagmanager.com/gtag/js?id=G-TEST123"></script>',
  "<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());gtag('config','G-TEST123');</script>",
  '<img src=x onerror="alert(1)"><style>body{display:none}</style>',
  '<script src="http://plain.example.com/a.js"></script>',
  '<script src="javascript:alert(1)"></script>',
  '<script defer data-domain="example.com" onload="steal()" src="https://plausible.io/js/script.js"></script>',
].join('\n');

describe('the analytics snippet', () => {
  it('keeps only https and inline scripts, rebuilt without handlers, and lists what the policy must allow', () => {
    const snippet = analyticsSnippet(GTAG);
    expect(snippet.html.split('\n')).toEqual([
      '<script src="https://www.googletagmanager.com/gtag/js?id=G-TEST123" async></script>',
      "<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());gtag('config','G-TEST123');</script>",
      '<script src="https://plausible.io/js/script.js" defer data-domain="example.com"></script>',
    ]);
    expect(snippet.origins).toEqual(['https://www.googletagmanager.com', 'https://plausible.io']);
    expect(snippet.scriptHashes).toEqual([
      sha(
        "window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());gtag('config','G-TEST123');",
      ),
    ]);
  });

  it('is empty for text with no script', () => {
    expect(analyticsSnippet('<b>hello</b>')).toEqual({ html: '', scriptHashes: [], origins: [] });
  });
});

describe('AnalyticsCode in the console page', () => {
  let t: TestApp;
  beforeAll(async () => {
    const directory = mkdtempSync(join(tmpdir(), 'one-hub-console-'));
    writeFileSync(
      join(directory, 'index.html'),
      '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
    );
    t = await startTestApp({ consoleDirectory: directory });
  });
  afterAll(() => t?.close());

  it('goes into the page with a policy that runs exactly its scripts, and leaves once the setting is cleared', async () => {
    const setCode = async (value: string) => {
      const answer = await t.app.inject({
        method: 'PUT',
        url: '/api/option/',
        headers: { authorization: ROOT_TOKEN },
        payload: { key: 'AnalyticsCode', value },
      });
      expect(answer.statusCode).toBe(200);
    };
    await setCode(GTAG);
    const page = await t.app.inject({ method: 'GET', url: '/panel/dashboard' });
    expect(page.body).toContain('<script src="https://www.googletagmanager.com/gtag/js?id=G-TEST123" async></script>');
    expect(page.body).not.toContain('onerror');
    expect(page.body).not.toContain('<style>');
    expect(page.body.indexOf('G-TEST123')).toBeGreaterThan(page.body.indexOf('<div id="root">'));
    const policy = String(page.headers['content-security-policy']);
    const scriptSources = /script-src ([^;]*)/.exec(policy)?.[1]?.split(' ') ?? [];
    expect(scriptSources).toEqual(expect.arrayContaining(['https://www.googletagmanager.com', 'https://plausible.io']));
    expect(scriptSources).toContain(
      sha(
        "window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());gtag('config','G-TEST123');",
      ),
    );
    expect(scriptSources).not.toContain("'unsafe-inline'");
    expect(scriptSources).not.toContain('http://plain.example.com');
    expect(/connect-src ([^;]*)/.exec(policy)?.[1]).toBe(
      "'self' https://www.googletagmanager.com https://plausible.io",
    );

    await setCode('');
    const plain = await t.app.inject({ method: 'GET', url: '/panel/dashboard' });
    expect(plain.body).not.toContain('googletagmanager');
    expect(String(plain.headers['content-security-policy'])).not.toContain('googletagmanager');
  });
});
