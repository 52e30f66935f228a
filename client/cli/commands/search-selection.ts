import type { BulkOutcome } from '../../api-types.js';
import { integerFlag, type Command } from '../command.js';
import { UsageError, type CliContext } from '../context.js';
import { formatTable, writeJson } from '../output.js';
import { withProgress } from '../progress.js';

/** Flags that select jobs by a search (retry, remove, move). */
export const searchFlags = {
  search: { type: 'string' },
  where: { type: 'string' },
  in: { type: 'string', multiple: true },
  status: { type: 'string', multiple: true },
  'dry-run': { type: 'boolean', default: false },
  batch: { type: 'string' },
} as const;

export const searchFlagHelp = {
  search: 'act on the jobs whose id, name, data or failure reason contains this text',
  where:
    "act on the jobs whose fields match these terms, e.g. 'data.customer.id:42 opts.priority>5' (with --search: both)",
  in: 'with --search: the fields to look in (repeat or comma-separate): id, name, data, failedReason',
  status: 'with --search: the statuses to look in (repeat or comma-separate)',
  'dry-run': 'count the jobs (and show a few ids) without acting',
  batch: 'with --search: matches acted on per request',
} as const satisfies Record<keyof typeof searchFlags, string>;

export interface SearchFlagValues {
  search?: string | undefined;
  where?: string | undefined;
  in?: string[] | undefined;
  status?: string[] | undefined;
  'dry-run'?: boolean | undefined;
  batch?: string | undefined;
  async?: boolean | undefined;
  'max-per-second'?: string | undefined;
}

const words = {
  retry: { done: 'retried', would: 'retry', doing: 'retrying' },
  remove: { done: 'removed', would: 'remove', doing: 'removing' },
  move: { done: 'moved', would: 'move', doing: 'moving' },
};

/** The selection every call of a search action carries; the action adds its own fields (`to`, `confirmName`). */
export interface SearchBody {
  connectionId: string;
  queueName: string;
  query: { q?: string; where?: string; in?: string[]; status?: string[] };
  limit?: number;
  cursor?: string;
  dryRun?: true;
  async?: true;
  maxPerSecond?: number;
}

/** A bulk action driven by a search: its verb, the call that sends one request, and where the jobs go (move). */
export interface SearchAction {
  verb: keyof typeof words;
  send(body: SearchBody): Promise<BulkOutcome>;
  /** Said after the queue in the summary, e.g. `to emails-retry`. */
  destination?: string;
  /** Statuses searched when no `--status` is given (the server's default otherwise). */
  defaultStatus?: string[];
}

/** Calls before giving up: every call advances the scan by at least a chunk, so a scan ends long before. */
const maxCalls = 100_000;

/** Refused ids listed at the end (the count covers them all). */
const maxListedRefusals = 100;

/** `--in data --in name` or `--in data,name`; the service checks the values. */
const listFlag = (values: string[] | undefined) =>
  values
    ? values
        .flatMap((value) => value.split(','))
        .map((value) => value.trim())
        .filter(Boolean)
    : undefined;

export interface SearchTotals {
  matched: number;
  succeeded: number;
  failed: number;
  scanned: number;
  sampleIds: string[];
  refused: BulkOutcome['results'];
}

/** Sends the same body with each answer's cursor until the scan is done, summing what the answers say. */
export async function followCursor(
  call: (cursor: string | undefined) => Promise<BulkOutcome>,
  onProgress: (totals: SearchTotals) => void,
): Promise<SearchTotals> {
  const totals: SearchTotals = { matched: 0, succeeded: 0, failed: 0, scanned: 0, sampleIds: [], refused: [] };
  let cursor: string | undefined;
  for (let calls = 0; calls < maxCalls; calls++) {
    const outcome = await call(cursor);
    totals.matched += outcome.matched ?? 0;
    totals.succeeded += outcome.succeeded;
    totals.failed += outcome.failed;
    totals.scanned += outcome.scanned ?? 0;
    totals.sampleIds.push(...(outcome.sampleIds ?? []).slice(0, 20 - totals.sampleIds.length));
    totals.refused.push(
      ...outcome.results.filter((result) => !result.ok).slice(0, maxListedRefusals - totals.refused.length),
    );
    onProgress(totals);
    if (outcome.done !== false || !outcome.cursor) break;
    cursor = outcome.cursor;
  }
  return totals;
}

/** Whether the flags select by a search: `--search`, `--where` or both. */
export const selectsBySearch = (values: SearchFlagValues) => values.search !== undefined || values.where !== undefined;

/** How the summary names the selection: `"text"`, `where data.x:1`, or both. */
const describeQuery = (query: SearchBody['query']) =>
  [query.q === undefined ? '' : JSON.stringify(query.q), query.where === undefined ? '' : `where ${query.where}`]
    .filter(Boolean)
    .join(' ');

/**
 * `--search TEXT` / `--where TERMS`: a dry run, a background task (`--async`), or the action
 * itself continued by cursor until the scan is done, counts on the spinner.
 */
export async function runSearchAction(
  { config, io, connectionId }: CliContext,
  action: SearchAction,
  queueName: string,
  values: SearchFlagValues,
): ReturnType<Command['run']> {
  const status = listFlag(values.status) ?? action.defaultStatus;
  const fields = listFlag(values.in);
  const query = {
    ...(values.search !== undefined ? { q: values.search } : {}),
    ...(values.where !== undefined ? { where: values.where } : {}),
    ...(fields ? { in: fields } : {}),
    ...(status ? { status } : {}),
  };
  if (values['max-per-second'] !== undefined && !values.async)
    throw new UsageError('--max-per-second goes with --async');
  const limit = values.batch === undefined ? {} : { limit: integerFlag('batch', values.batch, 0) };
  const target = { connectionId: await connectionId(), queueName, query, ...limit };
  const mutate = (body: Partial<SearchBody>) => action.send({ ...target, ...body });
  const verb = words[action.verb];
  if (values.async) {
    if (values['dry-run'] || values.batch) throw new UsageError('--dry-run and --batch go without --async');
    const maxPerSecond =
      values['max-per-second'] === undefined
        ? {}
        : { maxPerSecond: integerFlag('max-per-second', values['max-per-second'], 0) };
    const accepted = await mutate({ async: true, ...maxPerSecond });
    if (config.json) return writeJson(io.stdout, { taskId: accepted.taskId });
    return void io.stdout.write(`task ${accepted.taskId} started; follow it with: bullpen tasks ${accepted.taskId}\n`);
  }
  const dryRun = values['dry-run'] === true;
  const totals = await withProgress(io.stderr, dryRun ? 'counting…' : `${verb.doing}…`, (progress) =>
    followCursor(
      (cursor) => mutate({ ...(dryRun ? { dryRun: true } : {}), ...(cursor ? { cursor } : {}) }),
      (sum) =>
        progress.update(
          dryRun
            ? `${sum.matched} matched, ${sum.scanned} scanned`
            : `${verb.done} ${sum.succeeded}, ${sum.failed} refused, ${sum.scanned} scanned`,
        ),
    ),
  );
  if (config.json) return writeJson(io.stdout, totals);
  const matching = `matching ${describeQuery(query)} in ${queueName}${action.destination ? ` ${action.destination}` : ''} (${totals.scanned} jobs scanned)`;
  if (dryRun) {
    io.stdout.write(`would ${verb.would} ${totals.matched} job(s) ${matching}\n`);
    if (totals.sampleIds.length > 0) io.stdout.write(`for example: ${totals.sampleIds.join(' ')}\n`);
    return;
  }
  if (totals.refused.length > 0)
    io.stdout.write(
      formatTable(
        ['id', 'code', 'error'],
        totals.refused.map((r) => [r.jobId, r.code, r.error]),
      ),
    );
  io.stdout.write(
    `${verb.done} ${totals.succeeded} job(s) ${matching}${totals.failed ? `, ${totals.failed} refused` : ''}\n`,
  );
  return totals.failed > 0 ? 1 : 0;
}
