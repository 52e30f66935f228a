import type { Queue } from 'bullmq';
import type { PurgeableStatus, QueueSummary } from '../../contracts/queues.js';
import type { QueueRef } from '../bullmq/queue-key.js';

/**
 * Cleans one after the other per queue: BullMQ's PostgreSQL clean reports
 * the ids it selected, so two at once would both report the same jobs.
 */
export class SerialClean {
  /** The last clean sent per queue. */
  private readonly cleaning = new Map<string, Promise<unknown>>();

  constructor(private readonly summaryOf: (ref: QueueRef) => Promise<QueueSummary>) {}

  clean(queue: Queue, ref: QueueRef, status: PurgeableStatus, limit: number, gracePeriod: number): Promise<string[]> {
    const previous = this.cleaning.get(ref.name) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.cleanNow(queue, ref, status, limit, gracePeriod));
    this.cleaning.set(ref.name, next);
    void next
      .finally(() => this.cleaning.get(ref.name) === next && this.cleaning.delete(ref.name))
      .catch(() => undefined);
    return next;
  }

  /**
   * BullMQ's PostgreSQL clean takes `paused` and `wait` alike (both are
   * `waiting` rows): the status that does not apply to the queue now (see
   * postgres-queue-reads.ts) removes nothing, as on Redis.
   */
  private async cleanNow(
    queue: Queue,
    ref: QueueRef,
    status: PurgeableStatus,
    limit: number,
    gracePeriod: number,
  ): Promise<string[]> {
    if (status === 'waiting' || status === 'paused') {
      const summary = await this.summaryOf(ref);
      if (summary.isPaused !== (status === 'paused')) return [];
      return queue.clean(gracePeriod, limit, 'wait');
    }
    return queue.clean(gracePeriod, limit, status);
  }
}
