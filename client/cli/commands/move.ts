import { defineCommand, integerFlag } from '../command.js';
import { confirmationFor, confirmFlag } from '../confirm.js';
import { UsageError } from '../context.js';
import { formatTable, writeJson } from '../output.js';
import { runSearchAction, searchFlagHelp, searchFlags, selectsBySearch, type SearchBody } from './search-selection.js';

const statuses = ['waiting', 'delayed', 'completed', 'failed', 'prioritized'] as const;

export const moveCommand = defineCommand({
  name: 'move',
  usage:
    '<queue> --to <queue> [--to-conn CONN] (--status STATUS | <id...> | --search TEXT [--in FIELD] [--status STATUS] [--batch N]) [--keep-ids] [--dry-run] [--async [--max-per-second N]] [--confirm QUEUE]',
  summary:
    'Move jobs to another queue (dead-letter redrive): named ids, every job of a status, or the jobs a search matches (--dry-run counts); a move empties its source, so --confirm names the source queue on a confirm-protected connection',
  options: {
    to: { type: 'string' },
    'to-conn': { type: 'string' },
    'keep-ids': { type: 'boolean', default: false },
    async: { type: 'boolean', default: false },
    'max-per-second': { type: 'string' },
    ...searchFlags,
    ...confirmFlag,
  },
  flagHelp: {
    to: 'the queue the jobs go to (created when missing)',
    'to-conn':
      'the connection of the target queue, by name or id (default: the same connection); Redis and PostgreSQL connections mix (a queue moves from one kind to the other)',
    'keep-ids': 'keep each job id (default: <source queue>-<id>)',
    async: 'run as a background task; follow it with bullpen tasks',
    'max-per-second': 'with --async: jobs moved per second at most',
    ...searchFlagHelp,
    status:
      'without --search: move every job of this status (waiting, delayed, completed, failed, prioritized); with it, the statuses to look in',
    confirm: 'the source queue name, which a confirm-protected connection asks for (a move empties its source)',
  },
  examples: [
    'bullpen move emails-dead-letter --to emails --status failed',
    'bullpen move emails --to emails-dead-letter 41 42 43',
    'bullpen move emails --to emails-retry --search smtp --in failedReason --dry-run',
    'bullpen move emails --to emails --to-conn pg-main --status waiting --async',
  ],
  arity: [1, Number.POSITIVE_INFINITY],
  async run(context, { positionals: [queueName, ...jobIds], values }) {
    const { client, config, io, connectionId } = context;
    if (!values.to) throw new UsageError('--to names the target queue');
    const to = { queueName: values.to, ...(values['to-conn'] ? { connectionId: values['to-conn'] } : {}) };
    const keepIds = values['keep-ids'] ? { keepIds: true } : {};
    // A dry run moves nothing: no connection asks it for confirmation.
    const confirmation = values['dry-run']
      ? {}
      : await confirmationFor(context, queueName!, values.confirm, `empties jobs out of "${queueName}"`);
    if (selectsBySearch(values)) {
      if (jobIds.length > 0)
        throw new UsageError('give job ids, --status or --search (one of them; --status filters a search)');
      type MoveInput = Parameters<typeof client.jobs.move.mutate>[0];
      const send = (body: SearchBody) =>
        client.jobs.move.mutate({ ...body, to, ...keepIds, ...confirmation } as MoveInput);
      const destination = `to ${values.to}${values['to-conn'] ? ` (${values['to-conn']})` : ''}`;
      return runSearchAction(context, { verb: 'move', send, destination }, queueName!, values);
    }
    if (values.in || values.batch) throw new UsageError('--in and --batch go with --search');
    if ((values.status === undefined) === (jobIds.length === 0))
      throw new UsageError('give job ids, --status or --search (one of them)');
    if (values.status && values.status.length > 1) throw new UsageError('--status takes one status without --search');
    const status = values.status?.[0] as (typeof statuses)[number] | undefined;
    if (status !== undefined && !statuses.includes(status))
      throw new UsageError(`--status takes one of ${statuses.join(', ')}`);
    const outcome = await client.jobs.move.mutate({
      connectionId: await connectionId(),
      queueName: queueName!,
      to,
      ...(status ? { status, all: true as const } : { jobIds }),
      ...keepIds,
      ...confirmation,
      ...(values['dry-run'] ? { dryRun: true } : {}),
      ...(values.async
        ? {
            async: true,
            ...(values['max-per-second']
              ? { maxPerSecond: integerFlag('max-per-second', values['max-per-second'], 0) }
              : {}),
          }
        : {}),
    });
    if (config.json) return writeJson(io.stdout, outcome);
    const target = `${outcome.target.queueName} (${values['to-conn'] ?? outcome.target.connectionId})`;
    if (outcome.taskId)
      return void io.stdout.write(
        `task ${outcome.taskId} moving to ${target}; follow it with: bullpen tasks ${outcome.taskId}\n`,
      );
    if (outcome.matched !== undefined)
      return void io.stdout.write(`would move ${outcome.matched} job(s) from ${queueName} to ${target}\n`);
    const refused = outcome.results.filter((result) => !result.ok);
    if (refused.length > 0)
      io.stdout.write(
        formatTable(
          ['id', 'code', 'error'],
          refused.map((r) => [r.jobId, r.code, r.error]),
        ),
      );
    io.stdout.write(
      `moved ${outcome.succeeded} job(s) from ${queueName} to ${target}${outcome.failed ? `, ${outcome.failed} refused` : ''}${outcome.done === false ? ' (more remain: run again)' : ''}\n`,
    );
    return outcome.failed > 0 ? 1 : 0;
  },
});
