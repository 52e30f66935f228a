import type { Redis } from 'ioredis';

/** Where Redis publishes client-side caching notices for a connection that redirects them (RESP2). */
const invalidationChannel = '__redis__:invalidate';

export interface TrackingHandlers {
  /** Keys that changed since the reader read them; null when the store was flushed. */
  onChanged(keys: string[] | null): void;
  /** Either connection dropped: notices may have been missed. Called once. */
  onLost(): void;
}

/**
 * Two connections to a store for client-side caching (CLIENT TRACKING):
 * `reader` has tracking on, so Redis remembers the keys it reads; `listener`
 * receives a notice when one of those keys changes. The listener speaks RESP2
 * so the notices arrive as Pub/Sub messages (ioredis drops RESP3 `invalidate`
 * pushes). Neither reconnects by itself: tracking does not survive a new
 * connection, so a drop closes both and the owner starts again.
 */
export class TrackingLink {
  closed = false;

  private constructor(
    readonly reader: Redis,
    private readonly listener: Redis,
    private readonly handlers: TrackingHandlers,
  ) {}

  static async open(client: Redis, handlers: TrackingHandlers): Promise<TrackingLink> {
    const once = { retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true, connectionName: 'bullpen-tracking' };
    const reader = client.duplicate(once);
    const listener = client.duplicate({ ...once, protocol: 2 });
    for (const connection of [reader, listener]) connection.on('error', () => undefined);
    try {
      await Promise.all([reader.connect(), listener.connect()]);
      const listenerId = await listener.client('ID');
      const link = new TrackingLink(reader, listener, handlers);
      listener.on('messageBuffer', (channel: Buffer, message: Buffer[] | null) => link.received(channel, message));
      await listener.subscribe(invalidationChannel);
      await reader.call('CLIENT', 'TRACKING', 'on', 'REDIRECT', String(listenerId));
      for (const connection of [reader, listener]) connection.once('close', () => link.lost());
      return link;
    } catch (error) {
      reader.disconnect();
      listener.disconnect();
      throw error;
    }
  }

  /**
   * Resolves once every notice for a write the store ran before this call
   * has been handled: the store answers the listener's PING after the
   * notices it queued for it.
   */
  async sync(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the notice connection did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.listener.ping(), late]);
    } catch (error) {
      // A link that cannot answer may be holding notices back: nothing it knows can be trusted.
      this.lost();
      throw error;
    } finally {
      clearTimeout(timer);
    }
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
    this.reader.disconnect();
    this.listener.disconnect();
  }
}
