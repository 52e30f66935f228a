import { z } from 'zod';
import { deletedSchema, deprecatedField } from './deleted.js';
import { asyncFields, taskIdField } from './tasks.js';
import { strictNumber } from './strict-number.js';
import { protectionConfirmName } from './protection.js';
import { jobCountsSchema, purgeableStatuses, purgeableStatusSchema, type PurgeableStatus } from './queue-counts.js';
import { queueTarget } from './queue-detail.js';

/** Purge accepts the statuses plus `all`, a selector meaning every one of them. */
export const purgeSelectorSchema = z.enum(['all', ...purgeableStatuses]);
export type PurgeSelector = z.infer<typeof purgeSelectorSchema>;

export const cleanInput = queueTarget.extend({
  status: purgeableStatusSchema,
  gracePeriod: strictNumber(z.number().int().min(0)).default(0).describe('Keep jobs younger than this many ms.'),
  limit: strictNumber(z.number().int().min(1).max(1000)).default(1000).describe('At most this many jobs are removed.'),
  confirmName: protectionConfirmName('queue'),
});

export const cleanResultSchema = z
  .object({
    removed: z.number().int(),
    removedJobIds: z.array(z.string()),
  })
  .meta({ id: 'CleanResult' });

const confirmName = z.string().max(1000).describe('Must equal the path `queueName` exactly.');

export const purgeInput = queueTarget.extend({
  confirmName,
  statuses: z.array(purgeSelectorSchema).min(1).max(100).describe('Statuses to purge; `all` selects every status.'),
  ...asyncFields,
});

export const removedByStatusSchema = z
  .object(
    Object.fromEntries(purgeableStatuses.map((status) => [status, z.number().int().optional()])) as Record<
      PurgeableStatus,
      z.ZodOptional<z.ZodNumber>
    >,
  )
  .describe('Jobs removed per purged status; only the purged statuses appear.');

/** The spec's "Purge response (200)" table. */
export const purgeResultSchema = z
  .object({
    success: z.literal(true),
    queueName: z.string(),
    statusesPurged: z.array(purgeableStatusSchema).describe('After de-duplication and expansion of `all`.'),
    totalRemoved: z.number().int(),
    removedByStatus: removedByStatusSchema,
    removedJobIdsSample: z.array(z.string()).describe('Job ids removed; at most 100 of them.'),
    ...taskIdField,
  })
  .meta({ id: 'PurgeResult' });
export type PurgeResult = z.infer<typeof purgeResultSchema>;

export const obliterateInput = queueTarget.extend({ confirmName });

export const obliterateResultSchema = z
  .object({
    success: z.literal(true),
    queueName: z.string(),
    prefix: z.string(),
    removedJobCounts: jobCountsSchema.describe('The jobs the queue held when it was removed.'),
  })
  .meta({ id: 'ObliterateResult' });

export const canDeleteResultSchema = z
  .object({
    canDelete: z.boolean(),
    reason: z.string().optional().describe('Why the queue cannot be deleted, when it cannot.'),
    jobCounts: jobCountsSchema,
  })
  .meta({ id: 'CanDeleteResult' });
export type CanDeleteResult = z.infer<typeof canDeleteResultSchema>;

export const deleteQueueInput = queueTarget.extend({ confirmName });

export const deleteResultSchema = deletedSchema
  .extend({
    deleted: deprecatedField(z.string(), 'id'),
    prefix: z.string(),
    removedJobCounts: jobCountsSchema.describe('The jobs the queue held when it was removed (completed ones only).'),
  })
  .meta({ id: 'DeletedQueue' });
