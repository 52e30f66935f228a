import { pageInfoFor, pageRange, type PageQuery } from '../../contracts/pagination.js';
import type { SchedulerList } from '../../contracts/schedulers.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { QueueRef } from '../../server/bullmq/list-queue-names.js';
import { toScheduler } from './to-scheduler.js';
import { withHealth } from './scheduler-health.js';

/**
 * Job schedulers across every queue of the connection, ordered by queue then
 * next run. One pipelined ZCARD per queue gives the total and tells which
 * queues the page falls on; only those are read.
 */
export async function listSchedulers({ store, page }: { store: StoreHandle; page: PageQuery }): Promise<SchedulerList> {
  const { refs: queues } = await store.scanQueueNames();
  const counts = await store.schedulerCounts(queues);
  const total = counts.reduce((sum, count) => sum + count, 0);
  const { start, end } = pageRange(page);
  const reads: Array<Promise<SchedulerList['schedulers']>> = [];
  let offset = 0;
  queues.forEach((ref, index) => {
    const count = counts[index]!;
    const from = Math.max(start - offset, 0);
    const to = Math.min(end - offset, count - 1);
    if (from <= to) reads.push(readSchedulers(store, ref, from, to));
    offset += count;
  });
  const schedulers = (await Promise.all(reads)).flat();
  return { schedulers, ...pageInfoFor(total, page) };
}

async function readSchedulers(store: StoreHandle, ref: QueueRef, from: number, to: number) {
  const schedulers = await (await store.queue(ref.name, ref.prefix)).getJobSchedulers(from, to, true);
  return withHealth(
    store,
    ref,
    schedulers.map((json) => toScheduler(ref, json)),
  );
}
