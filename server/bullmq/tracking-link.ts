import type { Redis } from 'ioredis';

/** Where Redis publishes client-side caching notices for a connection that redirects them (RESP2). */
const invalidationChannel = '__redis__:invalidate';

export interface TrackingHandlers {
  /** Keys written under the tracked prefixes; null when the store was flushed. */
  onChanged(keys: string[] | null): void;
  /** Either connection dropped or stopped answering: notices may have been missed. Called once. */
  onLost(): void;
}

/** What the count tracker holds: one link, or one per master of a cluster (TrackingGroup). */
export interface Tracking {
  readonly closed: boolean;
  sync(timeoutMs: number): Promise<void>;
  closeWhenIdle(idleMs: number, idleFor: () => number): void;
  close(): void;
}

/**
 * Prefixes Redis accepts for one client: none may start another (Redis
 * refuses overlapping ones), and a shorter one already covers the longer.
 */
export function trackablePrefixes(keyPrefixes: readonly string[]): string[] {
  const sorted = [...new Set(keyPrefixes.map((prefix) => `${prefix}:`))].sort();
  return sorted.filter((prefix, index) => !sorted.slice(0, index).some((shorter) => prefix.startsWith(shorter)));
}

/**
 * Client-side caching (CLIENT TRACKING) in broadcast mode over two
 * connections to a store: `control` turns tracking on for the connection's
 * key prefixes, and `listener` receives a notice listing the keys written
 * under them, whoever writes them. Broadcast mode keeps one entry per prefix
 * in the store, dropped when the connection closes; the default mode keeps
 * one per key read and per connection that read it, and Redis drops those
 * only when the key changes: every reconnect or restart would leave ~50
 * bytes a key behind on idle queues (measured: +80,000 entries and ~4 MB
 * per connection at 10,000 queues). The listener speaks RESP2 so notices
 * arrive as Pub/Sub messages (ioredis drops RESP3 `invalidate` pushes).
 * Neither reconnects by itself: a drop closes both and the owner starts over.
 */
export class TrackingLink implements Tracking {
  closed = false;
  private idleTimer?: NodeJS.Timeout | undefined;

  private constructor(
    private readonly control: Redis,
    private readonly listener: Redis,
    private readonly handlers: TrackingHandlers,
  ) {}

  static async open(client: Redis, keyPrefixes: readonly string[], handlers: TrackingHandlers): Promise<TrackingLink> {
    const once = {
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
      connectionName: 'bullpen-tracking',
    };
    const control = client.duplicate(once);
    const listener = client.duplicate({ ...once, protocol: 2 });
    for (const connection of [control, listener]) connection.on('error', () => undefined);
    try {
      await Promise.all([control.connect(), listener.connect()]);
      const listenerId = await listener.client('ID');
      const link = new TrackingLink(control, listener, handlers);
      listener.on('messageBuffer', (channel: Buffer, message: Buffer[] | null) => link.received(channel, message));
      await listener.subscribe(invalidationChannel);
      const prefixes = trackablePrefixes(keyPrefixes).flatMap((prefix) => ['PREFIX', prefix]);
      await control.call('CLIENT', 'TRACKING', 'on', 'REDIRECT', String(listenerId), 'BCAST', ...prefixes);
      for (const connection of [control, listener]) connection.once('close', () => link.lost());
      return link;
    } catch (error) {
      control.disconnect();
      listener.disconnect();
      throw error;
    }
  }

  /**
   * Resolves once every notice for a write the store ran before this call
   * has been handled: the store answers the listener's PING after the
   * notices it queued for it. A link that does not answer in time may be
   * holding notices back: it is closed, and nothing it told can be trusted.
   */
  async sync(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the notice connection did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([this.listener.ping(), late]);
    } catch (error) {
      this.lost();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the link, as a loss (the owner forgets what it told), once `idleFor()` reaches `idleMs`: no notices while nobody asks. */
  closeWhenIdle(idleMs: number, idleFor: () => number): void {
    const check = () => {
      const idle = idleFor();
      if (idle >= idleMs) this.lost();
      else this.idleTimer = setTimeout(check, idleMs - idle).unref();
    };
    this.idleTimer = setTimeout(check, idleMs).unref();
  }

  /** A command on the tracking connection itself (the node it tracks: a cluster's checks of its masters). */
  ask(command: string, ...args: string[]): Promise<unknown> {
    return this.control.call(command, ...args);
  }

  private received(channel: Buffer, message: Buffer[] | null): void {
    if (channel.toString() !== invalidationChannel) return;
    this.handlers.onChanged(message === null ? null : message.map((key) => key.toString()));
  }

  private lost(): void {
    if (this.closed) return;
    this.close();
    this.handlers.onLost();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.control.disconnect();
    this.listener.disconnect();
  }
}
