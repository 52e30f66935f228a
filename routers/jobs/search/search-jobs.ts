import type { JobSearch, SearchJobsInput } from '../../../contracts/job-search.js';
import type { StoreHandle } from '../../../server/stores/store-handle.js';
import type { ResolvedQueue } from '../../../server/bullmq/resolve-queue.js';
import { toJobSummary } from '../job-summary.js';
import { loadJobs } from '../load-jobs.js';
import { encodeCursor, searchFingerprint, startingPosition } from './search-cursor.js';
import { scanMatches, searchChunkSizes, type Match } from './scan-matches.js';

/** Time a request may spend scanning before it answers with a cursor. */
export const searchBudgetMs = 1000;

export type SearchJobsOptions = Omit<SearchJobsInput, 'connectionId' | 'queueName' | 'prefix'> & {
  store: StoreHandle;
  queue: ResolvedQueue;
  budgetMs?: number;
  /** A fixed chunk size instead of the adaptive one (tests). */
  chunkSize?: number;
};

/**
 * One page of a search: matches in scan order until `limit` or the time
 * budget, loaded as summaries. The cursor resumes after the last job
 * examined (see SearchPosition); jobs that move between statuses while a
 * search is continued may still be missed or seen twice.
 */
export async function searchJobs(options: SearchJobsOptions): Promise<JobSearch> {
  const { store, q, where, status: statuses, limit, cursor, budgetMs = searchBudgetMs, chunkSize } = options;
  const { ref, queue } = options.queue;
  // `where` joins the fingerprint only when given: cursors of text searches stay as they were.
  const fingerprint = searchFingerprint([ref.name, q, options.in, statuses, ...(where === undefined ? [] : [where])]);
  const position = startingPosition(cursor, fingerprint, chunkSize ?? searchChunkSizes.initial);
  const matches: Match[] = [];
  const collect = async (found: Match[]) => {
    matches.push(...found);
    return new Set<string>();
  };
  const { scanned, done } = await scanMatches({
    store,
    queue,
    q,
    where,
    fields: options.in,
    statuses,
    position,
    fresh: !cursor,
    limit,
    budgetMs,
    chunkSize,
    onMatches: collect,
  });
  const jobs = await loadJobs(
    queue,
    matches.map((match) => match.id),
  );
  const statusById = new Map(matches.map((match) => [match.id, match.status]));
  const nextCursor = done ? null : encodeCursor(fingerprint, position);
  return {
    jobs: jobs.map((job) => toJobSummary(job, statusById.get(String(job.id))!, options)),
    nextCursor,
    cursor: nextCursor,
    done,
    scanned,
    scannedTotal: position.scannedTotal,
  };
}
