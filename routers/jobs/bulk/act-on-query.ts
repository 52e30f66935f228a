import type { Queue } from 'bullmq';
import { maxBulkJobIds, type BulkOutcome, type BulkResult } from '../../../contracts/job-actions.js';
import { maxQueryMatchesPerRequest, maxQuerySampleIds, type JobQuery } from '../../../contracts/job-query.js';
import { searchableFields } from '../../../contracts/job-search.js';
import type { JobStatus } from '../../../contracts/jobs.js';
import { countingMidway } from '../../../server/stores/store-errors.js';
import { scanMatches, searchChunkSizes, type Match, type ScanStore } from '../search/scan-matches.js';
import { encodeCursor, searchFingerprint, startingPosition } from '../search/search-cursor.js';
import { searchBudgetMs } from '../search/search-jobs.js';

/** Time a request acting on matches may spend before it answers with a cursor (acting costs more than matching). */
export const queryActionBudgetMs = 5000;

/** Acts on one chunk's matched ids, answering a result per id. */
export type QueryAction = (jobIds: string[]) => Promise<BulkResult[]>;

export interface ActOnQueryOptions {
  store: ScanStore;
  queue: Queue;
  query: JobQuery<JobStatus>;
  /** The statuses the action takes: the default of `query.status`. */
  statuses: readonly JobStatus[];
  /** Names the action (and its target) in the cursor's fingerprint, so a cursor continues only its own chain. */
  scope: string;
  act: QueryAction;
  dryRun?: boolean | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
  budgetMs?: number | undefined;
  /** A fixed chunk size instead of the adaptive one (tests). */
  chunkSize?: number | undefined;
}

/** Acted on, or refused because it is gone or no longer in a status the action takes: either way no longer where the scan found it. */
const leftItsStatus = (result: BulkResult) =>
  result.ok || result.code === 'NOT_FOUND' || result.code === 'INVALID_STATE';

export type QueryOutcome = BulkOutcome &
  Required<Pick<BulkOutcome, 'matched' | 'matchedTotal' | 'scanned' | 'scannedTotal' | 'done'>> & {
    cursor: string | null;
  };

/**
 * A bulk action on the jobs a search matches, one bounded scan per call: each
 * chunk's matches are acted on before the scan reads on, and the ones that
 * left their status are accounted for in the cursor, so the next call neither
 * skips nor repeats a job. A dry run counts the same matches and acts on none.
 */
export async function actOnQuery(options: ActOnQueryOptions): Promise<QueryOutcome> {
  const { queue, query, dryRun = false, cursor, act } = options;
  const statuses = [...new Set(query.status ?? options.statuses)];
  const fields = [...new Set(query.in ?? searchableFields)];
  const fingerprint = searchFingerprint([
    queue.name,
    query.q,
    fields,
    statuses,
    options.scope,
    dryRun,
    ...(query.where === undefined ? [] : [query.where]),
  ]);
  const position = startingPosition(cursor, fingerprint, options.chunkSize ?? searchChunkSizes.initial);
  const sampleIds: string[] = [];
  const refused: BulkResult[] = [];
  let succeeded = 0;
  let failed = 0;

  const onMatches = async (matches: Match[]): Promise<ReadonlySet<string>> => {
    if (dryRun) {
      sampleIds.push(...matches.slice(0, maxQuerySampleIds - sampleIds.length).map((match) => match.id));
      return new Set();
    }
    const results: BulkResult[] = [];
    // A hundred at a time, as the jobIds form: acting loads each job whole, whatever the searched fields weighed.
    for (let start = 0; start < matches.length; start += maxBulkJobIds) {
      results.push(...(await act(matches.slice(start, start + maxBulkJobIds).map((match) => match.id))));
    }
    const acted = results.filter((result) => result.ok);
    succeeded += acted.length;
    failed += results.length - acted.length;
    refused.push(...results.filter((result) => !result.ok).slice(0, maxBulkJobIds - refused.length));
    return new Set(results.filter(leftItsStatus).map((result) => result.jobId));
  };

  // A store fault mid-scan answers 503 with the counts reached (what was acted on stays done).
  const { matched, scanned, done } = await countingMidway(
    () => ({ succeeded, failed }),
    () =>
      scanMatches({
        store: options.store,
        queue,
        q: query.q,
        where: query.where,
        fields,
        statuses,
        position,
        fresh: !cursor,
        onMatches,
        limit: options.limit ?? maxQueryMatchesPerRequest,
        budgetMs: options.budgetMs ?? (dryRun ? searchBudgetMs : queryActionBudgetMs),
        chunkSize: options.chunkSize,
      }),
  );
  return {
    results: refused,
    succeeded,
    failed,
    matched,
    matchedTotal: position.matchedTotal,
    ...(dryRun ? { sampleIds } : {}),
    scanned,
    scannedTotal: position.scannedTotal,
    done,
    cursor: done ? null : encodeCursor(fingerprint, position),
  };
}
