import type { BullpenClient } from '../../index.js';
import { defineCommand } from '../command.js';
import { formatTime, writeJson } from '../output.js';

/** Largest range the logs route returns per call. */
const logsPerCall = 1000;

async function readAllLogs(
  client: BullpenClient,
  target: { connectionId: string; queueName: string; jobId: string },
  count: number,
) {
  const logs: string[] = [];
  for (let start = 0; start < count; start += logsPerCall) {
    const page = await client.jobs.logs.query({ ...target, start, end: start + logsPerCall - 1 });
    logs.push(...page.logs);
    if (page.logs.length < logsPerCall) break;
  }
  return logs;
}

const pretty = (value: unknown) => (value === undefined ? '-' : JSON.stringify(value, null, 2));

export const jobCommand = defineCommand({
  name: 'job',
  usage: '<queue> <id> [--logs]',
  summary: 'Show one job in full (data, options, result, failure, stack trace); --logs adds its log lines',
  options: { logs: { type: 'boolean', default: false } },
  flagHelp: { logs: 'also print every log line the job wrote' },
  examples: ['bullpen job emails 42', 'bullpen job emails 42 --logs', 'bullpen job emails 42 --json'],
  arity: [2, 2],
  async run({ client, config, io, connectionId }, { positionals: [queueName, jobId], values }) {
    const target = { connectionId: await connectionId(), queueName: queueName!, jobId: jobId! };
    const job = await client.jobs.get.query(target);
    const logs = values.logs ? await readAllLogs(client, target, job.logsCount) : undefined;
    if (config.json) return writeJson(io.stdout, logs ? { ...job, logs } : job);
    const fields: Array<[string, unknown]> = [
      ['id', job.id],
      ['name', job.name],
      ['state', job.state],
      ['attempts', `${job.attemptsMade} made, ${job.attemptsStarted} started`],
      ['created', formatTime(job.timestamp)],
      ['processed', formatTime(job.processedOn)],
      ['finished', formatTime(job.finishedOn)],
      ['processed by', job.processedBy ?? '-'],
      ['progress', pretty(job.progress)],
      ['delay', job.delay],
      ['priority', job.priority],
      ['parent', job.parent ? `${job.parent.queueName}/${job.parent.id}` : '-'],
      ['children', job.children ? job.children.items.length : '-'],
      ['failed reason', job.failedReason ?? '-'],
      ['data', pretty(job.data)],
      ['return value', pretty(job.returnvalue)],
      ['options', pretty(job.opts)],
    ];
    for (const [label, value] of fields) io.stdout.write(`${`${label}:`.padEnd(15)}${String(value)}\n`);
    if (job.stacktrace.length > 0) io.stdout.write(`stack trace:\n${job.stacktrace.join('\n')}\n`);
    if (logs) io.stdout.write(`logs (${logs.length}):\n${logs.map((line) => `  ${line}`).join('\n')}\n`);
  },
});
