import type { BulkTarget } from '../../contracts/job-actions.js';
import { removeStatuses } from '../../contracts/job-actions.js';
import type { MoveOutcome } from '../../contracts/job-move.js';
import type { ScanStore } from './search/scan-matches.js';
import { countingMidway } from '../../server/stores/store-errors.js';
import { countJobs } from './job-status.js';
import { actOnQuery } from './bulk/act-on-query.js';
import { maxStatusBatches, statusBatchSize } from './bulk/status-batches.js';
import { endStatusMove, moveEach, moveJobIds, moveScope, moveStatusBatch, type MovePlan } from './move-jobs.js';

/** A move within one request: named ids, a count for a dry run, bounded batches of a status, or a query's matches. */
export async function moveSynchronously({
  store,
  plan,
  input,
  where,
}: {
  store: ScanStore;
  plan: MovePlan;
  input: BulkTarget<(typeof removeStatuses)[number]>;
  where: MoveOutcome['target'];
}): Promise<MoveOutcome> {
  const source = plan.source.queue;
  if (input.query) {
    const outcome = await actOnQuery({
      store,
      queue: source,
      ...input,
      query: input.query,
      statuses: removeStatuses,
      scope: moveScope(where),
      act: moveEach(plan),
    });
    return { ...outcome, target: where };
  }
  if (input.jobIds) {
    if (input.dryRun) {
      const found = await Promise.all([...new Set(input.jobIds)].map((id) => source.getJob(id)));
      return { results: [], succeeded: 0, failed: 0, matched: found.filter(Boolean).length, target: where };
    }
    const results = await moveJobIds(plan, input.jobIds);
    const succeeded = results.filter((result) => result.ok).length;
    return { results, succeeded, failed: results.length - succeeded, target: where };
  }
  const status = input.status!;
  if (input.dryRun)
    return {
      results: [],
      succeeded: 0,
      failed: 0,
      status,
      matched: await countJobs(source, status),
      done: true,
      target: where,
    };
  let succeeded = 0;
  let refused = 0;
  let more = true;
  // A store fault between batches answers 503 with the counts reached: the batches before it stay moved.
  await countingMidway(
    () => ({ succeeded, failed: refused }),
    async () => {
      for (let batch = 0; more && batch < maxStatusBatches; batch++) {
        const moved = await moveStatusBatch(plan, status, refused, statusBatchSize);
        succeeded += moved.moved;
        refused += moved.refused;
        more = moved.more;
      }
      // The request is the mover: a later request starts its own move at the head.
      await endStatusMove(plan, status);
    },
  );
  return {
    results: [],
    succeeded,
    failed: refused,
    status,
    remaining: await countJobs(source, status),
    done: !more,
    target: where,
  };
}
