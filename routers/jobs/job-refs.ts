import type { Queue } from 'bullmq';
import type { JobRef, JobState } from '../../contracts/jobs.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { toJobState } from '../../server/bullmq/job-state.js';

interface ParsedJobKey {
  id: string;
  queueName: string | null;
  prefix: string | null;
  key: string;
}

/**
 * Splits a job key `<prefix>:<queue>:<id>`. Prefixes may hold `:`, so the
 * connection's own prefixes (longest first) anchor the split; BullMQ keeps
 * `:` out of queue names and custom job ids, so the id follows the last one.
 */
export function parseJobKey(prefixes: readonly string[], key: string): ParsedJobKey {
  const cut = key.lastIndexOf(':');
  const id = key.slice(cut + 1);
  const prefix = [...prefixes].sort((a, b) => b.length - a.length).find((candidate) => key.startsWith(`${candidate}:`));
  if (!prefix || cut <= prefix.length) return { id, queueName: null, prefix: null, key };
  return { id, queueName: key.slice(prefix.length + 1, cut), prefix, key };
}

/** Id, queue, name and state of the job stored at `key` (a parent or a child in a flow). */
export async function jobRefAt(store: StoreHandle, key: string): Promise<JobRef> {
  const parsed = parseJobKey(store.prefixes, key);
  const queue = parsed.queueName === null ? undefined : await store.queue(parsed.queueName, parsed.prefix!);
  const [name, state] = await Promise.all([
    store.client.hget(key, 'name'),
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
