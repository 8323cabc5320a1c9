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
    // madge 8 (the latest) reads TypeScript through detective-typescript 14, which reads the
    // `argument` of an import type, a name @typescript-eslint/typescript-estree 8 deprecated: it
    // printed a DeprecationWarning into `npm test`. The parser's own option silences that warning
    // only; detective-typescript 15 reads `source`, but it is ESM and madge's precinct require()s it.
    detectiveOptions: { ts: { suppressDeprecatedPropertyWarnings: true } },
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
      const shared = /^\.\.\/\.\.\/scripts\/(command-line|commands|node-version)\.d\.mts$/;
      expect(files.filter((file) => file.startsWith('src/') || shared.test(file))).toEqual(files);
      expect(files.filter((file) => /(^|\/)test\/|\.test\.ts$|mock|fixture|test-support/i.test(file))).toEqual([]);
    });
  },
);
