import type { PurgeSelector } from '../../api-types.js';
import type { BullpenClient } from '../../index.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../context.js';
import { writeJson } from '../output.js';
import { withProgress } from '../progress.js';
import { askLine } from '../prompt.js';

/** The server checks each status (and names the valid ones) before it removes anything. */
function purgeStatuses(values: string[]): PurgeSelector[] {
  if (values.length === 0) throw new UsageError('give at least one --status (e.g. --status failed, or --status all)');
  return values as PurgeSelector[];
}

/** The name people know a connection by, whether `--conn` gave its name or its id. */
async function connectionName(client: BullpenClient, connection: string): Promise<string> {
  const { connections } = await client.connections.list.query();
  return (
    connections.find((candidate) => candidate.id === connection || candidate.name === connection)?.name ?? connection
  );
}

export const purgeCommand = defineCommand({
  name: 'purge',
  usage: '<queue> --status STATUS [--status STATUS...] [--yes] [--async]',
  summary: 'Remove every job of the given statuses (the queue stays); asks you to type the queue name unless --yes',
  options: {
    status: { type: 'string', multiple: true, default: [] },
    yes: { type: 'boolean', short: 'y', default: false },
    async: { type: 'boolean', default: false },
  },
  flagHelp: {
    status: 'a status to empty (repeat it): completed, failed, delayed, waiting, prioritized, paused, or all',
    yes: 'do not ask for the queue name',
    async: 'run as a background task without the batch cap; follow it with bullpen tasks',
  },
  examples: [
    'bullpen purge emails --status completed',
    'bullpen purge emails --status failed --status completed --yes',
    'bullpen purge emails --status all --async --yes',
  ],
  arity: [1, 1],
  async run({ client, config, io, connectionId }, { positionals: [queueName], values }) {
    const statuses = purgeStatuses(values.status);
    const connection = await connectionId();
    if (!values.yes) {
      const where = await connectionName(client, connection);
      const typed = await askLine(
        io,
        `This removes every ${statuses.join(', ')} job of "${queueName}" on connection "${where}".\nType the queue name to confirm: `,
      );
      if (typed !== queueName) {
        io.stderr.write('confirmation did not match the queue name: nothing purged\n');
        return 1;
      }
    }
    const result = await withProgress(io.stderr, `purging ${statuses.join(', ')} jobs of ${queueName}…`, () =>
      client.queues.purge.mutate({
        connectionId: connection,
        queueName: queueName!,
        confirmName: queueName!,
        statuses,
        ...(values.async ? { async: true } : {}),
      }),
    );
    if (config.json) return writeJson(io.stdout, result);
    if (result.taskId)
      return void io.stdout.write(
        `task ${result.taskId} started (no batch cap); follow it with: bullpen tasks ${result.taskId}\n`,
      );
    const perStatus = Object.entries(result.removedByStatus)
      .map(([status, count]) => `${status} ${count}`)
      .join(', ');
    io.stdout.write(`purged ${result.totalRemoved} job(s) from ${result.queueName} (${perStatus})\n`);
  },
});
