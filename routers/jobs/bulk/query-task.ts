import type { Queue } from 'bullmq';
import type { JobQuery } from '../../../contracts/job-query.js';
import type { JobStatus } from '../../../contracts/jobs.js';
import type { TaskContext } from '../../../server/tasks/task-handler.js';
import { actOnQuery, type QueryAction } from './act-on-query.js';

export interface QueryTaskOptions {
  queue: Queue;
  query: JobQuery<JobStatus>;
  statuses: readonly JobStatus[];
  scope: string;
  act: QueryAction;
  /** The result's name for the jobs acted on: `retried`, `removed`, `moved`. */
  counted: string;
}

/**
 * A query-form bulk action as a background task: the same scan as the
 * synchronous form, `batchSize` matches per round, its cursor saved with every
 * round. A resumed task goes on from the saved cursor: jobs acted on after the
 * last save have left the status, and the cursor resumes after its anchor, so
 * none is acted on twice.
 */
export async function runQueryTask(context: TaskContext, options: QueryTaskOptions): Promise<Record<string, unknown>> {
  const { queue, query, statuses, scope, act, counted } = options;
  let cursor = (context.cursor?.search as string | null | undefined) ?? undefined;
  let acted = Number(context.cursor?.acted ?? 0);
  let refused = Number(context.cursor?.refused ?? 0);
  for (;;) {
    const round = await actOnQuery({
      store: context.store,
      queue,
      query,
      statuses,
      scope,
      act,
      cursor,
      limit: context.batchSize,
    });
    acted += round.succeeded;
    refused += round.failed;
    const keepGoing = await context.progress(round.matched, { search: round.cursor, acted, refused });
    if (round.done || !keepGoing) return { [counted]: acted, refused, scanned: round.scannedTotal };
    cursor = round.cursor!;
    await context.throttle();
  }
}
