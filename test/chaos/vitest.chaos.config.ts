import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

/** `npm run chaos`: every scenario at full size, one file at a time, then one table of what held. */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // Replaces the suite's include (mergeConfig would add to it and run the whole suite).
    // Beside test/chaos: the scenarios kept in their resource's folder that scale with CHAOS_FULL.
    include: [
      'test/chaos/**/*.test.ts',
      'test/reliability/migration-race.test.ts',
      'test/postgres/postgres-move-sigkill.test.ts',
    ],
    maxWorkers: 1,
    testTimeout: 900_000,
    hookTimeout: 300_000,
    env: { CHAOS_FULL: '1' },
    globalSetup: ['./test/chaos/support/chaos-global.ts'],
  },
});
