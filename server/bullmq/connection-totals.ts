import type { JobCounts } from '../../contracts/queues.js';
import type { Logger } from '../logger.js';
import { LruCache } from '../stores/lru-cache.js';
import type { StoreHandle } from '../stores/store-handle.js';

/** Connection-wide job counts and when they were counted (ms since the epoch, taken as the count started). */
export interface CountedTotals {
  totals: JobCounts;
  countedAt: number;
}

export interface ConnectionTotalsOptions {
  /** How long counted totals are served (SERVICE_QUEUE_LIST_CACHE_MS); 0 counts on every request. */
  ttlMs: number;
  capacity?: number;
  now?: () => number;
  logger?: Logger;
}

/**
 * The connection-wide totals of the queue list, served for `ttlMs` after
 * they were counted. Counting them reads eight keys of every queue (about
 * 3× the store time of a sort by a count); within the window a list reads
 * only what its state and sort need. An answer served from counts older
 * than half the window starts one background recount, so a client polling
 * the list gets totals at most one window old without ever waiting for the
 * count; a list arriving after the window has passed counts again itself.
 */
export class ConnectionTotals {
  private readonly entries: LruCache<string, CountedTotals>;
  /** Background recounts under way (at most one per connection). */
  private readonly refreshing = new Map<string, Promise<void>>();
  private readonly now: () => number;

  constructor(private readonly options: ConnectionTotalsOptions) {
    this.entries = new LruCache(options.capacity ?? 1000);
    this.now = options.now ?? Date.now;
  }

  /** When a count started: pass it to `counted` with its result. */
  startCount(): number {
    return this.now();
  }

  /**
   * Totals counted within the window, or undefined (the caller counts them,
   * with what else it reads of every queue, and calls `counted`).
   * `recount` counts them alone, for a refresh ahead of the window's end.
   */
  fresh(store: StoreHandle, recount: () => Promise<JobCounts>): CountedTotals | undefined {
    const key = keyOf(store);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const age = this.now() - entry.countedAt;
    if (age >= this.options.ttlMs) return undefined;
    if (age >= this.options.ttlMs / 2 && !this.refreshing.has(key)) this.refresh(store, key, recount);
    return entry;
  }

  /** Keeps totals counted from `countedAt` on (unless newer ones are kept already). */
  counted(store: StoreHandle, counted: CountedTotals): void {
    if (this.options.ttlMs <= 0) return;
    const key = keyOf(store);
    const known = this.entries.get(key);
    if (!known || known.countedAt < counted.countedAt)
      this.entries.set(key, { totals: counted.totals, countedAt: counted.countedAt });
  }

  private refresh(store: StoreHandle, key: string, recount: () => Promise<JobCounts>): void {
    const countedAt = this.now();
    const running = recount()
      .then((totals) => this.counted(store, { totals, countedAt }))
      .catch((error: Error) =>
        this.options.logger?.warn(
          { connectionId: store.connection.id, reason: error.message },
          'background recount of queue totals failed',
        ),
      )
      .finally(() => this.refreshing.delete(key));
    this.refreshing.set(key, running);
  }

  /** Waits for the background recounts under way (tests). */
  async settled(): Promise<void> {
    await Promise.all(this.refreshing.values());
  }
}

/** A connection edited (other prefixes) is another entry: counts of the old version are never served for it. */
const keyOf = (store: StoreHandle) => `${store.connection.id}\u0000${store.connection.updatedAt.getTime()}`;
