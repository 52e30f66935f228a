import { defineCommand, integerFlag } from '../command.js';
import { formatTable, writeJson } from '../output.js';
import { pageFooter } from './page-footer.js';

export const queuesCommand = defineCommand({
  name: 'queues',
  usage: '[--search TEXT] [--page N] [--page-size N]',
  summary: 'List the queues of a connection with their job counts',
  options: { search: { type: 'string' }, page: { type: 'string' }, 'page-size': { type: 'string' } },
  arity: [0, 0],
  async run({ client, config, io, connectionId }, { values }) {
    const result = await client.queues.list.query({
      connectionId: await connectionId(),
      search: values.search ?? '',
      page: integerFlag('page', values.page, 1),
      pageSize: integerFlag('page-size', values['page-size'], 50),
    });
    if (config.json) return writeJson(io.stdout, result);
    const rows = result.queues.map(({ name, prefix, isPaused, jobCounts: n }) => [
      name, prefix, isPaused ? 'paused' : '', n.waiting, n.active, n.delayed, n.prioritized, n.completed, n.failed,
    ]);
    io.stdout.write(formatTable(['queue', 'prefix', 'paused', 'waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'], rows));
    io.stdout.write(pageFooter(result, 'queues'));
  },
});
