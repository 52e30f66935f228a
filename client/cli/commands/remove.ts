import type { BulkOutcome } from '../../api-types.js';
import { defineCommand } from '../command.js';
import { confirmationFor, confirmFlag } from '../confirm.js';
import { UsageError } from '../context.js';
import { formatTable, writeJson } from '../output.js';
import { runSearchAction, searchFlagHelp, searchFlags, selectsBySearch, type SearchBody } from './search-selection.js';

/** The most ids the remove route takes per call. */
const idsPerCall = 100;

export const removeCommand = defineCommand({
  name: 'remove',
  usage:
    '<queue> <id...> | <queue> --search TEXT [--in FIELD] [--status STATUS] [--batch N] [--dry-run | --async [--max-per-second N]] [--confirm QUEUE]',
  summary:
    'Remove jobs: the ids given, or the jobs a search matches (default: waiting, delayed, completed, failed, prioritized; --dry-run counts); --confirm names the queue on a confirm-protected connection',
  options: {
    async: { type: 'boolean', default: false },
    'max-per-second': { type: 'string' },
    ...searchFlags,
    ...confirmFlag,
  },
  flagHelp: {
    async: 'with --search: run as a background task; follow it with bullpen tasks',
    'max-per-second': 'with --async: jobs removed per second at most',
    ...searchFlagHelp,
    confirm: 'the queue name, which a confirm-protected connection asks for',
  },
  examples: [
    'bullpen remove emails 41 42',
    "bullpen remove emails --search 'test-' --in name --dry-run",
    'bullpen remove emails --search smtp --status failed --confirm emails',
  ],
  arity: [1, Number.POSITIVE_INFINITY],
  async run(context, { positionals: [queueName, ...jobIds], values }) {
    if (!selectsBySearch(values) === (jobIds.length === 0))
      throw new UsageError('give job ids or --search (one of them)');
    if (!selectsBySearch(values) && (values['dry-run'] || values.in || values.status || values.batch || values.async)) {
      throw new UsageError('--dry-run, --in, --status, --batch and --async go with --search');
    }
    const { client, config, io, connectionId } = context;
    type RemoveInput = Parameters<typeof client.jobs.remove.mutate>[0];
    // A dry run removes nothing: no connection asks it for confirmation.
    const confirmation = values['dry-run']
      ? {}
      : await confirmationFor(context, queueName!, values.confirm, `removes jobs of "${queueName}"`);
    if (selectsBySearch(values)) {
      const send = (body: SearchBody) => client.jobs.remove.mutate({ ...body, ...confirmation } as RemoveInput);
      return runSearchAction(context, { verb: 'remove', send }, queueName!, values);
    }
    const queue = { connectionId: await connectionId(), queueName: queueName!, ...confirmation };
    const total: BulkOutcome = { results: [], succeeded: 0, failed: 0 };
    for (let start = 0; start < jobIds.length; start += idsPerCall) {
      const outcome = await client.jobs.remove.mutate({ ...queue, jobIds: jobIds.slice(start, start + idsPerCall) });
      total.results.push(...outcome.results);
      total.succeeded += outcome.succeeded;
      total.failed += outcome.failed;
    }
    if (config.json) return writeJson(io.stdout, total);
    const refused = total.results.filter((result) => !result.ok);
    if (refused.length > 0)
      io.stdout.write(
        formatTable(
          ['id', 'code', 'error'],
          refused.map((r) => [r.jobId, r.code, r.error]),
        ),
      );
    io.stdout.write(
      `removed ${total.succeeded} job(s) from ${queueName}${total.failed ? `, ${total.failed} refused` : ''}\n`,
    );
    return total.failed > 0 ? 1 : 0;
  },
});
