import type { Queue } from 'bullmq';
import type { JobSearch, SearchJobsInput } from '../../../contracts/job-search.js';
import type { JobStatus } from '../../../contracts/jobs.js';
import type { StoreHandle } from '../../../server/stores/store-handle.js';
import type { ResolvedQueue } from '../../../server/bullmq/resolve-queue.js';
import { toJobSummary } from '../job-summary.js';
import { toJobState } from '../../../server/bullmq/job-state.js';
import { jobIdsInRange } from '../job-status.js';
import { loadJobs } from '../load-jobs.js';
import { decodeCursor, encodeCursor, searchFingerprint, type SearchPosition } from './search-cursor.js';
import { jobMatcher } from './match-jobs.js';

/**
 * Jobs read per chunk. A chunk starts small and doubles while the searched
 * fields stay light, shrinking again when a chunk's values pass
 * `chunkByteTarget`: memory stays near one chunk of a few MB whatever the
 * payload sizes, and small jobs are scanned in big, cheap chunks.
 */
export const searchChunkSizes = { initial: 50, max: 1000, min: 5 };
export const chunkByteTarget = 8 * 1024 * 1024;
/** Time a request may spend scanning before it answers with a cursor. */
export const searchBudgetMs = 1000;

export type SearchJobsOptions = Omit<SearchJobsInput, 'connectionId' | 'queueName' | 'prefix'> & {
  store: StoreHandle;
  queue: ResolvedQueue;
  budgetMs?: number;
  /** A fixed chunk size instead of the adaptive one (tests). */
  chunkSize?: number;
};

/** The next chunk's size after one of `size` jobs whose searched values took `bytes`. */
export function nextChunkSize(size: number, bytes: number): number {
  const { max, min } = searchChunkSizes;
  if (bytes > chunkByteTarget) return Math.max(min, Math.floor((size * chunkByteTarget) / bytes));
  return bytes * 2 <= chunkByteTarget ? Math.min(max, size * 2) : size;
}

interface Match {
  id: string;
  status: JobStatus;
}

/** An exact id is a direct lookup, done once at the start of a search. */
async function exactIdMatch(queue: Queue, q: string, statuses: readonly JobStatus[]): Promise<Match | undefined> {
  const state = toJobState(await queue.getJobState(q));
  return (statuses as readonly string[]).includes(state) ? { id: q, status: state as JobStatus } : undefined;
}

/**
 * Scans the statuses newest first, a chunk at a time, matching on the
 * searched fields only, until `limit` matches or the time budget is spent
 * (at least one chunk per request, so every call makes progress). The
 * cursor is a position: jobs that move between statuses while a search is
 * continued may be missed or seen twice.
 */
export async function searchJobs(options: SearchJobsOptions): Promise<JobSearch> {
  const { store, q, status: statuses, limit, cursor, budgetMs = searchBudgetMs, chunkSize: fixedChunkSize } = options;
  const { ref, queue } = options.queue;
  const started = Date.now();
  const fingerprint = searchFingerprint([ref.name, q, options.in, statuses]);
  const position: SearchPosition = cursor
    ? decodeCursor(cursor, fingerprint)
    : { statusIndex: 0, offset: 0, scannedTotal: 0, chunkSize: fixedChunkSize ?? searchChunkSizes.initial };
  const matchIds = jobMatcher(store.client, queue, q, options.in);
  const matches: Match[] = [];
  const exact = !cursor && options.in.includes('id') ? await exactIdMatch(queue, q, statuses) : undefined;
  if (exact) matches.push(exact);

  let scanned = 0;
  let chunks = 0;
  while (position.statusIndex < statuses.length && matches.length < limit && (chunks === 0 || Date.now() - started < budgetMs)) {
    const status = statuses[position.statusIndex]!;
    const chunkSize = position.chunkSize;
    const ids = await jobIdsInRange(queue, status, position.offset, position.offset + chunkSize - 1, false);
    const { matched, bytes } = await matchIds(ids);
    position.chunkSize = fixedChunkSize ?? nextChunkSize(chunkSize, bytes);
    let consumed = 0;
    for (const [index, id] of ids.entries()) {
      consumed = index + 1;
      if (matched[index] && id !== q) matches.push({ id, status });
      if (matches.length >= limit) break;
    }
    chunks += 1;
    scanned += consumed;
    position.scannedTotal += consumed;
    const statusExhausted = ids.length < chunkSize && consumed === ids.length;
    position.offset = statusExhausted ? 0 : position.offset + consumed;
    if (statusExhausted) position.statusIndex += 1;
  }

  const done = position.statusIndex >= statuses.length;
  const jobs = await loadJobs(queue, matches.map((match) => match.id));
  const statusById = new Map(matches.map((match) => [match.id, match.status]));
  return {
    jobs: jobs.map((job) => toJobSummary(job, statusById.get(String(job.id))!, options)),
    cursor: done ? null : encodeCursor(fingerprint, position),
    done,
    scanned,
    scannedTotal: position.scannedTotal,
  };
}
