import type { Queue } from 'bullmq';
import type { JobTreeNode } from '../../contracts/job-flows.js';
import { maxTreeNodes } from '../../contracts/job-flows.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { childrenOf, childrenTotal, jobRefAt } from './job-refs.js';
import { requireJob } from './load-jobs.js';

export interface JobTreeOptions {
  store: StoreHandle;
  queue: Queue;
  jobId: string;
  depth: number;
  maxChildren: number;
  maxNodes?: number;
}

/**
 * The flow below a job, level by level: at most `depth` levels, `maxChildren`
 * per job and `maxNodes` in all, each cut marked `truncated` on its node.
 */
export async function getJobTree({ store, queue, jobId, depth, maxChildren, maxNodes = maxTreeNodes }: JobTreeOptions) {
  const job = await requireJob(queue, jobId);
  const root: JobTreeNode = {
    ...(await jobRefAt(store, queue.toKey(String(job.id)))),
    childrenTotal: 0,
    truncated: false,
    children: [],
  };
  let nodes = 1;
  let level = [root];
  for (let currentDepth = 0; level.length > 0; currentDepth++) {
    const next: JobTreeNode[] = [];
    for (const node of level) {
      if (node.queueName === null || node.prefix === null) continue;
      const children = await childrenOf(await store.queue(node.queueName, node.prefix), node.id, maxChildren);
      node.childrenTotal = childrenTotal(children.counts);
      const room = currentDepth < depth ? Math.max(0, maxNodes - nodes) : 0;
      const keys = children.keys.slice(0, room);
      node.children = await Promise.all(
        keys.map(async (key) => ({
          ...(await jobRefAt(store, key)),
          childrenTotal: 0,
          truncated: false,
          children: [],
        })),
      );
      node.truncated = node.children.length < node.childrenTotal;
      nodes += node.children.length;
      next.push(...node.children);
    }
    level = next;
  }
  return { root, nodes };
}
