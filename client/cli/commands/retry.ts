import type { BulkOutcome } from '../../api-types.js';
import { defineCommand, integerFlag } from '../command.js';
import { UsageError } from '../context.js';
import { formatTable, writeJson } from '../output.js';
import { withProgress } from '../progress.js';
import { runSearchAction, searchFlagHelp, searchFlags, selectsBySearch, type SearchBody } from './search-selection.js';

/** The most ids the retry route takes per call. */
const idsPerCall = 100;
/** Calls of the `all` form before giving up on a queue that keeps failing jobs as fast as we retry them. */
const maxAllCalls = 10_000;

export const retryCommand = defineCommand({
  name: 'retry',
  usage:
    '<queue> <id...> | <queue> --all-failed [--async [--max-per-second N]] | <queue> --search TEXT [--in FIELD] [--status STATUS] [--batch N] [--dry-run | --async [--max-per-second N]]',
  summary:
    'Move failed jobs back to waiting: the ids given, every failed job, or the failed jobs a search matches (--dry-run counts; --async: as a background task)',
  options: {
    'all-failed': { type: 'boolean', default: false },
    async: { type: 'boolean', default: false },
    'max-per-second': { type: 'string' },
    ...searchFlags,
  },
  flagHelp: {
    'all-failed': 'every failed job of the queue',
    async: 'with --all-failed or --search: run as a background task; follow it with bullpen tasks',
    'max-per-second': 'with --async: jobs retried per second at most',
    ...searchFlagHelp,
  },
  examples: [
    'bullpen retry emails 41 42',
    'bullpen retry emails --all-failed',
    'bullpen retry emails --search SmtpTimeout --in failedReason --dry-run',
  ],
  arity: [1, Number.POSITIVE_INFINITY],
  async run(context, { positionals: [queueName, ...jobIds], values }) {
    const { client, config, io, connectionId } = context;
    const selections = [jobIds.length > 0, values['all-failed'], selectsBySearch(values)].filter(Boolean).length;
    if (selections !== 1) throw new UsageError('give job ids, --all-failed or --search (one of them)');
    if (!selectsBySearch(values) && (values['dry-run'] || values.in || values.status || values.batch))
      throw new UsageError('--dry-run, --in, --status and --batch go with --search');
    if (selectsBySearch(values)) {
      const send = (body: SearchBody) =>
        client.jobs.retry.mutate(body as Parameters<typeof client.jobs.retry.mutate>[0]);
      return runSearchAction(context, { verb: 'retry', send, defaultStatus: ['failed'] }, queueName!, values);
    }
    const queue = { connectionId: await connectionId(), queueName: queueName! };
    if (values.async) {
      if (!values['all-failed']) throw new UsageError('--async goes with --all-failed');
      const maxPerSecond =
        values['max-per-second'] === undefined
          ? {}
          : { maxPerSecond: integerFlag('max-per-second', values['max-per-second'], 0) };
      const accepted = await client.jobs.retry.mutate({
        ...queue,
        status: 'failed',
        all: true,
        async: true,
        ...maxPerSecond,
      });
      if (!accepted.taskId) throw new Error('the service ran the retry instead of starting a task');
      if (config.json) return writeJson(io.stdout, { taskId: accepted.taskId });
      io.stdout.write(`task ${accepted.taskId} started; follow it with: bullpen tasks ${accepted.taskId}\n`);
      return;
    }
    const total: BulkOutcome = { results: [], succeeded: 0, failed: 0 };
    await withProgress(io.stderr, 'retrying…', async (progress) => {
      if (values['all-failed']) {
        for (let call = 0; call < maxAllCalls; call++) {
          const outcome = await client.jobs.retry.mutate({ ...queue, status: 'failed', all: true });
          total.succeeded += outcome.succeeded;
          total.failed += outcome.failed;
          total.remaining = outcome.remaining;
          progress.update(`retried ${total.succeeded}, ${outcome.remaining ?? '?'} failed jobs remaining`);
          if (outcome.done !== false) break;
        }
        return;
      }
      for (let start = 0; start < jobIds.length; start += idsPerCall) {
        const outcome = await client.jobs.retry.mutate({ ...queue, jobIds: jobIds.slice(start, start + idsPerCall) });
        total.results.push(...outcome.results);
        total.succeeded += outcome.succeeded;
        total.failed += outcome.failed;
        progress.update(`retried ${total.succeeded} of ${jobIds.length}`);
      }
    });
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
      `retried ${total.succeeded} job(s) in ${queueName}${total.failed ? `, ${total.failed} refused` : ''}\n`,
    );
    return total.failed > 0 ? 1 : 0;
  },
});
