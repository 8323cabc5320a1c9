import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A browser on a busy CI machine can take seconds to show what a poll waits for; the default
    // 1 s makes tests fail on load alone. This bounds the wait, it measures nothing.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
