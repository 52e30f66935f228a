import { defineCommand, integerFlag } from '../command.js';
import { UsageError } from '../context.js';
import { formatTable, writeJson } from '../output.js';

export const moveCommand = defineCommand({
  name: 'move',
  usage: '<queue> --to <queue> [--to-conn CONN] (--status STATUS | <id...>) [--keep-ids] [--dry-run] [--async [--max-per-second N]]',
  summary: 'Move jobs to another queue (dead-letter redrive): named ids or every job of a status',
  options: {
    to: { type: 'string' },
    'to-conn': { type: 'string' },
    status: { type: 'string' },
    'keep-ids': { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    async: { type: 'boolean', default: false },
    'max-per-second': { type: 'string' },
  },
  arity: [1, Number.POSITIVE_INFINITY],
  async run({ client, config, io, connectionId }, { positionals: [queueName, ...jobIds], values }) {
    if (!values.to) throw new UsageError('--to names the target queue');
    if ((values.status === undefined) === (jobIds.length === 0)) throw new UsageError('give job ids or --status (one of them)');
    const statuses = ['waiting', 'delayed', 'completed', 'failed', 'prioritized'] as const;
    const status = values.status as (typeof statuses)[number] | undefined;
    if (status !== undefined && !statuses.includes(status)) throw new UsageError(`--status takes one of ${statuses.join(', ')}`);
    const outcome = await client.jobs.move.mutate({
      connectionId: await connectionId(),
      queueName: queueName!,
      to: { queueName: values.to, ...(values['to-conn'] ? { connectionId: values['to-conn'] } : {}) },
      ...(status ? { status, all: true as const } : { jobIds }),
      ...(values['keep-ids'] ? { keepIds: true } : {}),
      ...(values['dry-run'] ? { dryRun: true } : {}),
      ...(values.async ? { async: true, ...(values['max-per-second'] ? { maxPerSecond: integerFlag('max-per-second', values['max-per-second'], 0) } : {}) } : {}),
    });
    if (config.json) return writeJson(io.stdout, outcome);
    const to = `${outcome.target.queueName} (${outcome.target.connectionId})`;
    if (outcome.taskId) return void io.stdout.write(`task ${outcome.taskId} moving to ${to}; follow it with: bullpen tasks ${outcome.taskId}\n`);
    if (outcome.matched !== undefined) return void io.stdout.write(`would move ${outcome.matched} job(s) from ${queueName} to ${to}\n`);
    const refused = outcome.results.filter((result) => !result.ok);
    if (refused.length > 0) io.stdout.write(formatTable(['id', 'code', 'error'], refused.map((r) => [r.jobId, r.code, r.error])));
    io.stdout.write(`moved ${outcome.succeeded} job(s) from ${queueName} to ${to}${outcome.failed ? `, ${outcome.failed} refused` : ''}${outcome.done === false ? ' (more remain: run again)' : ''}\n`);
    return outcome.failed > 0 ? 1 : 0;
  },
});
