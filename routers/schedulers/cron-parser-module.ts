/** cron-parser's parser, for the code that takes the loaded module. */
export type CronParser = (typeof import('cron-parser'))['CronExpressionParser'];

/**
 * cron-parser (with luxon: ~1 MB of heap) is loaded by the first scheduler
 * request that reads a cron pattern, not at startup: memory after start is
 * a target (issue 16). The runtime caches the module.
 */
export const loadCronParser = async (): Promise<CronParser> => (await import('cron-parser')).CronExpressionParser;
