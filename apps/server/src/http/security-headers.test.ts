import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';

function fakeConsole(): string {
  const directory = mkdtempSync(join(tmpdir(), 'one-hub-console-'));
  mkdirSync(join(directory, 'assets'));
  writeFileSync(
    join(directory, 'index.html'),
    '<!doctype html><html><head><title>x</title></head><body></body></html>',
  );
  writeFileSync(join(directory, 'assets', 'app-123.js'), 'console.log(1)');
  return directory;
}

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Map<string, string[]> {
  expect(typeof header, 'content-security-policy header').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

describe('browser hardening headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ consoleDirectory: fakeConsole(), env: { BASE_PATH: '/hub' } });
  });
  afterAll(() => t?.close());

  it('sends the console page with a strict policy that lets only its own inline script run', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/hub/panel/dashboard' });
    expect(page.statusCode).toBe(200);
    const policy = directives(page.headers['content-security-policy']);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toContain("'self'");
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
    expect(policy.get('script-src')).not.toContain("'unsafe-eval'");
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'https:']));
    expect(policy.get('frame-src')).toContain('https:');
    expect(policy.get('media-src')).toEqual(["'self'", 'https:', 'http:', 'blob:']);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toContain("'self'");

    // Every inline script of the page is allowed by its hash, so the browser runs it.
    const inline = [...page.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
    expect(inline.length).toBeGreaterThan(0);
    for (const script of inline) {
      const hash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
      expect(policy.get('script-src')).toContain(hash);
    }

    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('sends the same policy with the static assets', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/hub/' });
    const asset = await t.app.inject({ method: 'GET', url: '/hub/assets/app-123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['x-frame-options']).toBe('DENY');
  });

  it('sends nosniff and the referrer policy with API answers, errors included', async () => {
    for (const url of ['/api/status', '/api/user/self', '/api/nope']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['x-content-type-options']).toBe('nosniff');
  });
});
