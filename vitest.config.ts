import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores on CI: two files at a time keeps Redis and Postgres responsive.
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
