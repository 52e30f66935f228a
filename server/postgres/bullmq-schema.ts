/**
 * BullMQ's PostgreSQL tables as the service reads them, one entry point:
 * the columns read (schema-columns.ts, held by
 * test/postgres/bullmq-schema.test.ts against BullMQ's own migrations) and
 * the reads, by what they read (queues, job pages and details, finished
 * jobs, sessions). Writes go through BullMQ's Queue and Job API, never here.
 */
export { type Db, type JobRow, jobColumns, readColumns } from './schema-columns.js';
export { existingQueues, type QueueFigureRow, queueNames, schemaState } from './schema-queues.js';
export { queueFigures } from './schema-counts.js';
export { jobLogs, jobsByKey, jobWithRelations } from './schema-jobs.js';
export { jobPage, statusQueries } from './schema-page.js';
export {
  exportExtras,
  finishedBefore,
  finishedInPoints,
  finishedSince,
  newestFailures,
  schedulerCounts,
} from './schema-finished.js';
export { serverFacts, workerSessions } from './schema-sessions.js';
export { jobHashFromRow } from './job-hash-from-row.js';
