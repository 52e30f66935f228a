import type { Queue } from 'bullmq';
import { loadBullmq } from '../bullmq/bullmq-module.js';
import type { StoreClient } from './redis-client.js';
import type { StoreConnection } from './store-connection.js';
import { LruCache } from './lru-cache.js';
import { bullmqAddress } from '../bullmq/queue-key.js';
import { CountTracker, type CountTrackerOptions } from '../bullmq/count-tracker.js';
import type { QueueSummary } from '../../contracts/queues.js';
import { defaultScanLimits, scanQueueNames, type QueueScan, type ScanLimits } from '../bullmq/list-queue-names.js';
import { keyed, runPipelined } from '../bullmq/pipelined.js';
import { pipelinePerQueue } from '../bullmq/pipeline-per-queue.js';
import { spansSlots, spansSlotsError } from '../bullmq/cluster-slots.js';
import type { QueueSummary as MetricsSummary, StoreFacts } from '../../contracts/metrics.js';
import { summarizeQueues } from '../bullmq/metrics-summaries.js';
import { readExportCounts, type ExportCounts } from '../bullmq/export-counts.js';
import { readQueues, type QueueReading } from '../history/sample-script.js';
import { readLatencies, type BusyQueue, type QueueLatency } from '../history/sample-latency.js';
import { readStoreFacts as readSampledFacts, type StoreFacts as SampledFacts } from '../history/collect-sample.js';
import { readStoreFacts } from '../bullmq/store-facts.js';
import { queueKey, type QueueRef } from '../bullmq/queue-key.js';
import { selectQueues, type Selection, type SelectionQuery } from '../bullmq/queue-selection.js';
import { fetchQueueSummaries } from '../bullmq/queue-states.js';
import { readJobDetail, type JobDetailRead, type ReadJobDetailOptions } from '../bullmq/read-job-detail.js';
import { readJobLogs, type JobLogsRead, type ReadJobLogsOptions } from '../bullmq/read-job-logs.js';
import { readJobPage, type JobPageRead, type JobPageRequest } from '../bullmq/read-job-page.js';
import type { QueueStore } from './queue-store.js';
import { listWorkerClients, type WorkerClient } from '../bullmq/client-list.js';
import { redisStatusCleaning, type StatusCleaning } from '../bullmq/status-cleaning.js';
import { readFailuresPage, type FailuresRead, type FailureWindow } from '../bullmq/read-failures.js';
import { readFinishedJobs, type FinishedJob, type FinishedJobsRead } from '../bullmq/read-finished-jobs.js';
import { readJobChildren, type JobChildrenRead } from '../bullmq/read-job-children.js';
import type { EventFeed, StoreEventListener } from '../events/event-feed.js';
import { openRedisEventFeed } from '../events/redis-event-feed.js';
import type { JobStatus } from '../../contracts/jobs.js';
import {
  redisJobFields,
  redisStatusChunk,
  type ChunkFrom,
  type JobFieldValues,
  type StatusChunk,
} from '../bullmq/search-reads.js';
import { parseJobKey, type ParsedJobKey } from '../bullmq/job-key.js';
import { readJobField, type JobFieldRead, type ReadJobFieldOptions } from '../bullmq/read-job-field.js';
import type { StoreMoveEnds } from '../bullmq/move-across-stores.js';
import { redisStoreMoveEnds } from '../bullmq/redis-store-move-ends.js';

/** Events kept on a queue's stream by publishQueueEvent (BullMQ's default). */
const eventsKept = 10_000;

/** What procedures hold of a connection's store: the seam (queue-store.ts), whatever its kind. */
export type StoreHandle = QueueStore;

/**
 * A live Redis store: one shared client for the connection, and BullMQ Queue
 * handles over it, created on demand and kept in a bounded LRU so memory
 * stays flat however many queues the store holds. Its reads are the
 * service's Lua scripts (server/bullmq/).
 */
export class RedisStore implements QueueStore {
  private readonly queues: LruCache<string, Queue>;
  /** The store's queue counts kept exact by client-side tracking (the list's connection-wide totals). */
  readonly counts: CountTracker;
  /** A script call holds Redis ~2 ms (250 jobs), so four in flight wait at most what one call of 1,000 would. */
  readonly bulkCallsInFlight = 4;

  constructor(
    readonly connection: StoreConnection,
    readonly client: StoreClient,
    queueCacheSize: number,
    countTracking: CountTrackerOptions = { enabled: false },
  ) {
    this.queues = new LruCache(queueCacheSize, (queue) => void queue.close().catch(() => undefined));
    this.counts = new CountTracker(client, { prefixes: connection.prefixes, ...countTracking });
  }

  get prefixes(): string[] {
    return this.connection.prefixes;
  }

  get defaultPrefix(): string {
    return this.connection.prefixes[0] ?? 'bull';
  }

  /**
   * The Queue for a name under a prefix (the connection's first prefix by
   * default). A name holding ':' gets a handle on the same keys (bullmqAddress).
   */
  async queue(name: string, prefix: string = this.defaultPrefix): Promise<Queue> {
    if (spansSlots(this.client, { prefix, name })) throw spansSlotsError(name);
    const key = `${prefix}\u0000${name}`;
    const known = this.queues.get(key);
    if (known) return known;
    const { Queue } = await loadBullmq();
    // Another call may have made it while BullMQ loaded: one handle per queue.
    let queue = this.queues.get(key);
    if (!queue) {
      const address = bullmqAddress({ prefix, name });
      // The client is shared, so closing a Queue never closes the connection.
      // skipMetasUpdate: looking at a queue must never write its meta key (that would create it).
      queue = new Queue(address.name, {
        connection: this.client,
        prefix: address.prefix,
        skipWaitingForReady: true,
        skipMetasUpdate: true,
      });
      queue.on('error', () => undefined);
      this.queues.set(key, queue);
    }
    return queue;
  }

  /**
   * Writes the queue's meta hash as a BullMQ producer does (version, events
   * length), for routes that create a queue by writing to it: adding a job
   * or a scheduler. Queue discovery finds queues by that hash.
   */
  async writeQueueMeta(name: string, prefix: string = this.defaultPrefix): Promise<void> {
    const address = bullmqAddress({ prefix, name });
    const { Queue } = await loadBullmq();
    const producer = new Queue(address.name, { connection: this.client, prefix: address.prefix });
    producer.on('error', () => undefined);
    try {
      // getVersion() waits for the meta write the constructor started.
      await producer.getVersion();
    } finally {
      await producer.close();
    }
  }

  private get cleaning(): StatusCleaning {
    return redisStatusCleaning(this.client);
  }

  cleanStatus(...args: Parameters<StatusCleaning['cleanStatus']>): Promise<string[]> {
    return this.cleaning.cleanStatus(...args);
  }

  countStatus(...args: Parameters<StatusCleaning['countStatus']>): Promise<number> {
    return this.cleaning.countStatus(...args);
  }

  async warmUp(): Promise<void> {
    await this.client.ping();
  }

  async publishQueueEvent(ref: QueueRef, fields: Record<string, string>): Promise<void> {
    await this.client.xadd(queueKey(ref, 'events'), 'MAXLEN', '~', eventsKept, '*', ...Object.entries(fields).flat());
  }

  keyValue(): StoreClient {
    return this.client;
  }

  async queuesExist(refs: readonly QueueRef[]): Promise<boolean[]> {
    const exists = await runPipelined(
      this.client,
      refs.map((ref) => keyed('exists', queueKey(ref, 'meta'))),
    );
    return exists.map((found) => found === 1);
  }

  scanQueueNames(limits: ScanLimits = defaultScanLimits, known?: readonly QueueRef[]): Promise<QueueScan> {
    return scanQueueNames(this, limits, known);
  }

  queueSummaries(refs: QueueRef[]): Promise<QueueSummary[]> {
    return fetchQueueSummaries(this.client, refs);
  }

  selectQueues(refs: QueueRef[], query: SelectionQuery): Promise<Selection> {
    return selectQueues(this.client, refs, query);
  }

  /**
   * The counts from the tracker when it answers (exact, read only where they changed), else by script with the rest.
   * `trackedRows`: the tracker's rows of `refs` the caller already holds (a page of its answer for every queue);
   * `false`: read the counts by script (asking the tracker of a page would replace its view of every queue).
   */
  async metricsSummaries(
    refs: QueueRef[],
    windowMinutes: number,
    trackedRows?: readonly (readonly number[])[] | false,
  ): Promise<MetricsSummary[]> {
    const rows = trackedRows === undefined ? (await this.counts.totals(refs))?.rows : trackedRows || undefined;
    return summarizeQueues(this.client, refs, windowMinutes, rows);
  }

  storeFacts(warnings: string[]): Promise<StoreFacts> {
    return readStoreFacts(this.client, warnings);
  }

  historyReadings(refs: QueueRef[], since: number, until: number): Promise<QueueReading[]> {
    return readQueues(this, refs, since, until);
  }

  historyLatencies(busy: BusyQueue[], since: number): Promise<Array<QueueLatency | null>> {
    return readLatencies(this.client, busy, since);
  }

  historyFacts(): Promise<SampledFacts> {
    return readSampledFacts(this.client);
  }

  exportCounts(refs: QueueRef[], trackedRows?: readonly (readonly number[])[]): Promise<ExportCounts[]> {
    return readExportCounts(this.client, refs, trackedRows);
  }

  async schedulerCounts(refs: QueueRef[]): Promise<number[]> {
    const replies = await pipelinePerQueue(this, refs, (pipeline, ref) => pipeline.zcard(queueKey(ref, 'repeat')));
    return replies.map(([count]) => Number(count));
  }

  finishedBefore(ref: QueueRef, status: 'completed' | 'failed', before: number): Promise<number> {
    return this.client.zcount(queueKey(ref, status), '-inf', before);
  }

  async newestFailures(ref: QueueRef, limit: number): Promise<Array<{ jobId: string; failedAt: number }>> {
    const reply = await this.client.zrevrangebyscore(
      queueKey(ref, 'failed'),
      '+inf',
      '-inf',
      'WITHSCORES',
      'LIMIT',
      0,
      limit,
    );
    const failures: Array<{ jobId: string; failedAt: number }> = [];
    for (let index = 0; index < reply.length; index += 2)
      failures.push({ jobId: reply[index]!, failedAt: Number(reply[index + 1]) });
    return failures;
  }

  workerClients(warnings: string[]): Promise<WorkerClient[] | null> {
    return listWorkerClients(this, warnings);
  }

  readJobPage(request: JobPageRequest): Promise<JobPageRead> {
    return readJobPage(this.client, request);
  }

  readJobDetail(options: ReadJobDetailOptions): Promise<JobDetailRead> {
    return readJobDetail(this.client, options);
  }

  readJobLogs(options: ReadJobLogsOptions): Promise<JobLogsRead> {
    return readJobLogs(this.client, options);
  }

  // Triage, stack traces, flows, insights, events, readiness (issue 31).
  async ping(): Promise<void> {
    await this.client.ping();
  }

  readFailures(ref: QueueRef, window: FailureWindow): Promise<FailuresRead> {
    return readFailuresPage(this.client, ref, window);
  }

  async setStacktraces(ref: QueueRef, jobId: string, traces: string[]): Promise<void> {
    await this.client.hset(queueKey(ref, jobId), 'stacktrace', JSON.stringify(traces));
  }

  finishedJobs(ref: QueueRef, state: FinishedJob['state'], from: number, limit: number): Promise<FinishedJobsRead> {
    return readFinishedJobs(this.client, ref, state, from, limit);
  }

  async readJobChildren(ref: QueueRef, jobId: string, limit: number): Promise<JobChildrenRead> {
    return readJobChildren(this.client, await this.queue(ref.name, ref.prefix), jobId, limit);
  }

  openEventFeed(ref: QueueRef, listener: StoreEventListener): Promise<EventFeed> {
    return openRedisEventFeed(this.client, ref, listener);
  }

  // Job search, bulk actions by query, job refs and field ranges.
  statusChunk(queue: Queue, status: JobStatus, from: ChunkFrom, size: number): Promise<StatusChunk> {
    return redisStatusChunk(this.client, queue, status, from, size);
  }

  jobFields(queue: Queue, ids: readonly string[], fields: readonly string[]): Promise<JobFieldValues> {
    return redisJobFields(this.client, queue, ids, fields);
  }

  parseJobKey(key: string): ParsedJobKey {
    return parseJobKey(this.prefixes, key);
  }

  jobNameAt(key: string): Promise<string | null> {
    return this.client.hget(key, 'name');
  }

  readJobField(options: ReadJobFieldOptions): Promise<JobFieldRead> {
    return readJobField(this.client, options);
  }

  moveEnds(): StoreMoveEnds {
    return redisStoreMoveEnds(this.client);
  }

  async close(): Promise<void> {
    this.counts.close();
    await Promise.allSettled(this.queues.drain().map((queue) => queue.close()));
    this.client.disconnect();
  }
}
