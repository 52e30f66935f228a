/**
 * Keeps a run at or under `maxPerSecond`: after each batch it sleeps until the time the processed
 * count would have taken at that rate. No limit: never sleeps.
 */
export class Throttle {
  private readonly startedAt = Date.now();
  private processed = 0;

  constructor(private readonly maxPerSecond: number | null | undefined) {}

  add(count: number): void {
    this.processed += count;
  }

  async wait(): Promise<void> {
    if (!this.maxPerSecond) return;
    const due = this.startedAt + (this.processed / this.maxPerSecond) * 1000;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * Jobs a handler acts on between two progress calls. Unthrottled, fifty batches: each call is a cancel check
 * (and, at most once a second, a database write) that holds the loop for a few ms, and at each the handler's
 * calls in flight drain before the next ones go, leaving the store idle meanwhile: at 1,000 jobs a call that
 * cost a million-job retry a third of its time, and at 10,000 a million-job purge (~6 s) about a tenth.
 * A cancel takes effect within one such stretch (~0.3 s of a purge or retry, ~1 s of a move). Throttled,
 * one batch, so the rate is kept batch by batch as before.
 */
export const jobsPerProgress = (maxPerSecond: number | null | undefined) =>
  maxPerSecond ? Math.min(1000, maxPerSecond) : 50_000;

/**
 * Whether a handler's progress call is written to the database. Throttled, every one (the rate is kept
 * record by record). Unthrottled, at most one a second: a record is a database write, a cancel check and
 * a progress event, a few ms of the service's CPU each, which on a busy host is CPU Redis then lacks.
 * The first record carrying a `total`, and any once the runner is stopping, are always written.
 */
export class RecordGate {
  private lastAt = Number.NEGATIVE_INFINITY;
  private totalWritten = false;

  constructor(
    private readonly maxPerSecond: number | null | undefined,
    private readonly everyMs = 1000,
  ) {}

  due(withTotal: boolean, stopping: boolean): boolean {
    const firstTotal = withTotal && !this.totalWritten;
    return Boolean(this.maxPerSecond) || firstTotal || stopping || Date.now() - this.lastAt >= this.everyMs;
  }

  recorded(withTotal: boolean): void {
    this.lastAt = Date.now();
    this.totalWritten ||= withTotal;
  }
}
