import type { Queue } from 'bullmq';
import type pg from 'pg';
import { AppError } from '../../contracts/app-error.js';
import type { JobCountKind, PurgeableStatus, QueueSummary } from '../../contracts/queues.js';
import { loadBullmq } from '../bullmq/bullmq-module.js';
import type { QueueScan } from '../bullmq/list-queue-names.js';
import type { QueueRef } from '../bullmq/queue-key.js';
import type { Selection, SelectionQuery } from '../bullmq/queue-selection.js';
import type { JobDetailRead, ReadJobDetailOptions } from '../bullmq/read-job-detail.js';
import type { JobLogsRead, ReadJobLogsOptions } from '../bullmq/read-job-logs.js';
import type { JobPageRead, JobPageRequest } from '../bullmq/read-job-page.js';
import { LruCache } from '../stores/lru-cache.js';
import type { QueueStore } from '../stores/queue-store.js';
import type { StoreClient } from '../stores/redis-client.js';
import type { StoreConnection } from '../stores/store-connection.js';
import type { TargetPolicy } from '../stores/target-policy.js';
import {
  existingQueues,
  finishedBefore,
  newestFailures,
  queueNames,
  schedulerCounts,
  serverFacts,
  workerSessions,
} from './bullmq-schema.js';
import type { QueueSummary as MetricsSummary, StoreFacts } from '../../contracts/metrics.js';
import type { WorkerClient } from '../bullmq/client-list.js';
import { createPostgresPool } from './postgres-pool.js';
import { readDetail, readLogs, readPage } from './postgres-job-reads.js';
import type { QueueReading } from '../history/sample-script.js';
import type { BusyQueue, QueueLatency } from '../history/sample-latency.js';
import type { StoreFacts as SampledFacts } from '../history/collect-sample.js';
import {
  exportCountsOf,
  historyReadingsOf,
  metricsSummariesOf,
  selectFromFigures,
  summariesOf,
} from './postgres-queue-reads.js';
import type { ExportCounts } from '../bullmq/export-counts.js';
import { checkSchema } from './schema-check.js';
import type { JobStatus } from '../../contracts/jobs.js';
import type { ChunkFrom, JobFieldValues, StatusChunk } from '../bullmq/search-reads.js';
import type { ParsedJobKey } from '../bullmq/job-key.js';
import type { JobFieldRead, ReadJobFieldOptions } from '../bullmq/read-job-field.js';
import { jobFields, jobNameAt, parsePostgresJobKey, statusChunk } from './postgres-search.js';
import { readField } from './postgres-job-field.js';

export interface PostgresStoreOptions {
  policy?: TargetPolicy | undefined;
  queueCacheSize: number;
  timeouts: { connectMs: number; commandMs: number };
}

type BullmqPostgres = InstanceType<Awaited<ReturnType<typeof loadBullmq>>['PostgresConnection']>;

/**
 * A live PostgreSQL store (BullMQ 6's PostgreSQL backend): one pg Pool for
 * the connection, shared by the service's own reads (bullmq-schema.ts) and
 * BullMQ's Queue handles (one PostgresConnection over that pool). The schema
 * is checked once before the first use (400 when missing or too new), never
 * migrated. Store keys do not exist here (400 NOT_A_KEY_VALUE_STORE).
 */
export class PostgresStore implements QueueStore {
  private readonly queues: LruCache<string, Queue>;
  private ready?: Promise<{ pool: pg.Pool; bullmq: BullmqPostgres }> | undefined;
  /** The last clean sent per queue: BullMQ's PostgreSQL clean reports the ids it selected, so two at once would both report the same jobs. */
  private readonly cleaning = new Map<string, Promise<unknown>>();
  /** No tracked totals: the list counts them (one statement). */
  readonly counts = { totals: async () => undefined, close: () => undefined };

  constructor(
    readonly connection: StoreConnection,
    private readonly options: PostgresStoreOptions,
  ) {
    this.queues = new LruCache(options.queueCacheSize, (queue) => void queue.close().catch(() => undefined));
  }

  get prefixes(): string[] {
    return [this.schema];
  }

  get defaultPrefix(): string {
    return this.schema;
  }

  private get schema(): string {
    return this.connection.prefixes[0] ?? 'bullmq';
  }

  get client(): StoreClient {
    throw new AppError(
      'NOT_SUPPORTED_BY_BACKEND',
      `This route does not work on PostgreSQL connections yet (connection "${this.connection.name}")`,
      {
        connectionId: this.connection.id,
        kind: 'postgres',
      },
    );
  }

  keyValue(): StoreClient {
    throw new AppError(
      'NOT_A_KEY_VALUE_STORE',
      `Connection "${this.connection.name}" holds its queues in PostgreSQL: it has no store keys`,
      {
        connectionId: this.connection.id,
      },
    );
  }

  /** The pool, once the schema passed its check; a failure is not kept (the next call tries again). */
  private open(): Promise<{ pool: pg.Pool; bullmq: BullmqPostgres }> {
    this.ready ??= this.connect().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async connect() {
    const pool = await createPostgresPool(this.connection, {
      schema: this.schema,
      policy: this.options.policy,
      connectMs: this.options.timeouts.connectMs,
      statementMs: this.options.timeouts.commandMs,
    });
    try {
      await checkSchema(pool, this.schema, this.connection.id);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
    const { PostgresConnection } = await loadBullmq();
    const bullmq = new PostgresConnection(pool);
    // Over a pool it did not build BullMQ assumes the default schema for its own check; the pool's search_path is this one.
    (bullmq as { schema: string }).schema = this.schema;
    bullmq.on('error', () => undefined);
    return { pool, bullmq };
  }

  /** Through BullMQ's PostgreSQL backend (its event table), which bounds what it keeps. */
  async publishQueueEvent(ref: QueueRef, fields: Record<string, string>): Promise<void> {
    const queue = await this.queue(ref.name);
    await (
      queue.backend as unknown as { publishEvent(fields: Record<string, string>, maxEvents: number): Promise<string> }
    ).publishEvent(fields, 10_000);
  }

  async warmUp(): Promise<void> {
    await this.open();
  }

  async db(): Promise<pg.Pool> {
    return (await this.open()).pool;
  }

  async queue(name: string): Promise<Queue> {
    const known = this.queues.get(name);
    if (known) return known;
    const made = await this.makeQueue(name, true);
    const raced = this.queues.get(name);
    if (raced) {
      void made.close();
      return raced;
    }
    this.queues.set(name, made);
    return made;
  }

  /** A Queue on the shared PostgresConnection (never closed by the Queue). skipMetasUpdate: looking must not create the queue. */
  private async makeQueue(name: string, skipMetasUpdate: boolean): Promise<Queue> {
    const { bullmq } = await this.open();
    const { Queue, PostgresQueueBackend } = await loadBullmq();
    const factory = (queueName: string, opts: object) =>
      new PostgresQueueBackend(bullmq, queueName, opts as never, false);
    const queue = new Queue(
      name,
      { connection: bullmq.pool, skipMetasUpdate, skipWaitingForReady: true } as never,
      factory as never,
    ) as unknown as Queue;
    queue.on('error', () => undefined);
    return queue;
  }

  async writeQueueMeta(name: string): Promise<void> {
    const producer = await this.makeQueue(name, false);
    try {
      await producer.getVersion();
    } finally {
      await producer.close();
    }
  }

  async queuesExist(refs: readonly QueueRef[]): Promise<boolean[]> {
    const found = await existingQueues(
      await this.db(),
      refs.map((ref) => ref.name),
    );
    return refs.map((ref) => ref.prefix === this.schema && found.has(ref.name));
  }

  async scanQueueNames(): Promise<QueueScan> {
    const names = await queueNames(await this.db());
    return { refs: names.map((name) => ({ prefix: this.schema, name })), incomplete: [] };
  }

  async queueSummaries(refs: QueueRef[]): Promise<QueueSummary[]> {
    return summariesOf(await this.db(), refs);
  }

  async selectQueues(refs: QueueRef[], query: SelectionQuery): Promise<Selection> {
    return selectFromFigures(await this.db(), refs, query);
  }

  /**
   * BullMQ's PostgreSQL clean takes `paused` and `wait` alike (both are
   * `waiting` rows): the status that does not apply to the queue now (see
   * postgres-queue-reads.ts) removes nothing, as on Redis.
   */
  cleanStatus(queue: Queue, ref: QueueRef, status: PurgeableStatus, limit: number, gracePeriod = 0): Promise<string[]> {
    const previous = this.cleaning.get(ref.name) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.cleanNow(queue, ref, status, limit, gracePeriod));
    this.cleaning.set(ref.name, next);
    void next
      .finally(() => this.cleaning.get(ref.name) === next && this.cleaning.delete(ref.name))
      .catch(() => undefined);
    return next;
  }

  private async cleanNow(
    queue: Queue,
    ref: QueueRef,
    status: PurgeableStatus,
    limit: number,
    gracePeriod: number,
  ): Promise<string[]> {
    if (status === 'waiting' || status === 'paused') {
      const [summary] = await this.queueSummaries([ref]);
      if (summary!.isPaused !== (status === 'paused')) return [];
      return queue.clean(gracePeriod, limit, 'wait');
    }
    return queue.clean(gracePeriod, limit, status);
  }

  async countStatus(ref: QueueRef, status: JobCountKind): Promise<number> {
    const [summary] = await this.queueSummaries([ref]);
    return summary!.jobCounts[status];
  }

  async metricsSummaries(refs: QueueRef[], windowMinutes: number): Promise<MetricsSummary[]> {
    return metricsSummariesOf(await this.db(), refs, windowMinutes);
  }

  async storeFacts(): Promise<StoreFacts> {
    const facts = await serverFacts(await this.db());
    return {
      mode: 'standalone',
      nodes: 1,
      version: facts.version,
      usedMemoryBytes: null,
      connectedClients: facts.sessions,
      uptimeSeconds: facts.uptimeSeconds,
    };
  }

  async historyReadings(refs: QueueRef[], since: number, until: number): Promise<QueueReading[]> {
    return historyReadingsOf(await this.db(), refs, since, until);
  }

  /** Not measured on PostgreSQL yet: the history keeps latency null for these queues. */
  async historyLatencies(busy: BusyQueue[]): Promise<Array<QueueLatency | null>> {
    return busy.map(() => null);
  }

  async historyFacts(): Promise<SampledFacts> {
    const facts = await serverFacts(await this.db());
    return { up: true, usedMemory: null, maxMemory: null, clients: facts.sessions, opsPerSecond: null };
  }

  async exportCounts(refs: QueueRef[]): Promise<ExportCounts[]> {
    return exportCountsOf(await this.db(), refs);
  }

  async schedulerCounts(refs: QueueRef[]): Promise<number[]> {
    const counts = await schedulerCounts(
      await this.db(),
      refs.map((ref) => ref.name),
    );
    return refs.map((ref) => counts.get(ref.name) ?? 0);
  }

  async finishedBefore(ref: QueueRef, status: 'completed' | 'failed', before: number): Promise<number> {
    return finishedBefore(await this.db(), ref.name, status, before);
  }

  async newestFailures(ref: QueueRef, limit: number): Promise<Array<{ jobId: string; failedAt: number }>> {
    return newestFailures(await this.db(), ref.name, limit);
  }

  async workerClients(): Promise<WorkerClient[]> {
    const sessions = await workerSessions(await this.db());
    return sessions.map(({ queue, workerName, fields }) => ({
      prefix: this.schema,
      queueName: queue,
      workerName,
      fields,
    }));
  }

  async readJobPage(request: JobPageRequest): Promise<JobPageRead> {
    return readPage(await this.db(), this.schema, request);
  }

  async readJobDetail(options: ReadJobDetailOptions): Promise<JobDetailRead> {
    return readDetail(await this.db(), this.schema, options);
  }

  async readJobLogs(options: ReadJobLogsOptions): Promise<JobLogsRead> {
    return readLogs(await this.db(), this.schema, options);
  }

  async statusChunk(queue: Queue, status: JobStatus, from: ChunkFrom, size: number): Promise<StatusChunk> {
    return statusChunk(await this.db(), queue.name, status, from, size);
  }

  async jobFields(queue: Queue, ids: readonly string[], fields: readonly string[]): Promise<JobFieldValues> {
    return jobFields(await this.db(), queue.name, ids, fields);
  }

  parseJobKey(key: string): ParsedJobKey {
    return parsePostgresJobKey(this.schema, key);
  }

  async jobNameAt(key: string): Promise<string | null> {
    return jobNameAt(await this.db(), this.schema, key);
  }

  async readJobField(options: ReadJobFieldOptions): Promise<JobFieldRead> {
    return readField(await this.db(), this.schema, options);
  }

  async close(): Promise<void> {
    const ready = this.ready;
    this.ready = undefined;
    await Promise.allSettled(this.queues.drain().map((queue) => queue.close()));
    const opened = await ready?.catch(() => undefined);
    if (!opened) return;
    await opened.bullmq.close().catch(() => undefined);
    await opened.pool.end().catch(() => undefined);
  }
}
