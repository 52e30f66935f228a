import type { JobDetail, JobState } from '../../contracts/jobs.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { jobScalars } from './job-summary.js';
import { childrenOf, childrenTotal, jobRefAt } from './job-refs.js';
import { requireJob } from './load-jobs.js';

/** Children listed in a detail; the tree route lists more. */
export const detailChildrenLimit = 20;

export async function getJobDetail({ store, queueName, jobId }: { store: StoreHandle; queueName: string; jobId: string }): Promise<JobDetail> {
  const queue = store.queue(queueName);
  const job = await requireJob(queue, jobId);
  const [state, logs, children, parent] = await Promise.all([
    job.getState() as Promise<JobState>,
    queue.getJobLogs(jobId, 0, 0),
    childrenOf(queue, jobId, detailChildrenLimit),
    job.parentKey ? jobRefAt(store, job.parentKey) : undefined,
  ]);
  const total = childrenTotal(children.counts);
  return {
    id: String(job.id),
    ...jobScalars(job),
    data: job.data ?? null,
    opts: { ...job.opts },
    state,
    returnvalue: job.returnvalue ?? null,
    stacktrace: job.stacktrace ?? [],
    attemptsStarted: job.attemptsStarted,
    processedBy: job.processedBy ?? null,
    ...(parent ? { parent } : {}),
    ...(total > 0
      ? { children: { counts: children.counts, items: await Promise.all(children.keys.map((key) => jobRefAt(store, key))), truncated: children.keys.length < total } }
      : {}),
    logsCount: logs.count,
  };
}
