import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/server/test/**/*.test.ts',
      'apps/web/src/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
    ],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: 'silent' },
    // Polls wait for work done after an answer (settlement, log rows, channel status); on a busy
    // machine that can take more than the default 1 s. This bounds a wait, it measures nothing.
    expect: { poll: { timeout: 10_000, interval: 50 } },
  },
});
