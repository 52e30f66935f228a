import type { Response } from 'express';

/** What an event-stream client reads before its stream closes at shutdown: reconnect (elsewhere) in half a second. */
export const reconnectEvent =
  'retry: 500\nevent: reconnect\ndata: {"reason":"the service is shutting down; reconnect"}\n\n';

/**
 * The event streams (SSE responses) open now. A stream never ends on its own, so shutdown tells each
 * client to reconnect (another replica answers) and ends it, instead of waiting for it.
 */
export class OpenStreams {
  private readonly streams = new Set<Response>();

  get size(): number {
    return this.streams.size;
  }

  /** Tracks `res` until it closes. */
  add(res: Response): void {
    this.streams.add(res);
    res.once('close', () => this.streams.delete(res));
  }

  /**
   * Sends every open stream the reconnect event and ends it; resolves once each has flushed, or after
   * `graceMs` for a client that does not read (its connection is then destroyed). Returns how many there were.
   */
  async closeAll(graceMs = 1000): Promise<number> {
    const closing = [...this.streams].map(
      (res) =>
        new Promise<void>((resolve) => {
          const stuck = setTimeout(() => res.destroy(), graceMs);
          res.once('close', () => {
            clearTimeout(stuck);
            resolve();
          });
          // An SSE response's connection is never reused: close it once the last bytes are out.
          res.end(reconnectEvent, () => res.socket?.end());
        }),
    );
    await Promise.all(closing);
    return closing.length;
  }
}
