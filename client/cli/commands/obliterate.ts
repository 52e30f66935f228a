import { defineCommand } from '../command.js';
import { writeJson } from '../output.js';
import { withProgress } from '../progress.js';
import { askLine } from '../prompt.js';

export const obliterateCommand = defineCommand({
  name: 'obliterate',
  usage: '<queue> [--yes]',
  summary: 'Remove the queue and every key of it, active jobs included; asks you to type the queue name unless --yes',
  options: { yes: { type: 'boolean', short: 'y', default: false } },
  flagHelp: { yes: 'do not ask for the queue name' },
  examples: ['bullpen obliterate old-imports', 'bullpen obliterate old-imports --yes'],
  arity: [1, 1],
  async run({ client, config, io, connectionId }, { positionals: [queueName], values }) {
    const connection = await connectionId();
    if (!values.yes) {
      const typed = await askLine(
        io,
        `This removes the queue "${queueName}" on ${connection} and every job of it.\nType the queue name to confirm: `,
      );
      if (typed !== queueName) {
        io.stderr.write('confirmation did not match the queue name: nothing removed\n');
        return 1;
      }
    }
    // The server checks confirmName too: a script cannot obliterate without naming the queue.
    const result = await withProgress(io.stderr, `obliterating ${queueName}…`, () =>
      client.queues.obliterate.mutate({ connectionId: connection, queueName: queueName!, confirmName: queueName! }),
    );
    if (config.json) return writeJson(io.stdout, result);
    const removed = Object.values(result.removedJobCounts).reduce((sum, count) => sum + count, 0);
    io.stdout.write(`obliterated ${result.queueName} (${removed} job(s) removed)\n`);
  },
});
