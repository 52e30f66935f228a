import { queueEventTypes } from '../../contracts/events.js';
import { loadBullmq } from '../bullmq/bullmq-module.js';
import { bullmqAddress, queueKey, type QueueRef } from '../bullmq/queue-key.js';
import { duplicateForBlocking, type StoreClient } from '../stores/redis-client.js';
import type { EventFeed, StoreEventListener } from './event-feed.js';

/**
 * A queue's events on Redis: one BullMQ QueueEvents on its own blocking
 * connection (XREAD BLOCK on the queue's stream), starting after the newest
 * event already there so nothing emitted between opening and the first
 * blocking read is lost.
 */
export async function openRedisEventFeed(
  client: StoreClient,
  ref: QueueRef,
  listener: StoreEventListener,
): Promise<EventFeed> {
  const newest = await client.xrevrange(queueKey(ref, 'events'), '+', '-', 'COUNT', 1);
  const { QueueEvents } = await loadBullmq();
  const blocking = duplicateForBlocking(client);
  blocking.on('error', () => undefined);
  const address = bullmqAddress(ref);
  const queueEvents = new QueueEvents(address.name, {
    connection: blocking,
    prefix: address.prefix,
    lastEventId: newest[0]?.[0] ?? '0-0',
  });
  queueEvents.on('error', (error) => listener.error(error));
  for (const type of queueEventTypes) {
    queueEvents.on(
      type as never,
      ((args: Record<string, unknown> | string, id: string) =>
        listener.event(type, id, typeof args === 'object' && args !== null ? args : {})) as never,
    );
  }
  await queueEvents.waitUntilReady();
  return {
    async close() {
      await queueEvents.close().catch(() => undefined);
      blocking.disconnect();
    },
  };
}
