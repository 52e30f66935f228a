// The service's types the client uses, read from its source. The package build
// (client/build/build.mjs) replaces this file with a generated standalone copy,
// so the published package has no path into routers/ or contracts/.
export type { AppRouter } from '../routers/_app.js';
export type { QueueEvent } from '../contracts/events.js';
export type { ErrorCode } from '../contracts/error-codes.js';
export type { BulkOutcome } from '../contracts/job-actions.js';
export type { JobStatus } from '../contracts/jobs.js';
export type { PageInfo } from '../contracts/pagination.js';
export type { PurgeSelector } from '../contracts/queues.js';
import type { keyTypes } from '../contracts/store-keys.js';

export type KeyType = (typeof keyTypes)[number];
