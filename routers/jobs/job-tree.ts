import type { JobTreeNode } from '../../contracts/job-flows.js';
import { maxTreeNodes } from '../../contracts/job-flows.js';
import { toJobState } from '../../server/bullmq/job-state.js';
import { queueKey } from '../../server/bullmq/queue-key.js';
import type { RawJobRef } from '../../server/bullmq/read-job-detail.js';
import type { ResolvedQueue } from '../../server/bullmq/resolve-queue.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { childrenTotal, parseJobKey } from './job-refs.js';
import { requireJob } from './load-jobs.js';

export interface JobTreeOptions {
  store: StoreHandle;
  queue: ResolvedQueue;
  jobId: string;
  depth: number;
  maxChildren: number;
  maxNodes?: number;
}

/** A node for a ref the store read (`<prefix>:<queue>:<id>`): a key outside the connection's prefixes has no state. */
function nodeOf(store: StoreHandle, raw: RawJobRef): JobTreeNode {
  const parsed = parseJobKey(store.prefixes, raw.key);
  const state = raw.name === null || parsed.queueName === null ? 'unknown' : toJobState(raw.state);
  return { ...parsed, name: raw.name, state, childrenTotal: 0, truncated: false, children: [] };
}

/**
 * The flow below a job, level by level: at most `depth` levels, `maxChildren`
 * per job and `maxNodes` in all, each cut marked `truncated` on its node.
 * Children are read through the store (readJobChildren), whatever its kind.
 */
export async function getJobTree({ store, queue, jobId, depth, maxChildren, maxNodes = maxTreeNodes }: JobTreeOptions) {
  const job = await requireJob(queue.queue, jobId);
  const root = nodeOf(store, {
    key: queueKey(queue.ref, String(job.id)),
    name: job.name,
    state: await queue.queue.getJobState(String(job.id)),
  });
  let nodes = 1;
  let level = [root];
  for (let currentDepth = 0; level.length > 0; currentDepth++) {
    const next: JobTreeNode[] = [];
    for (const node of level) {
      if (node.queueName === null || node.prefix === null) continue;
      const room = currentDepth < depth ? Math.max(0, maxNodes - nodes) : 0;
      const read = await store.readJobChildren({ prefix: node.prefix, name: node.queueName }, node.id, maxChildren);
      node.childrenTotal = childrenTotal(read.counts);
      node.children = read.children.slice(0, room).map((child) => nodeOf(store, child));
      node.truncated = node.children.length < node.childrenTotal;
      nodes += node.children.length;
      next.push(...node.children);
    }
    level = next;
  }
  return { root, nodes };
}
