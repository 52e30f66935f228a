import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `import … from 'bullpen'` in tests reads the sources (package.json `exports`, condition `bullpen-source`), not dist/.
  ssr: { resolve: { conditions: ['bullpen-source', 'module', 'node', 'development|production'] } },
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
