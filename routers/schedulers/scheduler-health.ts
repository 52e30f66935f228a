import type { Scheduler } from '../../contracts/schedulers.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { loadCronParser, type CronParser } from './cron-parser-module.js';

/** Failed jobs looked at per queue (newest first): the cost of health stays one bounded read. */
export const failuresScanned = 10_000;
const recentRuns = 100;

/** When the scheduler's 100th most recent run was due: its jobs since then are its "latest 100". */
function windowStart(scheduler: Scheduler, now: number, parser: CronParser | undefined): number {
  const from = scheduler.next ? Date.parse(scheduler.next) : now;
  if (scheduler.every) return from - recentRuns * scheduler.every;
  if (!scheduler.pattern || !parser) return 0;
  const runs = parser.parse(scheduler.pattern, {
    currentDate: new Date(from),
    ...(scheduler.tz ? { tz: scheduler.tz } : {}),
  });
  let earliest = from;
  for (let run = 0; run < recentRuns; run++) {
    try {
      earliest = runs.prev().getTime();
    } catch {
      break;
    }
  }
  return earliest;
}

/** A produced job's id is `repeat:<scheduler id>:<due millis>` (the id may hold ':'). */
function producedBy(jobId: string): { schedulerId: string; dueAt: number } | null {
  if (!jobId.startsWith('repeat:')) return null;
  const cut = jobId.lastIndexOf(':');
  const dueAt = Number(jobId.slice(cut + 1));
  return cut > 7 && Number.isFinite(dueAt) ? { schedulerId: jobId.slice(7, cut), dueAt } : null;
}

/**
 * Each scheduler's `recentFailures` (failed jobs among the ones due in its latest 100 runs) and
 * `lastFailedAt`, from one read of the queue's newest failed jobs.
 */
export async function withHealth(
  store: StoreHandle,
  ref: QueueRef,
  schedulers: Scheduler[],
  now = Date.now(),
): Promise<Scheduler[]> {
  if (schedulers.length === 0) return schedulers;
  const failures = new Map<string, Array<{ dueAt: number; failedAt: number }>>();
  for (const { jobId, failedAt } of await store.newestFailures(ref, failuresScanned)) {
    const produced = producedBy(jobId);
    if (produced)
      failures.set(produced.schedulerId, [
        ...(failures.get(produced.schedulerId) ?? []),
        { dueAt: produced.dueAt, failedAt },
      ]);
  }
  // Loaded only when a cron scheduler is listed (interval ones need no parser).
  const parser = schedulers.some((scheduler) => scheduler.pattern) ? await loadCronParser() : undefined;
  return schedulers.map((scheduler) => {
    const own = failures.get(scheduler.id) ?? [];
    const since = windowStart(scheduler, now, parser);
    const last = own.length > 0 ? Math.max(...own.map((failure) => failure.failedAt)) : null;
    return {
      ...scheduler,
      recentFailures: own.filter((failure) => failure.dueAt >= since).length,
      lastFailedAt: last === null ? null : new Date(last).toISOString(),
    };
  });
}
