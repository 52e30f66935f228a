import { pageInfoFor, pageRange, type PageQuery } from '../../contracts/pagination.js';
import type { SchedulerList } from '../../contracts/schedulers.js';
import type { ResolvedQueue } from '../../server/bullmq/resolve-queue.js';
import { toScheduler } from './to-scheduler.js';

/** One queue's job schedulers, a page at a time, soonest next run first. */
export async function listQueueSchedulers({
  queue: { ref, queue },
  page,
}: {
  queue: ResolvedQueue;
  page: PageQuery;
}): Promise<SchedulerList> {
  const { start, end } = pageRange(page);
  const [total, schedulers] = await Promise.all([
    queue.getJobSchedulersCount(),
    queue.getJobSchedulers(start, end, true),
  ]);
  return { schedulers: schedulers.map((json) => toScheduler(ref, json)), ...pageInfoFor(total, page) };
}
