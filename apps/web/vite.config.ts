import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Ships the repository's LICENSE with the console, where the default footer links to it. */
const licence: Plugin = {
  name: 'one-hub-licence',
  generateBundle() {
    this.emitFile({
      type: 'asset',
      fileName: 'LICENSE.txt',
      source: readFileSync(new URL('../../LICENSE', import.meta.url)),
    });
  },
};

const apiTarget = process.env.ONE_HUB_API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  base: './',
  plugins: [react(), licence],
  server: {
    proxy: {
      // The browser's Host is kept: /api writes must come from the origin the server sees (Origin check).
      '/api': { target: apiTarget },
      // The playground calls the relay on the console's own origin.
      '/v1': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The libraries are grouped on purpose into a few long-cached chunks (below); the largest is about
    // 720 kB, 215 kB gzipped. The limit sits above them so a first `npm start` prints no warning, and
    // still catches a chunk that grows far past them.
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Its own chunk, so that it runs before the chunks that build the shared schemas.
            { name: 'strict-policy', test: /src[\\/]app[\\/]strictPolicy/, priority: 4 },
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 3 },
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion)[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
