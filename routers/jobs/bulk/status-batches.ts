import type { Queue } from 'bullmq';
import type { BulkOutcome } from '../../../contracts/job-actions.js';
import type { JobStatus } from '../../../contracts/jobs.js';
import { countJobs } from '../job-status.js';
import { countingMidway } from '../../../server/stores/store-errors.js';

/** Jobs per batch of a `{ status, all: true }` action, and batches per request. */
export const statusBatchSize = 1000;
export const maxStatusBatches = 100;

/**
 * Runs `batch` (which acts on up to `statusBatchSize` jobs of the status and
 * says whether more remain) at most `maxStatusBatches` times. Counts before
 * and after give the totals; `done: false` tells the caller to call again.
 */
export async function actOnStatus(
  queue: Queue,
  status: JobStatus,
  batch: () => Promise<{ acted?: number; more: boolean }>,
  maxBatches = maxStatusBatches,
): Promise<BulkOutcome> {
  const before = await countJobs(queue, status);
  let acted = 0;
  let counted = true;
  let more = before > 0;
  // A store fault between batches answers 503 with the count reached (batches before it stay done).
  await countingMidway(
    () => ({ succeeded: acted, failed: 0 }),
    async () => {
      for (let batches = 0; more && batches < maxBatches; batches++) {
        const result = await batch();
        if (result.acted === undefined) counted = false;
        else acted += result.acted;
        more = result.more;
      }
    },
  );
  const remaining = await countJobs(queue, status);
  const succeeded = counted ? acted : Math.max(0, before - remaining);
  return { results: [], succeeded, failed: 0, status, remaining, done: !more };
}
