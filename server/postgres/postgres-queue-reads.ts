import { jobCountKinds, type JobCounts, type QueueSummary } from '../../contracts/queues.js';
import type { QueueRef } from '../bullmq/queue-key.js';
import type { SelectedQueue, Selection, SelectionQuery } from '../bullmq/queue-selection.js';
import type { QueueSummary as MetricsSummary } from '../../contracts/metrics.js';
import { exportedStates, countKindOfState, type ExportCounts } from '../bullmq/export-counts.js';
import type { QueueReading } from '../history/sample-script.js';
import type { LargeCounts } from './large-counts.js';
import {
  exportExtras,
  finishedInPoints,
  finishedSince,
  queueFigures,
  type Db,
  type QueueFigureRow,
} from './bullmq-schema.js';

/**
 * A queue's eight counts as the Redis store reports them: BullMQ's
 * PostgreSQL backend keeps a paused queue's jobs `waiting` (a meta flag),
 * where Redis moved them to the paused list; here they count as `paused`.
 */
function countsOf(row: QueueFigureRow | undefined): JobCounts {
  const waiting = row?.waiting ?? 0;
  return {
    waiting: row?.paused ? 0 : waiting,
    active: row?.active ?? 0,
    delayed: row?.delayed ?? 0,
    completed: row?.completed ?? 0,
    failed: row?.failed ?? 0,
    paused: row?.paused ? waiting : 0,
    prioritized: row?.prioritized ?? 0,
    waitingChildren: row?.waitingChildren ?? 0,
  };
}

export async function summariesOf(db: Db, refs: QueueRef[], large?: LargeCounts): Promise<QueueSummary[]> {
  const figures =
    refs.length === 0
      ? new Map<string, QueueFigureRow>()
      : await queueFigures(
          db,
          refs.map((ref) => ref.name),
          large,
        );
  return refs.map((ref) => {
    const row = figures.get(ref.name);
    return { name: ref.name, prefix: ref.prefix, isPaused: row?.paused ?? false, jobCounts: countsOf(row) };
  });
}

const toRun = ['waiting', 'active', 'delayed', 'prioritized', 'paused'] as const;

/** The list's states (README, "Queues"), decided on a queue's summary. */
const holds: Record<NonNullable<SelectionQuery['state']>, (summary: QueueSummary) => boolean> = {
  paused: (summary) => summary.isPaused,
  running: (summary) => !summary.isPaused,
  failing: (summary) => summary.jobCounts.failed > 0,
  idle: (summary) => toRun.every((kind) => summary.jobCounts[kind] === 0),
};

/** selectQueues on PostgreSQL: every queue's counts in one statement, then the same state, sort and totals rules. */
export async function selectFromFigures(
  db: Db,
  refs: QueueRef[],
  query: SelectionQuery,
  large?: LargeCounts,
): Promise<Selection> {
  if (!query.state && !query.sortBy && !query.totals) return { selected: refs.map((ref) => ({ ref, count: 0 })) };
  const summaries = await summariesOf(db, refs, large);
  const selected: SelectedQueue[] = [];
  summaries.forEach((summary, index) => {
    if (!query.state || holds[query.state](summary))
      selected.push({ ref: refs[index]!, count: query.sortBy ? summary.jobCounts[query.sortBy] : 0 });
  });
  if (!query.totals) return { selected };
  const totals = Object.fromEntries(
    jobCountKinds.map((kind) => [kind, summaries.reduce((sum, summary) => sum + summary.jobCounts[kind], 0)]),
  ) as JobCounts;
  return { selected, totals };
}

const rate = (total: number, windowMinutes: number) => ({ total, perMinute: total / windowMinutes });

/** Connection metrics' summaries: the counts as the Redis export reads them (a paused queue's waiting jobs are not `waiting`) and rates. */
export async function metricsSummariesOf(db: Db, refs: QueueRef[], windowMinutes: number): Promise<MetricsSummary[]> {
  const names = refs.map((ref) => ref.name);
  const [summaries, finished] = await Promise.all([
    summariesOf(db, refs),
    refs.length === 0 ? new Map() : finishedInPoints(db, names, windowMinutes),
  ]);
  return summaries.map(({ name, prefix, isPaused, jobCounts }) => {
    const own = finished.get(name) ?? { completed: 0, failed: 0 };
    return {
      queueName: name,
      prefix,
      isPaused,
      counts: {
        active: jobCounts.active,
        completed: jobCounts.completed,
        delayed: jobCounts.delayed,
        failed: jobCounts.failed,
        prioritized: jobCounts.prioritized,
        waiting: jobCounts.waiting,
        'waiting-children': jobCounts.waitingChildren,
      },
      rates: { completed: rate(own.completed, windowMinutes), failed: rate(own.failed, windowMinutes) },
    };
  });
}

/** The Prometheus export's figures of each queue, as the Redis figures script reads them. */
export async function exportCountsOf(db: Db, refs: QueueRef[]): Promise<ExportCounts[]> {
  if (refs.length === 0) return [];
  const [summaries, extras] = await Promise.all([
    summariesOf(db, refs),
    exportExtras(
      db,
      refs.map((ref) => ref.name),
    ),
  ]);
  return summaries.map((summary, index) => {
    const extra = extras.get(summary.name) ?? { completed: 0, failed: 0, oldestWaitingAt: 0 };
    return {
      ref: refs[index]!,
      counts: exportedStates.map((state) => summary.jobCounts[countKindOfState[state]]),
      completedTotal: extra.completed,
      failedTotal: extra.failed,
      oldestWaitingAt: summary.isPaused ? 0 : extra.oldestWaitingAt,
      paused: summary.isPaused ? 1 : 0,
    };
  });
}

/** The history's readings, as the Redis sample script reads them (waiting: wait, prioritized and paused together). */
export async function historyReadingsOf(
  db: Db,
  refs: QueueRef[],
  since: number,
  until: number,
): Promise<QueueReading[]> {
  if (refs.length === 0) return [];
  const names = refs.map((ref) => ref.name);
  const [summaries, finished, extras] = await Promise.all([
    summariesOf(db, refs),
    finishedSince(db, names, since, until),
    exportExtras(db, names),
  ]);
  return summaries.map(({ isPaused, jobCounts: counts }, index) => {
    const ref = refs[index]!;
    const own = finished.get(ref.name) ?? { completed: 0, failed: 0 };
    return {
      ref,
      waiting: counts.waiting + counts.prioritized + counts.paused,
      active: counts.active,
      delayed: counts.delayed,
      failed: counts.failed,
      completed: counts.completed,
      completedSince: own.completed,
      failedSince: own.failed,
      oldestWaitingAt: extras.get(ref.name)?.oldestWaitingAt ?? 0,
      paused: isPaused,
    };
  });
}
