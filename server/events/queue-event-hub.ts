import { queueEventTypes, type QueueEvent, type QueueEventType } from '../../contracts/events.js';
import { toJobState } from '../bullmq/job-state.js';
import type { Logger } from '../logger.js';
import type { StoreHandle } from '../stores/store-handle.js';
import type { EventFeed } from './event-feed.js';

export type QueueEventListener = (event: QueueEvent) => void;

interface Feed {
  source: EventFeed;
  listeners: Set<QueueEventListener>;
}

const knownTypes = new Set<string>(queueEventTypes);

/** The state a job is in right after each event; events without a job have none. */
const stateAfter: Partial<Record<QueueEventType, string>> = {
  added: 'waiting',
  waiting: 'waiting',
  active: 'active',
  progress: 'active',
  completed: 'completed',
  failed: 'failed',
  delayed: 'delayed',
  stalled: 'waiting',
  removed: 'removed',
};

function toQueueEvent(type: QueueEventType, queueName: string, id: string, args: Record<string, unknown>): QueueEvent {
  const event: QueueEvent = { type, queueName, id };
  if (typeof args.jobId === 'string') event.jobId = args.jobId;
  if (stateAfter[type] && event.jobId) event.state = stateAfter[type];
  if (typeof args.prev === 'string') event.prev = toJobState(args.prev);
  if (typeof args.failedReason === 'string') event.failedReason = args.failedReason;
  if (type === 'progress') event.progress = args.data;
  if (type === 'delayed' && args.delay !== undefined) event.delay = Number(args.delay);
  if (type === 'completed') event.returnvalue = args.returnvalue;
  return event;
}

/**
 * Live queue events for any number of subscribers from ONE feed of the
 * store per queue (on Redis a BullMQ QueueEvents on its own blocking
 * connection; on PostgreSQL reads of BullMQ's event table woken by its
 * NOTIFY, see server/postgres/postgres-event-feed.ts), opened by the first
 * subscriber and closed when the last one leaves.
 */
export class QueueEventHub {
  private readonly feeds = new Map<string, Promise<Feed>>();

  constructor(private readonly logger: Logger) {}

  private subscriberCount = 0;

  /** Number of open QueueEvents feeds (one per watched queue). */
  get openFeeds(): number {
    return this.feeds.size;
  }

  /** Number of subscribers currently receiving events. */
  get subscribers(): number {
    return this.subscriberCount;
  }

  /** Resolves once events after this moment will reach `listener`; call the returned function to leave. */
  async subscribe(
    store: StoreHandle,
    queueName: string,
    prefix: string,
    options: { includeData: boolean },
    onEvent: QueueEventListener,
  ): Promise<() => Promise<void>> {
    const key = [store.connection.id, store.connection.updatedAt.getTime(), prefix, queueName].join('\u0000');
    let feed = this.feeds.get(key);
    if (!feed) {
      feed = this.openFeed(store, queueName, prefix);
      this.feeds.set(key, feed);
      feed.catch(() => this.feeds.delete(key));
    }
    const opened = await feed;
    const listener: QueueEventListener = options.includeData
      ? onEvent
      : ({ returnvalue: _omitted, ...withoutData }) => onEvent(withoutData);
    opened.listeners.add(listener);
    this.subscriberCount++;
    return async () => {
      if (opened.listeners.delete(listener)) this.subscriberCount--;
      if (opened.listeners.size > 0 || this.feeds.get(key) !== feed) return;
      this.feeds.delete(key);
      await this.closeFeed(opened);
    };
  }

  async closeAll(): Promise<void> {
    const feeds = [...this.feeds.values()];
    this.feeds.clear();
    await Promise.allSettled(feeds.map(async (feed) => this.closeFeed(await feed)));
  }

  private async openFeed(store: StoreHandle, queueName: string, prefix: string): Promise<Feed> {
    const listeners = new Set<QueueEventListener>();
    const source = await store.openEventFeed(
      { prefix, name: queueName },
      {
        event: (type, id, args) => {
          if (!knownTypes.has(type)) return;
          const event = toQueueEvent(type as QueueEventType, queueName, id, args);
          for (const listener of listeners) listener(event);
        },
        error: (error) => this.logger.debug({ queueName, reason: error.name }, 'queue events error'),
      },
    );
    return { source, listeners };
  }

  private async closeFeed(feed: Feed): Promise<void> {
    await feed.source.close();
  }
}
