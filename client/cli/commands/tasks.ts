import { defineCommand } from '../command.js';
import { formatTable, writeJson } from '../output.js';
import { startProgress } from '../progress.js';

const pollMs = 1000;
const ended = new Set(['done', 'failed', 'cancelled']);

function bar(processed: number, total: number | null, width = 24): string {
  if (!total) return `${processed} processed`;
  const filled = Math.min(width, Math.round((processed / total) * width));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${processed}/${total} (${Math.floor((100 * processed) / total)}%)`;
}

export const tasksCommand = defineCommand({
  name: 'tasks',
  usage: '[task-id] [--cancel]',
  summary:
    'Background tasks of the connection; with an id, follow one with a progress bar until it ends (--cancel stops it)',
  options: { cancel: { type: 'boolean', default: false } },
  flagHelp: { cancel: 'with a task id: stop that task' },
  examples: ['bullpen tasks', 'bullpen tasks 7f3c2a9e', 'bullpen tasks 7f3c2a9e --cancel'],
  arity: [0, 1],
  async run({ client, config, io, connectionId }, { positionals: [taskId], values }) {
    const connection = await connectionId();
    if (!taskId) {
      const { tasks } = await client.tasks.list.query({ connectionId: connection });
      if (config.json) return writeJson(io.stdout, tasks);
      const rows = tasks.map((t) => [
        t.id,
        t.kind,
        t.queueName,
        t.state,
        t.total ? `${t.processed}/${t.total}` : t.processed,
        t.ratePerSecond,
        t.createdAt,
      ]);
      return void io.stdout.write(
        formatTable(['id', 'kind', 'queue', 'state', 'processed', 'per second', 'created'], rows),
      );
    }
    if (values.cancel) {
      const cancelled = await client.tasks.cancel.mutate({ connectionId: connection, taskId });
      return void (config.json
        ? writeJson(io.stdout, cancelled)
        : io.stdout.write(`task ${taskId} ${cancelled.state}\n`));
    }
    const progress = startProgress(io.stderr, 'waiting for the task…');
    try {
      for (;;) {
        const task = await client.tasks.get.query({ connectionId: connection, taskId });
        progress.update(
          `${task.kind} ${task.queueName ?? ''} ${bar(task.processed, task.total)} ${task.ratePerSecond}/s`,
        );
        if (ended.has(task.state)) {
          progress.stop();
          if (config.json) return writeJson(io.stdout, task);
          io.stdout.write(
            `task ${task.id} ${task.state}: ${task.processed} processed${task.error ? ` (${task.error})` : ''}\n`,
          );
          return task.state === 'done' ? 0 : 1;
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    } finally {
      progress.stop();
    }
  },
});
