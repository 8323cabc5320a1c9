import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../test/server-process.js';

const TRACE_HOOK = fileURLToPath(new URL('../test/module-trace.mjs', import.meta.url));
/** Loaded on first use (platform/lazy-module.ts): a server that uses none of them must not load them. */
const LOADED_ON_USE = ['stripe', 'grammy', '@simplewebauthn/server'];

const packageOf = (url: string): string => {
  const path = url.slice(url.lastIndexOf('/node_modules/') + '/node_modules/'.length).split('/');
  return path[0]?.startsWith('@') ? `${path[0]}/${path[1]}` : (path[0] ?? '');
};

describe('start-up', () => {
  const folder = mkdtempSync(join(tmpdir(), 'one-hub-startup-modules-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('does not load the payment, Telegram and passkey libraries until one of them is used', async () => {
    const traceFile = join(folder, 'modules.txt');
    const server = await startServerProcess({
      SQLITE_PATH: join(folder, 'one-hub.db'),
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${TRACE_HOOK}`.trim(),
      MODULE_TRACE_FILE: traceFile,
    });
    try {
      expect((await fetch(`${server.url}/api/status`)).status).toBe(200);
    } finally {
      await server.stop();
    }
    expect(existsSync(traceFile), server.output()).toBe(true);
    const loaded = new Set(readFileSync(traceFile, 'utf8').split('\n').filter(Boolean).map(packageOf));
    // The trace sees package imports at all: the web framework is always loaded.
    expect(loaded.has('fastify')).toBe(true);
    expect(LOADED_ON_USE.filter((name) => loaded.has(name))).toEqual([]);
  });
});
