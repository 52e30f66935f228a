import type { JobRef, JobState } from '../../contracts/jobs.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { toJobState } from '../../server/bullmq/job-state.js';

export { parseJobKey } from '../../server/bullmq/job-key.js';

/** Id, queue, name and state of the job stored at `key` (a parent or a child in a flow), the key as the store writes it. */
export async function jobRefAt(store: StoreHandle, key: string): Promise<JobRef> {
  const parsed = store.parseJobKey(key);
  const queue = parsed.queueName === null ? undefined : await store.queue(parsed.queueName, parsed.prefix!);
  const [name, state] = await Promise.all([
    store.jobNameAt(key),
    queue ? queue.getJobState(parsed.id).then(toJobState) : Promise.resolve<JobState>('unknown'),
  ]);
  return { ...parsed, name, state: name === null ? 'unknown' : state };
}

const dependencyKinds = ['processed', 'unprocessed', 'failed', 'ignored'] as const;

/** A flow parent's child counts by kind (the store reads them: readJobChildren, readJobDetail). */
export type ChildCounts = Record<(typeof dependencyKinds)[number], number>;

export const childrenTotal = (counts: ChildCounts) => dependencyKinds.reduce((sum, kind) => sum + counts[kind], 0);
