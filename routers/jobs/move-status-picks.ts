import { pickCallsInFlight, type StatusMove } from '../../server/bullmq/move-from-status.js';
import { callInWindow } from '../../server/tasks/call-window.js';
import { targetIdOf } from './carry-ids.js';
import type { MovePlan } from './move-jobs.js';
import { movedOpts } from './moved-job.js';

/** What one batch of a status-wide move did: jobs moved and refused, and whether the status may hold more. */
export interface StatusBatch {
  moved: number;
  refused: number;
  more: boolean;
}

/** Jobs whose options one read fetches when the service rewrites them (each read is one short script). */
const rewritesPerRead = 1000;

/**
 * One batch of a status-wide move whose jobs the store picks (StatusMove): calls of `plan.callSize`,
 * `pickCallsInFlight` at once, until `batchSize` jobs were taken or a call found the status empty
 * past the jobs the move left at its head. No ids cross the wire but those of the jobs that stay.
 * The jobs a call left for the service (`rewrite`: options not as BullMQ writes them) are read,
 * rewritten and carried after the calls, as are those a run that died left pending. The refused
 * count comes from the store, which counted them in the same steps: a run resumed after a crash
 * reports the refusals of the one that died too.
 */
export async function moveStatusByPicks(
  plan: MovePlan,
  picks: StatusMove,
  skip: number,
  batchSize: number,
): Promise<StatusBatch> {
  let moved = await carryRewrites(plan, picks, (await picks.place())?.pending ?? []);
  const rewrites: string[] = [];
  const window = { size: plan.callSize, inFlight: Math.min(plan.callsInFlight, pickCallsInFlight) };
  const emptied = await callInWindow(
    batchSize,
    window,
    async (size) => ({ size, ...(await picks.pick(size, skip)) }),
    (answer) => answer.found < answer.size,
    (answer) => {
      moved += answer.found - answer.staying.length;
      for (const job of answer.staying) if (job.verdict === 'rewrite') rewrites.push(job.jobId);
    },
  );
  moved += await carryRewrites(plan, picks, rewrites);
  const refused = ((await picks.place())?.refused ?? skip) - skip;
  return { moved, refused, more: !emptied };
}

/** Reads, rewrites and carries the jobs a pick left to the service; answers how many moved. */
async function carryRewrites(plan: MovePlan, picks: StatusMove, jobIds: string[]): Promise<number> {
  let moved = 0;
  for (let start = 0; start < jobIds.length; start += rewritesPerRead) {
    const ids = jobIds.slice(start, start + rewritesPerRead);
    const opts = await plan.source.readOpts(ids);
    const orders = ids.map((jobId, index) => {
      // A job gone since is answered `missing` by the carry (its place freed): its options do not matter.
      const [targetId, readOpts] = [targetIdOf(plan, jobId), opts[index] ?? ''];
      return { jobId, targetId, readOpts, movedOpts: movedOpts(readOpts, targetId) };
    });
    const verdicts = await picks.carryHeld(orders);
    moved += verdicts.filter((verdict) => verdict === 'moved').length;
  }
  return moved;
}
