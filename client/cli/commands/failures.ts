import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../api-types.js';
import { defineCommand, integerFlag } from '../command.js';
import { UsageError } from '../context.js';
import { formatTime, writeJson } from '../output.js';
import { withProgress } from '../progress.js';

type Triage = inferRouterOutputs<AppRouter>['jobs']['failures'];
type Group = Triage['groups'][number];

/** Failed jobs read per request (the route's most). */
const perRequest = 5000;
const examplesKept = 5;

/** The groups of successive pages of one triage, added up by error class and reason. */
export function mergeGroups(into: Map<string, Group>, groups: Group[]): void {
  for (const group of groups) {
    const key = JSON.stringify([group.errorClass, group.reason]);
    const known = into.get(key);
    if (!known) {
      into.set(key, { ...group, exampleIds: [...group.exampleIds] });
      continue;
    }
    known.count += group.count;
    known.firstSeen = Math.min(known.firstSeen, group.firstSeen);
    known.lastSeen = Math.max(known.lastSeen, group.lastSeen);
    known.exampleIds.push(...group.exampleIds.slice(0, examplesKept - known.exampleIds.length));
  }
}

/** One block per group: count and class, then the whole normalised reason, an example as written, and job ids. */
function describeGroups(groups: Group[]): string {
  const countWidth = Math.max(...groups.map((group) => String(group.count).length));
  const indent = ' '.repeat(countWidth + 2);
  return groups
    .map((group) =>
      [
        `${String(group.count).padStart(countWidth)}  ${group.errorClass ?? '(no stack trace)'}  first ${formatTime(group.firstSeen)}  last ${formatTime(group.lastSeen)}`,
        `${indent}reason:  ${group.reason}`,
        ...(group.exampleReason !== group.reason ? [`${indent}example: ${group.exampleReason}`] : []),
        `${indent}jobs:    ${group.exampleIds.join(' ')}`,
      ].join('\n'),
    )
    .join('\n\n');
}

export const failuresCommand = defineCommand({
  name: 'failures',
  usage: '<queue> [--window 24h] [--max N]',
  summary:
    'Failure triage: the failed jobs of a window grouped by error class and reason (numbers, ids and quoted values aside), with counts, first and last seen and example ids',
  options: { window: { type: 'string', default: '24h' }, max: { type: 'string' } },
  flagHelp: {
    window: 'how far back: minutes, hours or days such as 30m, 24h, 7d (default 24h)',
    max: 'stop after examining this many failed jobs (default 50000)',
  },
  examples: [
    'bullpen failures emails',
    'bullpen failures emails --window 7d',
    'bullpen failures emails --window 1h --json',
  ],
  arity: [1, 1],
  async run({ client, config, io, connectionId }, { positionals: [queueName], values }) {
    if (!/^[1-9]\d{0,3}[mhd]$/.test(values.window))
      throw new UsageError(`--window takes a span such as 30m, 24h or 7d, got "${values.window}"`);
    const max = integerFlag('max', values.max, 50_000);
    const target = { connectionId: await connectionId(), queueName: queueName!, window: values.window };
    const groups = new Map<string, Group>();
    let page: Triage | undefined;
    await withProgress(io.stderr, `reading the failed jobs of ${queueName}…`, async (progress) => {
      do {
        const limit = Math.max(1, Math.min(perRequest, max - (page?.scannedTotal ?? 0)));
        page = await client.jobs.failures.query({
          ...target,
          limit,
          ...(page?.nextCursor ? { cursor: page.nextCursor } : {}),
        });
        mergeGroups(groups, page.groups);
        progress.update(`reading the failed jobs of ${queueName}: ${page.scannedTotal} examined`);
      } while (page.nextCursor && page.scannedTotal < max);
    });
    const last = page!;
    const sorted = [...groups.values()].sort((a, b) => b.count - a.count || b.lastSeen - a.lastSeen);
    if (config.json)
      return writeJson(io.stdout, {
        from: last.from,
        to: last.to,
        groups: sorted,
        scanned: last.scannedTotal,
        done: last.done,
      });
    const window = `from ${formatTime(last.from)} to ${formatTime(last.to)}`;
    io.stdout.write(
      `${queueName}: ${last.scannedTotal} failed job(s) ${window}, ${sorted.length} group(s)${last.done ? '' : ` (stopped after ${max}: raise --max for the rest)`}\n`,
    );
    if (sorted.length > 0) io.stdout.write(`\n${describeGroups(sorted)}\n`);
  },
});
