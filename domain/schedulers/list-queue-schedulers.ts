import { pageInfoFor, pageRange, type PageQuery } from '../../contracts/pagination.js';
import type { SchedulerList } from '../../contracts/schedulers.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { findQueue } from '../stores/find-queue.js';
import { toScheduler } from './to-scheduler.js';

/** One queue's job schedulers, a page at a time, soonest next run first. */
export async function listQueueSchedulers({
  store,
  queueName,
  prefix,
  page,
}: {
  store: StoreHandle;
  queueName: string;
  prefix?: string;
  page: PageQuery;
}): Promise<SchedulerList> {
  const ref = await findQueue(store, queueName, prefix);
  const queue = store.queue(ref.name, ref.prefix);
  const { start, end } = pageRange(page);
  const [total, schedulers] = await Promise.all([queue.getJobSchedulersCount(), queue.getJobSchedulers(start, end, true)]);
  return { schedulers: schedulers.map((json) => toScheduler(ref, json)), ...pageInfoFor(total, page) };
}
