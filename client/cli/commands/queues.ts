import type { inferRouterInputs } from '@trpc/server';
import type { AppRouter } from '../../api-types.js';
import { defineCommand, integerFlag } from '../command.js';
import { formatTable, writeJson } from '../output.js';
import { pageFooter } from './page-footer.js';
import { totalsLine } from './queue-totals.js';

type QueueState = NonNullable<inferRouterInputs<AppRouter>['queues']['list']['state']>;

export const queuesCommand = defineCommand({
  name: 'queues',
  usage: '[--search TEXT] [--state paused|running|failing|idle] [--totals] [--page N] [--page-size N]',
  summary: 'List the queues of a connection with their job counts (--state keeps one state; --totals sums every queue)',
  options: {
    search: { type: 'string' },
    state: { type: 'string' },
    totals: { type: 'boolean', default: false },
    page: { type: 'string' },
    'page-size': { type: 'string' },
  },
  flagHelp: {
    search: 'only queues whose name contains this text',
    state: 'only paused, running, failing (failed jobs) or idle (nothing waiting or active) queues',
    totals: 'add one line of job counts summed over every queue of the connection',
    page: 'which page, from 1 (default 1)',
    'page-size': 'queues per page (default 50)',
  },
  examples: [
    'bullpen queues',
    'bullpen queues --state failing --totals',
    'bullpen queues --search mail --page-size 10',
  ],
  arity: [0, 0],
  async run({ client, config, io, connectionId }, { values }) {
    const result = await client.queues.list.query({
      connectionId: await connectionId(),
      search: values.search ?? '',
      // The server checks the state and names the valid ones when it refuses.
      ...(values.state !== undefined ? { state: values.state as QueueState } : {}),
      ...(values.totals ? { totals: true } : {}),
      page: integerFlag('page', values.page, 1),
      pageSize: integerFlag('page-size', values['page-size'], 50),
    });
    if (config.json) return writeJson(io.stdout, result);
    const rows = result.queues.map(({ name, prefix, isPaused, jobCounts: n }) => [
      name,
      prefix,
      isPaused ? 'paused' : '',
      n.waiting,
      n.active,
      n.delayed,
      n.prioritized,
      n.completed,
      n.failed,
    ]);
    io.stdout.write(
      formatTable(
        ['queue', 'prefix', 'paused', 'waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'],
        rows,
      ),
    );
    io.stdout.write(pageFooter(result, values.state ? `${values.state} queues` : 'queues'));
    if (result.totals) io.stdout.write(totalsLine(result.totals));
  },
});
