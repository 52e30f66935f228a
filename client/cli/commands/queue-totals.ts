import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../api-types.js';

type JobCounts = NonNullable<inferRouterOutputs<AppRouter>['queues']['list']['totals']>;

/** The table's columns first, then the counts it leaves out. */
const order = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'completed',
  'failed',
  'paused',
  'waitingChildren',
] as const satisfies ReadonlyArray<keyof JobCounts>;

/** "totals, every queue: waiting 5, active 1, …": the sums cover every queue of the connection, whatever the filter and page. */
export function totalsLine(totals: JobCounts): string {
  return `totals, every queue: ${order.map((status) => `${status} ${totals[status]}`).join(', ')}\n`;
}
