import type { JobStatus } from '../../api-types.js';
import type { BullpenClient } from '../../index.js';
import { defineCommand, integerFlag } from '../command.js';
import { UsageError, type CliIo } from '../context.js';
import { formatTable, formatTime, writeJson } from '../output.js';
import { pageFooter } from './page-footer.js';

type JobRow = {
  id: string;
  name?: string | undefined;
  attemptsMade?: number | undefined;
  timestamp?: number | undefined;
  finishedOn?: number | null | undefined;
  failedReason?: string | null | undefined;
  data?: unknown;
  state?: string | undefined;
};

const table = (jobs: JobRow[], withState: boolean) =>
  formatTable(
    [...(withState ? ['state'] : []), 'id', 'name', 'attempts', 'created', 'finished', 'failed reason / data'],
    jobs.map((job) => [
      ...(withState ? [job.state] : []),
      job.id,
      job.name,
      job.attemptsMade,
      formatTime(job.timestamp),
      formatTime(job.finishedOn),
      job.failedReason ?? JSON.stringify(job.data),
    ]),
  );

/** One page of a search: `--search TEXT`, `--where TERMS` or both, continued by `--cursor`. */
async function searchPage(
  client: BullpenClient,
  io: CliIo,
  json: boolean,
  target: { connectionId: string; queueName: string },
  values: Record<string, string | boolean | undefined>,
) {
  const page = await client.jobs.search.query({
    ...target,
    ...(values.search !== undefined ? { q: values.search as string } : {}),
    ...(values.where !== undefined ? { where: values.where as string } : {}),
    // A comma list, as the query string takes it; the server names a wrong status.
    ...(values.status !== undefined ? { status: values.status as string } : {}),
    ...(values.cursor !== undefined ? { cursor: values.cursor as string } : {}),
    limit: integerFlag('page-size', values['page-size'] as string | undefined, 50),
    maxDataBytes: 200,
  });
  if (json) return writeJson(io.stdout, page);
  io.stdout.write(table(page.jobs, true));
  const next = page.nextCursor ? ` (next: --cursor ${page.nextCursor})` : ', search done';
  io.stdout.write(`${page.jobs.length} match(es), ${page.scannedTotal} job(s) scanned${next}\n`);
}

export const jobsCommand = defineCommand({
  name: 'jobs',
  usage:
    '<queue> [--status STATUS] [--page N] [--page-size N] [--oldest] | <queue> --search TEXT | --where TERMS [--status S1,S2] [--cursor C]',
  summary:
    "List one page of a queue's jobs of a status (default waiting; active, delayed, completed, failed, ...), or search them by text or by field",
  options: {
    status: { type: 'string' },
    page: { type: 'string' },
    'page-size': { type: 'string' },
    oldest: { type: 'boolean', default: false },
    search: { type: 'string' },
    where: { type: 'string' },
    cursor: { type: 'string' },
  },
  flagHelp: {
    status:
      'waiting (default), active, delayed, prioritized, completed, failed, paused or waitingChildren; a search takes a comma list (default: all)',
    page: 'which page, from 1 (default 1)',
    'page-size': 'jobs per page (default 50; a search: matches per page, at most 100)',
    oldest: 'oldest first (default: newest first)',
    search: 'find jobs whose id, name, data or failure reason contains this text',
    where: "find jobs whose fields match these terms, e.g. 'data.customer.id:42 data.items[].sku:ABC opts.priority>5'",
    cursor: 'a search: the next page, as the previous page named it',
  },
  examples: [
    'bullpen jobs emails --status failed',
    'bullpen jobs emails --status completed --page 2 --page-size 100',
    'bullpen jobs emails --oldest',
    "bullpen jobs orders --where 'data.customer.id:42 data.total>=100' --status failed,completed",
  ],
  arity: [1, 1],
  async run({ client, config, io, connectionId }, { positionals: [queueName], values }) {
    const target = { connectionId: await connectionId(), queueName: queueName! };
    if (values.search !== undefined || values.where !== undefined) {
      if (values.page || values.oldest)
        throw new UsageError('--page and --oldest list a status; a search goes on with --cursor');
      return searchPage(client, io, config.json, target, values);
    }
    if (values.cursor !== undefined) throw new UsageError('--cursor goes with --search or --where');
    const status = values.status ?? 'waiting';
    const result = await client.jobs.list.query({
      ...target,
      // The server checks the status and names the valid ones when it refuses.
      status: status as JobStatus,
      page: integerFlag('page', values.page, 1),
      pageSize: integerFlag('page-size', values['page-size'], 50),
      order: values.oldest ? 'oldest' : 'newest',
      maxDataBytes: 200,
    });
    if (config.json) return writeJson(io.stdout, result);
    io.stdout.write(table(result.jobs, false));
    io.stdout.write(pageFooter(result, `${status} jobs`));
  },
});
