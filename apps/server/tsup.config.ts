import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig } from 'tsup';
import { packRanks, type RankList, serialiseRanks } from './src/relay/billing/bpe.js';

/**
 * The tokenizer's merge table, packed, beside the bundle: the server loads it in a few MB instead
 * of the library's 40+ (see src/relay/metering.ts and bpe.ts).
 */
function writeTokenizerRanks(): void {
  const load = createRequire(import.meta.url);
  const ranks = (load('gpt-tokenizer/bpeRanks/o200k_base') as { default: RankList }).default;
  writeFileSync('dist/o200k_base.bin', serialiseRanks(packRanks(ranks)));
}

export default defineConfig({
  // The server, and the command-line tools scripts/*.mjs run (`npm run import`, `npm run reset-root-password`).
  entry: {
    // src/launch.ts checks the Node version, then loads src/main.ts (a chunk of its own).
    main: 'src/launch.ts',
    import: 'src/import/main.ts',
    'reset-root-password': 'src/cli/reset-root-password-main.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  // The shared contracts are TypeScript source; bundle them instead of resolving them at run time.
  noExternal: ['@one-hub/contracts'],
  onSuccess: async () => writeTokenizerRanks(),
});
