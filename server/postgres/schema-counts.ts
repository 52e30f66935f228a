import type { LargeCounts } from './large-counts.js';
import type { Db } from './schema-columns.js';
import type { QueueFigureRow } from './schema-queues.js';
import { serialCount } from './serial-count.js';

/** Each count of a queue, as BullMQ's get_counts reads it, by the partial index BullMQ keeps for its state. */
const countedKinds = {
  waiting: `state = 'waiting' AND priority = 0`,
  active: `state = 'active'`,
  delayed: `state = 'delayed'`,
  completed: `state = 'completed'`,
  failed: `state = 'failed'`,
  prioritized: `state = 'waiting' AND priority > 0`,
  waitingChildren: `state = 'waiting-children'`,
} as const;
type CountedKind = keyof typeof countedKinds;

/** Up to `limit` rows of one kind of one queue (no limit when it is null): an index range, never the table. */
export const probe = (where: string, queue: string, limit = '$2') =>
  `(SELECT COUNT(*) FROM (SELECT 1 FROM job WHERE queue = ${queue} AND ${where} LIMIT ${limit}) c)`;

/**
 * Counts and pause flag of each named queue in one statement, each count an
 * index range of its own; a count past `large`'s cap is then taken from
 * `large` (counted at most once per its window), so a queue of 250,000 jobs
 * costs a page of the list what a queue of 1,000 does.
 */
export async function queueFigures(
  db: Db,
  names: readonly string[],
  large?: LargeCounts,
): Promise<Map<string, QueueFigureRow>> {
  const kinds = Object.entries(countedKinds) as Array<[CountedKind, string]>;
  const { rows } = await db.query<Record<string, string | boolean>>(
    `SELECT q.queue,
            EXISTS (SELECT 1 FROM meta m WHERE m.queue = q.queue AND m.field = 'paused' AND m.value IN ('1', 'true')) AS paused,
            ${kinds.map(([kind, where]) => `${probe(where, 'q.queue')} AS "${kind}"`).join(',\n            ')}
       FROM unnest($1::text[]) AS q(queue)`,
    [names, large?.probeLimit ?? null],
  );
  const figures = new Map<string, QueueFigureRow>();
  await Promise.all(
    rows.map(async (row) => {
      const queue = String(row.queue);
      const counts = await Promise.all(
        kinds.map(([kind, where]) => settledCount(db, queue, where, Number(row[kind]), large)),
      );
      const byKind = Object.fromEntries(kinds.map(([kind], index) => [kind, counts[index]!]));
      figures.set(queue, { queue, paused: row.paused === true, ...(byKind as Record<CountedKind, number>) });
    }),
  );
  return figures;
}

/** The count of the rows of `queue` matching `where`: probed up to `large`'s cap, past it from `large`. */
export async function statusCount(db: Db, queue: string, where: string, large?: LargeCounts): Promise<number> {
  const { rows } = await db.query<{ count: string }>(`SELECT ${probe(where, '$1')} AS count`, [
    queue,
    large?.probeLimit ?? null,
  ]);
  return settledCount(db, queue, where, Number(rows[0]!.count), large);
}

/** A probe's count, or past `large`'s cap the count `large` keeps. */
export function settledCount(
  db: Db,
  queue: string,
  where: string,
  probed: number,
  large?: LargeCounts,
): Promise<number> {
  if (!large?.stoppedAtLimit(probed)) return Promise.resolve(probed);
  return large.count(`${queue}\u0000${where}`, () => serialCount(db, queue, where));
}
