import type { Queue } from 'bullmq';
import type pg from 'pg';
import { loadBullmq } from '../bullmq/bullmq-module.js';
import { LruCache } from '../stores/lru-cache.js';
import type { StoreConnection } from '../stores/store-connection.js';
import type { TargetPolicy } from '../stores/target-policy.js';
import { createPostgresPool } from './postgres-pool.js';
import { checkSchema } from './schema-check.js';

export interface PostgresStoreOptions {
  policy?: TargetPolicy | undefined;
  queueCacheSize: number;
  /** How long a count past LargeCounts' cap is served (SERVICE_QUEUE_LIST_CACHE_MS); 0 or absent: every count exact. */
  countWindowMs?: number;
  timeouts: { connectMs: number; commandMs: number };
}

type BullmqPostgres = InstanceType<Awaited<ReturnType<typeof loadBullmq>>['PostgresConnection']>;

/**
 * One PostgreSQL connection's pool and BullMQ's Queue handles: one pg Pool,
 * shared by the service's own reads (bullmq-schema.ts) and BullMQ's Queues
 * (one PostgresConnection over that pool). The schema is checked once before
 * the first use (400 when missing or too new), never migrated.
 */
export class PostgresHandle {
  private readonly queues: LruCache<string, Queue>;
  private ready?: Promise<{ pool: pg.Pool; bullmq: BullmqPostgres }> | undefined;

  constructor(
    readonly connection: StoreConnection,
    private readonly options: PostgresStoreOptions,
  ) {
    this.queues = new LruCache(options.queueCacheSize, (queue) => void queue.close().catch(() => undefined));
  }

  get schema(): string {
    return this.connection.prefixes[0] ?? 'bullmq';
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
