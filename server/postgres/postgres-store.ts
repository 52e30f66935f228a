import type { Queue } from 'bullmq';
import type pg from 'pg';
import type { QueueSummary as MetricsSummary, StoreFacts } from '../../contracts/metrics.js';
import type { JobCountKind, PurgeableStatus, QueueSummary } from '../../contracts/queues.js';
import type { WorkerClient } from '../bullmq/client-list.js';
import type { ExportCounts } from '../bullmq/export-counts.js';
import type { QueueScan } from '../bullmq/list-queue-names.js';
import type { QueueRef } from '../bullmq/queue-key.js';
import type { Selection, SelectionQuery } from '../bullmq/queue-selection.js';
import type { JobDetailRead, ReadJobDetailOptions } from '../bullmq/read-job-detail.js';
import type { JobLogsRead, ReadJobLogsOptions } from '../bullmq/read-job-logs.js';
import type { JobPageRead, JobPageRequest } from '../bullmq/read-job-page.js';
import type { StoreFacts as SampledFacts } from '../history/collect-sample.js';
import type { BusyQueue, QueueLatency } from '../history/sample-latency.js';
import type { QueueReading } from '../history/sample-script.js';
import type { QueueStore } from '../stores/queue-store.js';
import type { StoreClient } from '../stores/redis-client.js';
import type { StoreConnection } from '../stores/store-connection.js';
import { finishedBefore, newestFailures, queueNames } from './bullmq-schema.js';
import * as facts from './postgres-facts.js';
import { PostgresHandle, type PostgresStoreOptions } from './postgres-handle.js';
import { LargeCounts } from './large-counts.js';
import { readDetail, readLogs, readPage } from './postgres-job-reads.js';
import * as reads from './postgres-queue-reads.js';
import { SerialClean } from './serial-clean.js';

import type { JobStatus } from '../../contracts/jobs.js';
import type { ChunkFrom, JobFieldValues, StatusChunk } from '../bullmq/search-reads.js';
import type { ParsedJobKey } from '../bullmq/job-key.js';
import type { JobFieldRead, ReadJobFieldOptions } from '../bullmq/read-job-field.js';
import { jobFields, jobNameAt, parsePostgresJobKey, statusChunk } from './postgres-search.js';
import { readField } from './postgres-job-field.js';

import type { FailuresRead, FailureWindow } from '../bullmq/read-failures.js';
import type { FinishedJob, FinishedJobsRead } from '../bullmq/read-finished-jobs.js';
import type { JobChildrenRead } from '../bullmq/read-job-children.js';
import type { EventFeed, StoreEventListener } from '../events/event-feed.js';
import { failuresPage, finishedJobsSince, latenciesSince } from './postgres-finished-reads.js';
import { jobChildren } from './postgres-job-children.js';
import { replaceStacktraces } from './postgres-job-writes.js';
import { PostgresEventFeeds } from './postgres-event-feed.js';

import type { StoreMoveEnds } from '../bullmq/move-across-stores.js';
import { postgresMoveEnds } from './postgres-move-ends.js';

export type { PostgresStoreOptions } from './postgres-handle.js';

/**
 * A live PostgreSQL store (BullMQ 6's PostgreSQL backend): the QueueStore
 * seam, each method one delegation to the module that knows it (the pool and
 * Queues: postgres-handle.ts; SQL: bullmq-schema.ts and the postgres-*.ts
 * reads). Store keys do not exist here (400 NOT_A_KEY_VALUE_STORE).
 */
export class PostgresStore implements QueueStore {
  private readonly handle: PostgresHandle;
  private readonly large: LargeCounts;
  private readonly cleaner = new SerialClean(async (ref) => (await this.queueSummaries([ref]))[0]!);
  /** No tracked totals: the list counts them (one statement). */
  readonly counts = { totals: async () => undefined, close: () => undefined };
  /** BullMQ's retry_jobs picks its jobs without skipping locked rows: two at once could pick the same. */
  readonly bulkCallsInFlight = 1;

  constructor(
    readonly connection: StoreConnection,
    options: PostgresStoreOptions,
  ) {
    this.handle = new PostgresHandle(connection, options);
    this.large = new LargeCounts(options.countWindowMs ?? 0);
  }

  get prefixes(): string[] {
    return [this.handle.schema];
  }

  get defaultPrefix(): string {
    return this.handle.schema;
  }

  get client(): StoreClient {
    throw facts.notYetOnPostgres(this.connection);
  }

  keyValue(): StoreClient {
    throw facts.noStoreKeys(this.connection);
  }

  async publishQueueEvent(ref: QueueRef, fields: Record<string, string>): Promise<void> {
    await facts.publishEvent(await this.queue(ref.name), fields);
  }

  warmUp = (): Promise<void> => this.handle.warmUp();
  db = (): Promise<pg.Pool> => this.handle.db();
  queue = (name: string): Promise<Queue> => this.handle.queue(name);
  writeQueueMeta = (name: string): Promise<void> => this.handle.writeQueueMeta(name);
  close = async (): Promise<void> => {
    await this.eventFeeds.close();
    await this.handle.close();
  };

  async queuesExist(refs: readonly QueueRef[]): Promise<boolean[]> {
    return facts.queuesExistIn(await this.db(), this.handle.schema, refs);
  }

  async scanQueueNames(): Promise<QueueScan> {
    const names = await queueNames(await this.db());
    return { refs: names.map((name) => ({ prefix: this.handle.schema, name })), incomplete: [] };
  }

  async queueSummaries(refs: QueueRef[]): Promise<QueueSummary[]> {
    return reads.summariesOf(await this.db(), refs, this.large);
  }

  async selectQueues(refs: QueueRef[], query: SelectionQuery): Promise<Selection> {
    return reads.selectFromFigures(await this.db(), refs, query, this.large);
  }

  cleanStatus(queue: Queue, ref: QueueRef, status: PurgeableStatus, limit: number, gracePeriod = 0): Promise<string[]> {
    return this.cleaner.clean(queue, ref, status, limit, gracePeriod);
  }

  async countStatus(ref: QueueRef, status: JobCountKind): Promise<number> {
    const [summary] = await this.queueSummaries([ref]);
    return summary!.jobCounts[status];
  }

  async metricsSummaries(refs: QueueRef[], windowMinutes: number): Promise<MetricsSummary[]> {
    return reads.metricsSummariesOf(await this.db(), refs, windowMinutes);
  }

  async storeFacts(): Promise<StoreFacts> {
    return facts.storeFactsOf(await this.db());
  }

  async historyReadings(refs: QueueRef[], since: number, until: number): Promise<QueueReading[]> {
    return reads.historyReadingsOf(await this.db(), refs, since, until);
  }

  async historyLatencies(busy: BusyQueue[], since: number): Promise<Array<QueueLatency | null>> {
    return latenciesSince(await this.db(), busy, since);
  }

  async historyFacts(): Promise<SampledFacts> {
    return facts.historyFactsOf(await this.db());
  }

  async exportCounts(refs: QueueRef[]): Promise<ExportCounts[]> {
    return reads.exportCountsOf(await this.db(), refs);
  }

  async schedulerCounts(refs: QueueRef[]): Promise<number[]> {
    return facts.schedulerCountsOf(await this.db(), refs);
  }

  async finishedBefore(ref: QueueRef, status: 'completed' | 'failed', before: number): Promise<number> {
    return finishedBefore(await this.db(), ref.name, status, before);
  }

  async newestFailures(ref: QueueRef, limit: number): Promise<Array<{ jobId: string; failedAt: number }>> {
    return newestFailures(await this.db(), ref.name, limit);
  }

  async workerClients(): Promise<WorkerClient[]> {
    return facts.workerClientsOf(await this.db(), this.handle.schema);
  }

  async readJobPage(request: JobPageRequest): Promise<JobPageRead> {
    return readPage(await this.db(), this.handle.schema, request, this.large);
  }

  async readJobDetail(options: ReadJobDetailOptions): Promise<JobDetailRead> {
    return readDetail(await this.db(), this.handle.schema, options);
  }

  async readJobLogs(options: ReadJobLogsOptions): Promise<JobLogsRead> {
    return readLogs(await this.db(), this.handle.schema, options);
  }

  async statusChunk(queue: Queue, status: JobStatus, from: ChunkFrom, size: number): Promise<StatusChunk> {
    return statusChunk(await this.db(), queue.name, status, from, size);
  }

  async jobFields(queue: Queue, ids: readonly string[], fields: readonly string[]): Promise<JobFieldValues> {
    return jobFields(await this.db(), queue.name, ids, fields);
  }

  parseJobKey(key: string): ParsedJobKey {
    return parsePostgresJobKey(this.handle.schema, key);
  }

  async jobNameAt(key: string): Promise<string | null> {
    return jobNameAt(await this.db(), this.handle.schema, key);
  }

  async readJobField(options: ReadJobFieldOptions): Promise<JobFieldRead> {
    return readField(await this.db(), this.handle.schema, options);
  }

  // Triage, stack traces, flows, insights, events, readiness (issue 31): SQL in the modules named.
  private readonly eventFeeds = new PostgresEventFeeds(() => this.db());

  async ping(): Promise<void> {
    await (await this.db()).query('SELECT 1');
  }

  async readFailures(ref: QueueRef, window: FailureWindow): Promise<FailuresRead> {
    return failuresPage(await this.db(), ref.name, window);
  }

  async setStacktraces(ref: QueueRef, jobId: string, traces: string[]): Promise<void> {
    await replaceStacktraces(await this.db(), ref.name, jobId, traces);
  }

  async finishedJobs(
    ref: QueueRef,
    state: FinishedJob['state'],
    from: number,
    limit: number,
  ): Promise<FinishedJobsRead> {
    return finishedJobsSince(await this.db(), ref.name, state, from, limit);
  }

  async readJobChildren(ref: QueueRef, jobId: string, limit: number): Promise<JobChildrenRead> {
    return jobChildren(await this.db(), this.handle.schema, ref.name, jobId, limit);
  }

  openEventFeed(ref: QueueRef, listener: StoreEventListener): Promise<EventFeed> {
    return this.eventFeeds.open(ref.name, listener);
  }

  moveEnds(): StoreMoveEnds {
    return postgresMoveEnds(() => this.db(), { connectionId: this.connection.id, schema: this.handle.schema });
  }
}
