import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, inputDigest, staleReason, writeStamp } from './build-inputs.mjs';

let root = '';
const put = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

function project(): void {
  root = mkdtempSync(join(tmpdir(), 'one-hub-build-'));
  put('package.json', '{"name":"x"}');
  put('package-lock.json', '{"lockfileVersion":3}');
  put('apps/server/src/main.ts', 'export const a = 1;');
  put('apps/server/src/main.test.ts', 'test');
  put('apps/web/src/App.tsx', 'export const b = 2;');
  put('packages/contracts/src/index.ts', 'export const c = 3;');
}

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the build stamp', () => {
  it('asks for a build until one exists and is stamped, then not while nothing changes', () => {
    project();
    expect(staleReason(root)).toBe('No build found');
    for (const output of BUILD_OUTPUTS) put(output, 'built');
    expect(staleReason(root)).toBe('The build has no record of its sources');
    writeStamp(root);
    expect(staleReason(root)).toBeUndefined();
  });

  it('asks again when a source or the lockfile changes (git pull), but not for tests or build outputs', () => {
    project();
    for (const output of BUILD_OUTPUTS) put(output, 'built');
    writeStamp(root);
    put('apps/server/src/main.test.ts', 'another test');
    put('apps/web/dist/assets/x.js', 'rebuilt asset');
    put('apps/server/node_modules/y/index.js', 'installed');
    expect(staleReason(root)).toBeUndefined();

    put('apps/server/src/main.ts', 'export const a = 2;');
    expect(staleReason(root)).toBe('The sources changed since the last build');
    writeStamp(root);
    put('package-lock.json', '{"lockfileVersion":3,"packages":{}}');
    expect(staleReason(root)).toBe('The sources changed since the last build');
    writeStamp(root);
    put('apps/web/src/New.tsx', 'export {};');
    expect(staleReason(root)).toBe('The sources changed since the last build');
  });

  it('tells a renamed file from the same content under its old name', () => {
    project();
    const before = inputDigest(root);
    rmSync(join(root, 'apps/web/src/App.tsx'));
    put('apps/web/src/Main.tsx', 'export const b = 2;');
    expect(inputDigest(root)).not.toBe(before);
  });
});
