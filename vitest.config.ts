import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `import … from 'bullpen'` in tests reads the sources (package.json `exports`, condition `bullpen-source`), not dist/.
  ssr: { resolve: { conditions: ['bullpen-source', 'module', 'node', 'development|production'] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One fork per worker for every file it runs, not one per file: each file otherwise imported the
    // service anew (~15% of the suite's time). Safe because tests hold no module state: the service is
    // created per test through server/ (no vi.mock, no env written at run time).
    isolate: false,
    // Two cores on CI: two files at a time keeps Redis and Postgres responsive.
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
