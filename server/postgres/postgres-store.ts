import type { Queue } from 'bullmq';
import type { PurgeableStatus } from '../../contracts/queues.js';
import type { StoreMoveEnds } from '../bullmq/move-across-stores.js';
import type { QueueRef } from '../bullmq/queue-key.js';
import type { EventFeed, StoreEventListener } from '../events/event-feed.js';
import type { QueueStore } from '../stores/queue-store.js';
import type { StoreClient } from '../stores/redis-client.js';
import * as facts from './postgres-facts.js';
import { PostgresEventFeeds } from './postgres-event-feed.js';
import { postgresMoveEnds } from './postgres-move-ends.js';
import { PostgresJobReads } from './postgres-store-jobs.js';
import { SerialClean } from './serial-clean.js';

export type { PostgresStoreOptions } from './postgres-handle.js';

/**
 * A live PostgreSQL store (BullMQ 6's PostgreSQL backend): the QueueStore seam, each method one
 * delegation to the module that knows it. Its reads come from postgres-store-base.ts (queues) and
 * postgres-store-jobs.ts (jobs, triage); here are its writes, events, readiness and moves. Store
 * keys do not exist here (400 NOT_A_KEY_VALUE_STORE).
 */
export class PostgresStore extends PostgresJobReads implements QueueStore {
  private readonly cleaner = new SerialClean(async (ref) => (await this.queueSummaries([ref]))[0]!);
  private readonly eventFeeds = new PostgresEventFeeds(() => this.db());
  /** No tracked totals: the list counts them (one statement). */
  readonly counts = { totals: async () => undefined, exportExtras: async () => undefined, close: () => undefined };
  /** BullMQ's retry_jobs picks its jobs without skipping locked rows: two at once could pick the same. */
  readonly bulkCallsInFlight = 1;

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
  writeQueueMeta = (name: string): Promise<void> => this.handle.writeQueueMeta(name);
  close = async (): Promise<void> => {
    this.large.stop();
    await this.eventFeeds.close();
    await this.handle.close();
  };

  cleanStatus(queue: Queue, ref: QueueRef, status: PurgeableStatus, limit: number, gracePeriod = 0): Promise<string[]> {
    return this.cleaner.clean(queue, ref, status, limit, gracePeriod);
  }

  async purgeCount(queue: Queue, ref: QueueRef, status: PurgeableStatus, limit: number): Promise<number> {
    return (await this.cleanStatus(queue, ref, status, limit)).length;
  }

  async ping(): Promise<void> {
    await (await this.db()).query('SELECT 1');
  }

  openEventFeed(ref: QueueRef, listener: StoreEventListener): Promise<EventFeed> {
    return this.eventFeeds.open(ref.name, listener);
  }

  moveEnds(): StoreMoveEnds {
    return postgresMoveEnds(() => this.db(), { connectionId: this.connection.id, schema: this.handle.schema });
  }
}
