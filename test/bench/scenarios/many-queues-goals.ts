import type { Redis } from 'ioredis';
import { metaKeyPattern } from '../../../server/bullmq/queue-key.js';
import { prefix } from '../seed.js';
import { round } from '../targets.js';

/**
 * The goals of the many-queues figures at each scale: the 10,000-queue store
 * of issue 16/19, and the 100,000-queue store of issue 36 (item 1), whose
 * goals are the cost of a page, not of the store.
 */
export interface ManyQueuesGoals {
  /** The table's target column for the index / list / metrics rows. */
  target: string;
  restartMs: number;
  pageMs: number;
  metricsMs: number;
  scrapeMs: number;
  scrapeGrowthMib: number;
  /** The first list of a never-scanned store, as a multiple of a bare SCAN … MATCH loop over it (reported when absent). */
  discoveryVsScan?: number;
  /** RSS with the index loaded, after the reconciling scan (reported when absent). */
  restMib?: number;
}

export const tenThousandGoals: ManyQueuesGoals = {
  target: '8 10k queues',
  restartMs: 50,
  pageMs: 100,
  metricsMs: 500,
  scrapeMs: 1000,
  scrapeGrowthMib: 50,
};

export const hundredThousandGoals: ManyQueuesGoals = {
  target: '36 100k queues',
  restartMs: 20,
  pageMs: 50,
  metricsMs: 400,
  scrapeMs: 1000,
  scrapeGrowthMib: 50,
  discoveryVsScan: 1.2,
  restMib: 160,
};

/** The goals of a scale: 100,000 queues and more are held to issue 36's. */
export const goalsFor = (queues: number) => (queues >= 100_000 ? hundredThousandGoals : tenThousandGoals);

/**
 * The floor of discovery: a bare SCAN … MATCH loop for the queues' meta keys
 * over the whole store, one call after the other with Bullpen's COUNT.
 */
export async function bareScanMs(redis: Redis, count = 1000): Promise<{ ms: number; found: number }> {
  const started = performance.now();
  let cursor = '0';
  let found = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', metaKeyPattern(prefix), 'COUNT', count);
    found += keys.length;
    cursor = next;
  } while (cursor !== '0');
  return { ms: round(performance.now() - started, 0), found };
}
