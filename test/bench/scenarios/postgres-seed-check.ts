import { Queue, createPostgresBackend } from 'bullmq';
import { perQueueMix } from './postgres-seed.js';

/**
 * Reads the seed back through BullMQ's own Queue API (counts, a job, a
 * failure's stack trace, logs, a page of the big queue): throws when a
 * cloned row is not what BullMQ reads as a job. Answers what it checked.
 */
export async function checkSeed(
  url: string,
  options: { queue: string; bigQueue: string; bigCount: number; logJob: { queue: string; id: string } },
): Promise<string> {
  const connection = { connectionString: url };
  const queue = new Queue(options.queue, { connection }, createPostgresBackend);
  const big = new Queue(options.bigQueue, { connection }, createPostgresBackend);
  const logs = new Queue(options.logJob.queue, { connection }, createPostgresBackend);
  try {
    const counts = await queue.getJobCounts('completed', 'failed', 'wait', 'delayed');
    const expected = {
      completed: perQueueMix.completed,
      failed: perQueueMix.failed,
      wait: perQueueMix.waiting,
      delayed: perQueueMix.delayed,
    };
    const [failed] = await queue.getJobs(['failed'], 0, 0);
    const job = await logs.getJob(options.logJob.id);
    const page = await big.getJobs(['completed'], 0, 49);
    const bigCounts = await big.getJobCounts('completed');
    const problems = [
      JSON.stringify(counts) === JSON.stringify(expected) ? '' : `counts ${JSON.stringify(counts)}`,
      failed?.stacktrace?.length && failed.failedReason.startsWith('card declined')
        ? ''
        : 'failed job without its trace',
      job?.returnvalue?.charged === true && job.finishedOn && (await job.getState()) === 'completed' ? '' : 'read job',
      (await logs.getJobLogs(options.logJob.id)).count === 20 ? '' : 'logs',
      page.length === 50 && page.every((one) => one.finishedOn) ? '' : `big page ${page.length}`,
      bigCounts.completed === options.bigCount ? '' : `big count ${bigCounts.completed}`,
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`the seed does not read back through BullMQ: ${problems.join(', ')}`);
    return `counts, a completed job (state, return value, 20 log lines), a failure's trace, a page of 50 of ${options.bigCount}`;
  } finally {
    await Promise.allSettled([queue.close(), big.close(), logs.close()]);
  }
}
