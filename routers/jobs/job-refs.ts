import type { Queue } from 'bullmq';
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

export interface JobChildren {
  counts: Record<(typeof dependencyKinds)[number], number>;
  /** Keys of at most `limit` children: pending ones first, then processed, failed, ignored. */
  keys: string[];
}

/** A flow parent's child counts and the keys of up to `limit` children (one round trip each). */
export async function childrenOf(queue: Queue, jobId: string, limit: number): Promise<JobChildren> {
  const page = { cursor: 0, count: limit };
  const [countList, listed] = await Promise.all([
    queue.backend.getDependencyCounts(jobId, [...dependencyKinds]),
    queue.backend.getDependencies(jobId, { processed: page, unprocessed: page, failed: page, ignored: page }),
  ]);
  const counts = Object.fromEntries(
    dependencyKinds.map((kind, index) => [kind, countList[index] ?? 0]),
  ) as JobChildren['counts'];
  const keys = [
    ...(listed.unprocessed ?? []),
    ...Object.keys(listed.processed ?? {}),
    ...(listed.failed ?? []),
    ...Object.keys(listed.ignored ?? {}),
  ];
  return { counts, keys: [...new Set(keys)].slice(0, limit) };
}

export const childrenTotal = (counts: JobChildren['counts']) =>
  dependencyKinds.reduce((sum, kind) => sum + counts[kind], 0);
