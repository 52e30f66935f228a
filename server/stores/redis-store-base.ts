import type { Queue } from 'bullmq';
import { loadBullmq } from '../bullmq/bullmq-module.js';
import type { StoreClient } from './redis-client.js';
import type { StoreConnection } from './store-connection.js';
import { LruCache } from './lru-cache.js';
import { bullmqAddress } from '../bullmq/queue-key.js';
import { CountTracker, type CountTrackerOptions } from '../bullmq/count-tracker.js';
import { spansSlots, spansSlotsError } from '../bullmq/cluster-slots.js';
import { queueKey, type QueueRef } from '../bullmq/queue-key.js';
import { redisStatusCleaning, type StatusCleaning } from '../bullmq/status-cleaning.js';

/** Events kept on a queue's stream by publishQueueEvent (BullMQ's default). */
const eventsKept = 10_000;

/**
 * A live Redis store's connection-level part: one shared client for the connection, and BullMQ Queue
 * handles over it, created on demand and kept in a bounded LRU so memory stays flat however many queues
 * the store holds. Job reads (redis-store-jobs.ts) and queue-level reads (store-handle.ts) build on it.
 */
export class RedisStoreBase {
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

  purgeCount(...args: Parameters<StatusCleaning['purgeCount']>): Promise<number> {
    return this.cleaning.purgeCount(...args);
  }

  countStatus(...args: Parameters<StatusCleaning['countStatus']>): Promise<number> {
    return this.cleaning.countStatus(...args);
  }

  async warmUp(): Promise<void> {
    await this.client.ping();
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async publishQueueEvent(ref: QueueRef, fields: Record<string, string>): Promise<void> {
    await this.client.xadd(queueKey(ref, 'events'), 'MAXLEN', '~', eventsKept, '*', ...Object.entries(fields).flat());
  }

  keyValue(): StoreClient {
    return this.client;
  }

  async close(): Promise<void> {
    this.counts.close();
    await Promise.allSettled(this.queues.drain().map((queue) => queue.close()));
    this.client.disconnect();
  }
}
