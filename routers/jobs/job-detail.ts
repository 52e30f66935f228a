import type { JobDetail, JobRef } from '../../contracts/jobs.js';
import { notFound } from '../../contracts/app-error.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { QueueLookup } from '../../server/bullmq/resolve-queue.js';
import { loadBullmq } from '../../server/bullmq/bullmq-module.js';
import { decodeJobHash } from '../../server/bullmq/job-hash.js';
import { toJobState } from '../../server/bullmq/job-state.js';
import type { JobDetailRead, RawJobRef } from '../../server/bullmq/read-job-detail.js';
import { childrenTotal, jobRefAt, parseJobKey } from './job-refs.js';
import { largeBodyBytes, responseTooLarge } from '../../server/http/large-bodies.js';

/** How big a detail may be, and the wait for room to hold a large one until it is sent. */
export interface DetailLimits {
  maxBytes: number;
  /** Answers the function to call once the detail is built. */
  holdForResponse(bytes: number): Promise<() => void>;
}

/** Children listed in a detail; the tree route lists more. */
export const detailChildrenLimit = 20;

/** A ref the script read: a key outside the connection's prefixes has no queue, hence no state. */
function toJobRef(store: StoreHandle, raw: RawJobRef): JobRef {
  const parsed = parseJobKey(store.prefixes, raw.key);
  const state = raw.name === null || parsed.queueName === null ? 'unknown' : toJobState(raw.state);
  return { ...parsed, name: raw.name, state };
}

/**
 * A job in full, in one round trip on a standalone store (the queue's
 * existence, the hash, state, logs count, children and parent are all read
 * by one script). On a cluster the parent and children may sit on other
 * nodes, so their names and states take a second, parallel round trip.
 */
export async function getJobDetail({
  store,
  queue,
  jobId,
  limits,
}: {
  store: StoreHandle;
  queue: QueueLookup;
  jobId: string;
  limits: DetailLimits;
}): Promise<JobDetail> {
  const readAtMost = (maxBytes: number) =>
    store.readJobDetail({
      queueName: queue.name,
      jobId,
      prefixes: queue.prefixes,
      childLimit: detailChildrenLimit,
      maxBytes,
    });
  const read = await readAtMost(largeBodyBytes);
  if (read.found !== 'too-big' || read.bytes > limits.maxBytes)
    return detailOf(store, queue, jobId, read, limits.maxBytes);
  // A large job: wait for room, then read it whole (it may have grown meanwhile).
  const built = await limits.holdForResponse(read.bytes);
  try {
    return await detailOf(store, queue, jobId, await readAtMost(limits.maxBytes), limits.maxBytes);
  } finally {
    built();
  }
}

async function detailOf(
  store: StoreHandle,
  queue: QueueLookup,
  jobId: string,
  read: JobDetailRead,
  maxBytes: number,
): Promise<JobDetail> {
  if (read.found === 'queue-missing') throw queue.notFound();
  if (read.found === 'job-missing') throw notFound(`Job "${jobId}" in queue "${queue.name}"`);
  if (read.found === 'too-big') {
    const fields = `GET …/jobs/{jobId}/fields/{field}?offset=0&length=${1024 * 1024}, then from each answer's nextOffset`;
    throw responseTooLarge(`Job "${jobId}"`, read.bytes, maxBytes, fields, { fieldBytes: read.fieldBytes });
  }
  const { job } = read;
  // Loaded by the first detail read after a start; a settled promise afterwards.
  const { Job } = await loadBullmq();
  const { parentKey, ...fields } = decodeJobHash(job.hash, Job.optsFromJSON);
  const [parent, items] = job.refsResolved
    ? [job.parent && toJobRef(store, job.parent), job.childRefs.map((ref) => toJobRef(store, ref))]
    : await Promise.all([
        parentKey ? jobRefAt(store, parentKey) : undefined,
        Promise.all(job.childKeys.map((key) => jobRefAt(store, key))),
      ]);
  const total = childrenTotal(job.children);
  return {
    id: jobId,
    ...fields,
    state: toJobState(job.state),
    ...(parent ? { parent } : {}),
    ...(total > 0 ? { children: { counts: job.children, items, truncated: items.length < total } } : {}),
    logsCount: job.logsCount,
  };
}
