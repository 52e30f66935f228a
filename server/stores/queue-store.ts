import type { Queue } from 'bullmq';
import type { QueueSummary } from '../../contracts/queues.js';
import type { QueueSummary as MetricsSummary, StoreFacts } from '../../contracts/metrics.js';
import type { CountTracker, TrackedTotals } from '../bullmq/count-tracker.js';
import type { QueueScan, ScanLimits } from '../bullmq/list-queue-names.js';
import type { QueueRef } from '../bullmq/queue-key.js';
import type { Selection, SelectionQuery } from '../bullmq/queue-selection.js';
import type { JobDetailRead, ReadJobDetailOptions } from '../bullmq/read-job-detail.js';
import type { JobLogsRead, ReadJobLogsOptions } from '../bullmq/read-job-logs.js';
import type { JobPageRead, JobPageRequest } from '../bullmq/read-job-page.js';
import type { StatusCleaning } from '../bullmq/status-cleaning.js';
import type { StoreClient } from './redis-client.js';
import type { ExportCounts } from '../bullmq/export-counts.js';
import type { QueueReading } from '../history/sample-script.js';
import type { BusyQueue, QueueLatency } from '../history/sample-latency.js';
import type { StoreFacts as SampledFacts } from '../history/collect-sample.js';
import type { WorkerClient } from '../bullmq/client-list.js';
import type { StoreConnection } from './store-connection.js';
import type { FailuresRead, FailureWindow } from '../bullmq/read-failures.js';
import type { FinishedJob, FinishedJobsRead } from '../bullmq/read-finished-jobs.js';
import type { JobChildrenRead } from '../bullmq/read-job-children.js';
import type { EventFeed, StoreEventListener } from '../events/event-feed.js';
import type { JobStatus } from '../../contracts/jobs.js';
import type { ChunkFrom, JobFieldValues, StatusChunk } from '../bullmq/search-reads.js';
import type { ParsedJobKey } from '../bullmq/job-key.js';
import type { JobFieldRead, ReadJobFieldOptions } from '../bullmq/read-job-field.js';
import type { StoreMoveEnds } from '../bullmq/move-across-stores.js';

/**
 * The seam between procedures and the store that holds a connection's
 * queues: Redis (server/stores/store-handle.ts, Lua fast paths) or BullMQ 6's
 * PostgreSQL backend (server/postgres/postgres-store.ts, SQL on the `bullmq`
 * schema). Procedures talk to this and never ask which kind it is. A read
 * answers in the shapes the Redis scripts gave (a job as its hash fields),
 * so what a procedure makes of it is written once.
 */
export interface QueueStore extends StatusCleaning {
  readonly connection: StoreConnection;
  /** Where queues live: Redis key prefixes, or the one PostgreSQL schema. The first is the default. */
  readonly prefixes: string[];
  readonly defaultPrefix: string;
  /** Connection-wide totals kept exact by the store itself, when it can (else `totals` answers undefined). */
  readonly counts: Pick<CountTracker, 'totals' | 'exportExtras' | 'close'>;
  /**
   * The Redis client, for the routes not yet behind this seam: on another
   * kind of store it throws 400 NOT_SUPPORTED_BY_BACKEND (a route that has
   * not been ported says so rather than failing).
   */
  readonly client: StoreClient;
  /**
   * Calls of one bulk action a task keeps sent at once (callInWindow): Redis runs one script at a time, so
   * the next call waits in Redis, not for the service's turn on a CPU; 1 where two calls could take the same jobs.
   */
  readonly bulkCallsInFlight: number;
  /** The store as keys and values (the store-key routes): 400 NOT_A_KEY_VALUE_STORE where it is not one. */
  keyValue(): StoreClient;
  /** A BullMQ Queue on the queue (same API on every backend). */
  queue(name: string, prefix?: string): Promise<Queue>;
  /** Makes the queue exist as a producer does (version meta), for routes that create it by writing to it. */
  writeQueueMeta(name: string, prefix?: string): Promise<void>;
  close(): Promise<void>;

  /** Connects (a PING; on PostgreSQL the pool and the schema check), so the first request waits for nothing. */
  warmUp(): Promise<void>;
  /** Puts an event on the queue's BullMQ event stream (best effort, bounded as BullMQ bounds it). */
  publishQueueEvent(ref: QueueRef, fields: Record<string, string>): Promise<void>;
  /** Whether each queue exists, in order: one round trip. */
  queuesExist(refs: readonly QueueRef[]): Promise<boolean[]>;
  /** Every queue of the store (the discovery index's scan). */
  /** `known`: the index's refs (sorted), reused for the queues found again. */
  scanQueueNames(limits?: ScanLimits, known?: readonly QueueRef[]): Promise<QueueScan>;
  /** Pause flag and the eight counts of each queue, in order. */
  queueSummaries(refs: QueueRef[]): Promise<QueueSummary[]>;
  /** The queues of `refs` in a state, each with its sort count, and totals: see queue-selection.ts. */
  selectQueues(refs: QueueRef[], query: SelectionQuery): Promise<Selection>;
  /** Counts, pause flag and completed/failed rates over the last `windowMinutes` (connection metrics); `trackedRows`: see StoreHandle. */
  metricsSummaries(
    refs: QueueRef[],
    windowMinutes: number,
    trackedRows?: readonly (readonly number[])[] | false,
  ): Promise<MetricsSummary[]>;
  /** The server's version, memory, clients and uptime; nulls (and a warning) where it will not say. */
  storeFacts(warnings: string[]): Promise<StoreFacts>;
  /** What the Prometheus export says of each queue (exportedStates counts, finished totals, oldest waiting job); `trackedRows`: the tracker's counts of `refs`, not read again. */
  exportCounts(refs: QueueRef[], trackedRows?: readonly (readonly number[])[]): Promise<ExportCounts[]>;
  /** The history's readings of many queues (counts, finished in (`since`, `until`], oldest waiting, pause flag). */
  historyReadings(refs: QueueRef[], since: number, until: number): Promise<QueueReading[]>;
  /** Processing and wait times of the jobs busy queues finished since `since` (in order; null where unmeasured). */
  historyLatencies(busy: BusyQueue[], since: number): Promise<Array<QueueLatency | null>>;
  /** What the history keeps of the store itself. */
  historyFacts(): Promise<SampledFacts>;
  /** How many job schedulers each queue has, in order. */
  schedulerCounts(refs: QueueRef[]): Promise<number[]>;
  /** How many jobs of a finished status finished at or before `before` (ms). */
  finishedBefore(ref: QueueRef, status: 'completed' | 'failed', before: number): Promise<number>;
  /** The newest failed jobs of a queue (at most `limit`), newest first: id and when it failed. */
  newestFailures(ref: QueueRef, limit: number): Promise<Array<{ jobId: string; failedAt: number }>>;
  /** The workers connected to the store's queues; null (and a warning) when the store will not say. */
  workerClients(warnings: string[]): Promise<WorkerClient[] | null>;
  readJobPage(request: JobPageRequest): Promise<JobPageRead>;
  readJobDetail(options: ReadJobDetailOptions): Promise<JobDetailRead>;
  readJobLogs(options: ReadJobLogsOptions): Promise<JobLogsRead>;

  // Triage, stack traces, flows, insights, events, readiness (issue 31): same contract on every kind.
  /** Answers when the store does (readiness): a PING, or `SELECT 1` on PostgreSQL. */
  ping(): Promise<void>;
  /** A page of a queue's failed jobs by failure time, newest first: their reasons and first stack lines. */
  readFailures(ref: QueueRef, window: FailureWindow): Promise<FailuresRead>;
  /** Replaces a job's stack traces (BullMQ has no API for it on either kind). */
  setStacktraces(ref: QueueRef, jobId: string, traces: string[]): Promise<void>;
  /** How many jobs of a finished status finished at or after `from`, and the newest `limit` of them. */
  finishedJobs(ref: QueueRef, state: FinishedJob['state'], from: number, limit: number): Promise<FinishedJobsRead>;
  /** A flow parent's child counts and up to `limit` children (name, state). */
  readJobChildren(ref: QueueRef, jobId: string, limit: number): Promise<JobChildrenRead>;
  /** The queue's events from now on, read once for however many listeners the caller has (queue-event-hub.ts). */
  openEventFeed(ref: QueueRef, onEvent: StoreEventListener): Promise<EventFeed>;

  // Job search, bulk actions by query, job refs and field ranges (routers/jobs/search/, bulk/, job-refs.ts, field.ts).
  /** Up to `size` ids of a status, newest first, from `from` (after its anchor while it is there): the search's chunk. */
  statusChunk(queue: Queue, status: JobStatus, from: ChunkFrom, size: number): Promise<StatusChunk>;
  /** Some hash fields of each job, as Redis's HMGET answers them (the search reads only the fields it matches on). */
  jobFields(queue: Queue, ids: readonly string[], fields: readonly string[]): Promise<JobFieldValues>;
  /** The parts of a job key as this store writes them (a flow parent's or child's). */
  parseJobKey(key: string): ParsedJobKey;
  /** The name of the job at a key; null when there is none. */
  jobNameAt(key: string): Promise<string | null>;
  /** A byte range of one job field (a job too big for one response). */
  readJobField(options: ReadJobFieldOptions): Promise<JobFieldRead>;
  /** The store's ends of a move (jobs.move, redrive, its task): see server/bullmq/move-across-stores.ts. */
  moveEnds(): StoreMoveEnds;
}

export type { TrackedTotals };
