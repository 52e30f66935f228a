import type { QueueSummary } from '../../contracts/queues.js';
import { defaultScanLimits, scanQueueNames, type QueueScan, type ScanLimits } from '../bullmq/list-queue-names.js';
import { keyed, runPipelined } from '../bullmq/pipelined.js';
import { pipelinePerQueue } from '../bullmq/pipeline-per-queue.js';
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
import type { QueueStore } from './queue-store.js';
import { listWorkerClients, type WorkerClient } from '../bullmq/client-list.js';
import { RedisStoreJobs } from './redis-store-jobs.js';

/** What procedures hold of a connection's store: the seam (queue-store.ts), whatever its kind. */
export type StoreHandle = QueueStore;

/**
 * A live Redis store (the connection part in redis-store-base.ts, job reads in redis-store-jobs.ts);
 * here the reads over many queues: existence, discovery, summaries, selection, metrics, history.
 */
export class RedisStore extends RedisStoreJobs implements QueueStore {
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

  workerClients(warnings: string[]): Promise<WorkerClient[] | null> {
    return listWorkerClients(this, warnings);
  }
}
