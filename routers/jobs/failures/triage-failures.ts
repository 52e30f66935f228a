import {
  failureExampleCount,
  type FailureGroup,
  type FailureTriage,
  type ListFailuresInput,
} from '../../../contracts/job-failures.js';
import type { ResolvedQueue } from '../../../server/bullmq/resolve-queue.js';
import type { StoreHandle } from '../../../server/stores/store-handle.js';
import {
  advance,
  decodeFailuresCursor,
  encodeFailuresCursor,
  failuresFingerprint,
  type FailuresPosition,
} from './failures-cursor.js';
import { errorClassOf, normaliseReason } from './normalise-reason.js';
import type { FailedJob } from '../../../server/bullmq/read-failures.js';

const unitMs = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `24h` → milliseconds (the contract has checked the shape). */
export function windowMs(window: string): number {
  return Number(window.slice(0, -1)) * unitMs[window.slice(-1) as keyof typeof unitMs];
}

/** Jobs (read newest failure first) grouped by error class and normalised reason, most frequent first. */
export function groupFailures(jobs: FailedJob[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const job of jobs) {
    const errorClass = errorClassOf(job.stackFirstLine);
    const reason = normaliseReason(job.reason);
    const key = JSON.stringify([errorClass, reason]);
    const group = groups.get(key);
    if (!group) {
      groups.set(key, {
        errorClass,
        reason,
        exampleReason: job.reason,
        count: 1,
        firstSeen: job.finishedOn,
        lastSeen: job.finishedOn,
        exampleIds: [job.id],
      });
      continue;
    }
    group.count += 1;
    group.firstSeen = Math.min(group.firstSeen, job.finishedOn);
    group.lastSeen = Math.max(group.lastSeen, job.finishedOn);
    if (group.exampleIds.length < failureExampleCount) group.exampleIds.push(job.id);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || b.lastSeen - a.lastSeen);
}

/**
 * One page of a queue's failure triage: up to `limit` failed jobs of the
 * window, newest failure first, read as reason, finish time and the first
 * line of the latest stack trace, grouped. The cursor continues below the
 * last failure time read (see FailuresPosition).
 */
export async function triageFailures(
  options: { store: StoreHandle; queue: ResolvedQueue; now?: number } & Pick<
    ListFailuresInput,
    'window' | 'limit' | 'cursor'
  >,
): Promise<FailureTriage> {
  const {
    store,
    queue: { ref },
    limit,
    cursor,
    now = Date.now(),
  } = options;
  const fingerprint = failuresFingerprint(ref);
  const position: FailuresPosition = cursor
    ? decodeFailuresCursor(cursor, fingerprint)
    : { from: now - windowMs(options.window), to: now, upper: now, skip: 0, scannedTotal: 0 };
  const { scores, jobs } = await store.readFailures(ref, {
    from: position.from,
    upper: position.upper,
    skip: position.skip,
    limit,
  });
  advance(position, scores);
  const done = scores.length < limit;
  const nextCursor = done ? null : encodeFailuresCursor(fingerprint, position);
  return {
    from: position.from,
    to: position.to,
    groups: groupFailures(jobs),
    scanned: scores.length,
    scannedTotal: position.scannedTotal,
    nextCursor,
    cursor: nextCursor,
    done,
  };
}
