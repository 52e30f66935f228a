import pg from 'pg';
import { parseEventFields, type EventFeed, type StoreEventListener } from '../events/event-feed.js';
import { readEventPage } from './event-page.js';
import { EventWindow, type EventSnapshot } from './event-window.js';

export { eventColumns } from './event-page.js';

/**
 * How often open feeds read their queue's events without a NOTIFY. BullMQ's
 * `publish_event` coalesces its `bullmq_events` NOTIFY under concurrency (one
 * publisher per queue at a time sends it; the others rely on readers polling,
 * as its own QueueEvents does every 10 s): this bounds how late such an event
 * can be. Only queues someone watches are read.
 */
export const eventPollMs = 2000;

interface QueueFeed {
  queue: string;
  listener: StoreEventListener;
  /** The ids delivered and still to read again (BullMQ's ids grow with one sequence, but commit in any order). */
  window: EventWindow;
  reading?: Promise<void> | undefined;
  again: boolean;
}

/** BullMQ's stream keeps every value as text: numbers and objects as Redis would have them. */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The event feeds of one PostgreSQL connection: ONE session that LISTENs on
 * BullMQ's `bullmq_events` channel (its payload is the queue's name) for all
 * watched queues, and per queue a cursor read of `event` rows past it (its
 * primary key, `(queue, id)`) when a NOTIFY names the queue or every
 * `eventPollMs`. The session opens with the first feed and ends with the last.
 */
export class PostgresEventFeeds {
  private readonly feeds = new Set<QueueFeed>();
  private listening?: Promise<pg.Client | undefined> | undefined;
  private timer?: NodeJS.Timeout | undefined;
  /** The session now listening, so a drop of an older one changes nothing. */
  private session?: pg.Client | undefined;

  constructor(private readonly pool: () => Promise<pg.Pool>) {}

  async open(queue: string, listener: StoreEventListener): Promise<EventFeed> {
    await this.listen();
    const { rows } = await (await this.pool()).query<{ max: string }>(
      `SELECT COALESCE(MAX(id), 0)::text AS max FROM event WHERE queue = $1`,
      [queue],
    );
    const feed: QueueFeed = { queue, listener, window: new EventWindow(BigInt(rows[0]!.max)), again: false };
    this.feeds.add(feed);
    this.timer ??= setInterval(() => this.tick(), eventPollMs).unref();
    return { close: () => this.remove(feed) };
  }

  /** Ends every feed and the listening session (the store closes). */
  async close(): Promise<void> {
    for (const feed of [...this.feeds]) await this.remove(feed);
  }

  private async remove(feed: QueueFeed): Promise<void> {
    this.feeds.delete(feed);
    await feed.reading?.catch(() => undefined);
    if (this.feeds.size > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
    const listening = this.listening;
    this.listening = undefined;
    this.session = undefined;
    const client = await listening?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  private tick(): void {
    void this.listen();
    for (const feed of this.feeds) this.read(feed);
  }

  /** The LISTEN session (a client of its own, not a pool slot); a failed or dropped one is opened again on the next tick. */
  private listen(): Promise<pg.Client | undefined> {
    this.listening ??= this.connect().catch(() => {
      this.listening = undefined;
      return undefined;
    });
    return this.listening;
  }

  private async connect(): Promise<pg.Client> {
    const pool = await this.pool();
    const client = new pg.Client({ ...(pool as unknown as { options: pg.ClientConfig }).options, keepAlive: true });
    const dropped = () => {
      if (this.session === client) {
        this.session = undefined;
        this.listening = undefined;
      }
      void client.end().catch(() => undefined);
    };
    this.session = client;
    client.on('error', dropped);
    client.on('end', dropped);
    client.on('notification', (message) => {
      for (const feed of this.feeds) if (feed.queue === message.payload) this.read(feed);
    });
    await client.connect();
    await client.query('LISTEN bullmq_events');
    return client;
  }

  /** One read at a time per feed; a wake-up during a read reads again after it. */
  private read(feed: QueueFeed): void {
    if (feed.reading) {
      feed.again = true;
      return;
    }
    feed.reading = this.drain(feed)
      .catch((error: unknown) => feed.listener.error(error as Error))
      .finally(() => {
        feed.reading = undefined;
        if (feed.again && this.feeds.has(feed)) {
          feed.again = false;
          this.read(feed);
        }
      });
  }

  /** Reads from the window's floor to the newest event, delivering the ids not delivered yet. */
  private async drain(feed: QueueFeed): Promise<void> {
    const pool = await this.pool();
    let after = feed.window.floor;
    let first: EventSnapshot | undefined;
    for (;;) {
      const { rows, full, snapshot } = await readEventPage(pool, feed.queue, after);
      first ??= snapshot;
      for (const row of rows) {
        if (!this.feeds.has(feed)) return;
        after = BigInt(row.id);
        if (!feed.window.admit(after)) continue;
        const fields = Object.fromEntries(Object.entries(row.data ?? {}).map(([key, value]) => [key, asText(value)]));
        feed.listener.event(row.event, row.id, parseEventFields(row.event, fields));
      }
      if (!full) return feed.window.settle(first, snapshot);
    }
  }
}
