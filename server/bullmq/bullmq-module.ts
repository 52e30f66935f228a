import { loadOnce } from '../load-once.js';

/** BullMQ's API, for the code that takes the loaded module. */
export type BullMQ = typeof import('bullmq');

/**
 * BullMQ (with msgpackr and its other backends: ~4-5 MiB resident, 5.5 MB
 * of heap) is loaded by the first request that needs a Queue, a job's
 * options decoded or a live event feed, not at startup: the queue list,
 * totals, metrics and Prometheus read stores with the service's own
 * scripts, and memory after start is a target (issue 16). The promise is
 * kept because a job's detail asks on every read: a repeated dynamic
 * import costs ~4 µs, awaiting the kept promise well under one.
 */
export const loadBullmq: () => Promise<BullMQ> = loadOnce(() => import('bullmq'));
