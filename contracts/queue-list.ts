import { z } from 'zod';
import { queryBoolean } from './query-boolean.js';
import { pageInfo, pageQuery } from './pagination.js';
import { connectionParams } from './params.js';
import { jobCountKinds, jobCountsSchema } from './queue-counts.js';

export const queueSummarySchema = z
  .object({
    name: z.string(),
    prefix: z.string().describe('BullMQ key prefix the queue lives under.'),
    isPaused: z.boolean(),
    jobCounts: jobCountsSchema,
  })
  .meta({ id: 'Queue' });
export type QueueSummary = z.infer<typeof queueSummarySchema>;

export const queueSortFields = ['name', ...jobCountKinds] as const;
export type QueueSortField = (typeof queueSortFields)[number];

/** What the queue list can filter on; each is defined by the counts and flag the list shows. */
export const queueStates = ['paused', 'running', 'failing', 'idle'] as const;
export type QueueState = (typeof queueStates)[number];

export const listQueuesInput = connectionParams.extend(pageQuery.shape).extend({
  search: z.string().max(200).default('').describe('Case-insensitive substring of the queue name; empty matches all.'),
  sort: z.enum(queueSortFields).default('name').describe('Sort by name or by one job count.'),
  order: z
    .enum(['asc', 'desc'])
    .describe('Sort direction; default `asc` for name and `desc` for counts. Ties are broken by name, then prefix.')
    .optional(),
  state: z
    .enum(queueStates)
    .describe(
      'Only queues in this state: `paused` (`isPaused`), `running` (not paused, whether or not it has jobs or workers), `failing` (`failed` ≥ 1), `idle` (`waiting`, `prioritized`, `paused`, `active` and `delayed` all 0: nothing left to run; finished jobs and jobs waiting for children may remain; a paused queue can be idle). Combines with `search`; `total` counts the matching queues.',
    )
    .optional(),
  totals: queryBoolean()
    .describe('`true`: add `totals`, the job counts of every queue of the connection summed by status, and `totalsAt`.')
    .optional(),
});
export type ListQueuesQuery = Omit<z.infer<typeof listQueuesInput>, 'connectionId'>;

export const queueListSchema = pageInfo
  .extend({
    queues: z.array(queueSummarySchema),
    totals: jobCountsSchema
      .optional()
      .describe(
        "With `totals=true`: job counts summed over every queue of the connection (all its prefixes), whatever `search`, `state` and the page, as of `totalsAt`. Kept exact by client-side tracking (Redis 6+, not on a cluster; SERVICE_QUEUE_TOTALS_TRACKING): `totalsAt` is the request's own time. Otherwise counted, and kept for SERVICE_QUEUE_LIST_CACHE_MS (5 s) after a count, so they may be that much older than the page.",
      ),
    totalsAt: z.iso
      .datetime()
      .optional()
      .describe(
        'With `totals`: the time they are exact for (ISO 8601): now when tracked, else when they were counted, at most SERVICE_QUEUE_LIST_CACHE_MS ago.',
      ),
  })
  .meta({ id: 'QueuePage' });
export type QueueList = z.infer<typeof queueListSchema>;
