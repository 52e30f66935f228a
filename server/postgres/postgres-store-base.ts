import type { Queue } from 'bullmq';
import type pg from 'pg';
import type { QueueSummary as MetricsSummary, StoreFacts } from '../../contracts/metrics.js';
import type { JobCountKind, QueueSummary } from '../../contracts/queues.js';
import type { WorkerClient } from '../bullmq/client-list.js';
import type { ExportCounts } from '../bullmq/export-counts.js';
import type { QueueScan } from '../bullmq/list-queue-names.js';
import type { QueueRef } from '../bullmq/queue-key.js';
import type { Selection, SelectionQuery } from '../bullmq/queue-selection.js';
import type { StoreFacts as SampledFacts } from '../history/collect-sample.js';
import type { BusyQueue, QueueLatency } from '../history/sample-latency.js';
import type { QueueReading } from '../history/sample-script.js';
import type { StoreConnection } from '../stores/store-connection.js';
import { finishedBefore, newestFailures, queueNames } from './bullmq-schema.js';
import * as facts from './postgres-facts.js';
import { latenciesSince } from './postgres-finished-reads.js';
import { PostgresHandle, type PostgresStoreOptions } from './postgres-handle.js';
import { LargeCounts } from './large-counts.js';
import * as reads from './postgres-queue-reads.js';

/**
 * What every part of a PostgreSQL store stands on (the pool and Queues: postgres-handle.ts), and its
 * queue-level reads: discovery, summaries, counts, metrics, history and the store's facts. The job
 * reads extend it (postgres-store-jobs.ts), the store itself extends those (postgres-store.ts).
 */
export abstract class PostgresStoreBase {
  protected readonly handle: PostgresHandle;
  protected readonly large: LargeCounts;

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

  db = (): Promise<pg.Pool> => this.handle.db();
  queue = (name: string): Promise<Queue> => this.handle.queue(name);

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
}
