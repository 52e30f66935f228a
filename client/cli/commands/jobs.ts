import { jobStatuses, type JobStatus } from '../../../contracts/jobs.js';
import { defineCommand, integerFlag } from '../command.js';
import { UsageError } from '../context.js';
import { formatTable, formatTime, writeJson } from '../output.js';
import { pageFooter } from './page-footer.js';

export function jobStatusFlag(value: string): JobStatus {
  if (!(jobStatuses as readonly string[]).includes(value)) throw new UsageError(`--status must be one of ${jobStatuses.join(', ')}`);
  return value as JobStatus;
}

export const jobsCommand = defineCommand({
  name: 'jobs',
  usage: '<queue> [--status STATUS] [--page N] [--page-size N] [--oldest]',
  summary: `List one page of a queue's jobs of a status (default waiting; ${jobStatuses.join(', ')})`,
  options: { status: { type: 'string', default: 'waiting' }, page: { type: 'string' }, 'page-size': { type: 'string' }, oldest: { type: 'boolean', default: false } },
  arity: [1, 1],
  async run({ client, config, io, connectionId }, { positionals: [queueName], values }) {
    const result = await client.jobs.list.query({
      connectionId: await connectionId(),
      queueName: queueName!,
      status: jobStatusFlag(values.status),
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
