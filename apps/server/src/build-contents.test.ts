import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every source file the entry reaches through its imports, relative to apps/server. */
async function reachableFrom(entry: string): Promise<string[]> {
  const graph = await madge(`${root}${entry}`, {
    baseDir: root,
    fileExtensions: ['ts'],
    tsConfig: `${root}tsconfig.json`,
  });
  return Object.keys(graph.obj());
}

// The entries tsup bundles (tsup.config.ts): what they reach is what ships.
describe.each(['src/launch.ts', 'src/import/main.ts', 'src/cli/reset-root-password-main.ts'])(
  'the build of %s',
  (entry) => {
    it('holds no test support, mock upstream or fixture', async () => {
      const files = await reachableFrom(entry);
      expect(files.length).toBeGreaterThan(10);
      if (entry === 'src/launch.ts') expect(files).toContain('src/main.ts');
      // Outside src/ only the plain-JavaScript helpers the scripts/*.mjs share (madge sees their types).
      const shared = /^\.\.\/\.\.\/scripts\/(command-line|node-version)\.d\.mts$/;
      expect(files.filter((file) => file.startsWith('src/') || shared.test(file))).toEqual(files);
      expect(files.filter((file) => /(^|\/)test\/|\.test\.ts$|mock|fixture|test-support/i.test(file))).toEqual([]);
    });
  },
);
