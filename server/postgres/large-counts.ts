/**
 * Counts of one state of one queue above `cap` jobs, on PostgreSQL: BullMQ's
 * tables keep no counters, so an exact count reads every index entry (a
 * 250,000-job status takes ~50-100 ms of one backend: serial-count.ts), where
 * Redis answers ZCARD at once.
 * A count up to `cap` is read exactly by each request (a probe that stops at
 * cap + 1); a larger one is counted at most once per window: `ttlMs`
 * (SERVICE_QUEUE_LIST_CACHE_MS), or 20 times the count's own duration when
 * that is longer (counting then takes at most ~5 % of a database core),
 * recounted in the background once 80 % of the window has passed, so
 * requests in steady use never wait for it and no count served is older
 * than its window. A count asked for within its last `warmWindows` windows
 * is recounted by a timer at 80 % of its window too, so a reader paging
 * with pauses of a few seconds (longer than the window, shorter than that)
 * does not wait for it either; an idle one stops being counted after
 * them. `ttlMs` 0 counts exactly every time.
 */
export class LargeCounts {
  private readonly known = new Map<string, { count: number; at: number; windowMs: number }>();
  private readonly counting = new Map<string, Promise<number>>();
  /** When each count was last asked for, and how to count it (what the timers recount). */
  private readonly asked = new Map<string, { at: number; exact: () => Promise<number> }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly ttlMs: number,
    readonly cap = 1000,
    private readonly warmWindows = 3,
  ) {}

  /** The LIMIT a counting probe takes: cap + 1, or null (no limit) when every count is exact. */
  get probeLimit(): number | null {
    return this.ttlMs > 0 ? this.cap + 1 : null;
  }

  /** Whether a probe's answer stopped at the limit (the count is larger). */
  stoppedAtLimit(probed: number): boolean {
    return this.ttlMs > 0 && probed > this.cap;
  }

  /** The count of `key`, counted by `exact` when none is fresh. */
  count(key: string, exact: () => Promise<number>): Promise<number> {
    this.asked.set(key, { at: Date.now(), exact });
    const known = this.known.get(key);
    const age = known ? Date.now() - known.at : Number.POSITIVE_INFINITY;
    if (known && age < known.windowMs) {
      if (age >= known.windowMs * 0.8) void this.recount(key, exact).catch(() => undefined);
      return Promise.resolve(known.count);
    }
    return this.recount(key, exact);
  }

  /** One count per key at a time: concurrent requests share it. */
  private recount(key: string, exact: () => Promise<number>): Promise<number> {
    const pending = this.counting.get(key);
    if (pending) return pending;
    const startedAt = Date.now();
    const next = exact()
      .then((count) => {
        this.remember(key, count, startedAt, Math.max(this.ttlMs, 20 * (Date.now() - startedAt)));
        return count;
      })
      .finally(() => this.counting.delete(key));
    this.counting.set(key, next);
    return next;
  }

  private remember(key: string, count: number, at: number, windowMs: number): void {
    if (this.known.size >= 10_000)
      for (const [old, entry] of this.known) if (Date.now() - entry.at >= entry.windowMs) this.known.delete(old);
    this.known.set(key, { count, at, windowMs });
    this.keepWarm(key, windowMs);
  }

  /** The next recount of a count asked for within its last `warmWindows` windows, due at 80 % of its window. */
  private keepWarm(key: string, windowMs: number): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    const asked = this.asked.get(key);
    if (this.stopped || !asked || Date.now() - asked.at > this.warmWindows * windowMs) {
      this.asked.delete(key);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(key);
      void this.recount(key, asked.exact).catch(() => undefined);
    }, windowMs * 0.8);
    timer.unref();
    this.timers.set(key, timer);
  }

  /** No more timed recounts (the store is closing). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
