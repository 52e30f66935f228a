import { loadOnce } from '../../server/load-once.js';

/** cron-parser's parser, for the code that takes the loaded module. */
export type CronParser = typeof import('cron-parser')['CronExpressionParser'];

/**
 * cron-parser (with luxon: ~1 MB of heap) is loaded by the first scheduler
 * request that reads a cron pattern, not at startup: memory after start is
 * a target (issue 16). Kept as BullMQ's module is (loadOnce), a failed
 * import tried again by the next request.
 */
export const loadCronParser: () => Promise<CronParser> = loadOnce(
  async () => (await import('cron-parser')).CronExpressionParser,
);
