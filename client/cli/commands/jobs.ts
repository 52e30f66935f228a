import type { JobStatus } from '../../api-types.js';
import { defineCommand, integerFlag } from '../command.js';
import { formatTable, formatTime, writeJson } from '../output.js';
import { pageFooter } from './page-footer.js';

export const jobsCommand = defineCommand({
  name: 'jobs',
  usage: '<queue> [--status STATUS] [--page N] [--page-size N] [--oldest]',
  summary: "List one page of a queue's jobs of a status (default waiting; active, delayed, completed, failed, ...)",
  options: { status: { type: 'string', default: 'waiting' }, page: { type: 'string' }, 'page-size': { type: 'string' }, oldest: { type: 'boolean', default: false } },
  flagHelp: {
    status: 'waiting (default), active, delayed, prioritized, completed, failed, paused or waitingChildren',
    page: 'which page, from 1 (default 1)',
    'page-size': 'jobs per page (default 50)',
    oldest: 'oldest first (default: newest first)',
  },
  examples: ['bullpen jobs emails --status failed', 'bullpen jobs emails --status completed --page 2 --page-size 100', 'bullpen jobs emails --oldest'],
  arity: [1, 1],
  async run({ client, config, io, connectionId }, { positionals: [queueName], values }) {
    const result = await client.jobs.list.query({
      connectionId: await connectionId(),
      queueName: queueName!,
      // The server checks the status and names the valid ones when it refuses.
      status: values.status as JobStatus,
      page: integerFlag('page', values.page, 1),
      pageSize: integerFlag('page-size', values['page-size'], 50),
      order: values.oldest ? 'oldest' : 'newest',
      maxDataBytes: 200,
    });
    if (config.json) return writeJson(io.stdout, result);
    const rows = result.jobs.map((job) => [
      job.id, job.name, job.attemptsMade, formatTime(job.timestamp), formatTime(job.finishedOn), job.failedReason ?? JSON.stringify(job.data),
    ]);
    io.stdout.write(formatTable(['id', 'name', 'attempts', 'created', 'finished', 'failed reason / data'], rows));
    io.stdout.write(pageFooter(result, `${values.status} jobs`));
  },
});
