import { z } from 'zod';
import { bulkSelectionCheck } from './bulk-selection.js';
import { bulkJobId, bulkOutcomeSchema, maxBulkJobIds, removeStatuses } from './job-actions.js';
import { queryFields } from './job-query.js';
import { queueParams } from './params.js';
import { protectionConfirmName } from './protection.js';
import { strictBoolean } from './strict-boolean.js';
import { asyncFields } from './tasks.js';

export const moveJobsInput = queueParams
  .extend({
    to: z
      .object({
        queueName: z
          .string()
          .min(1)
          .max(1000)
          .describe('The target queue; created as a producer would when it does not exist.'),
        connectionId: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe('Another connection (id or name) you may write; default: this one.'),
        prefix: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe("One of the target connection's prefixes; default as for adding a job."),
      })
      .strict()
      .describe('Where the jobs go.'),
    jobIds: z
      .array(bulkJobId)
      .min(1)
      .max(maxBulkJobIds)
      .optional()
      .describe(`The jobs to move: 1 to ${maxBulkJobIds} ids.`),
    status: z.enum(removeStatuses).optional().describe('With `all: true`: move every job of this status.'),
    all: z.literal(true).optional().describe('With `status`: move every job of that status.'),
    keepIds: strictBoolean()
      .optional()
      .describe(
        'Keep each job id (BullMQ refuses numeric custom ids: such jobs are refused); default: `<source queue>-<id>`.',
      ),
    ...queryFields(removeStatuses),
    dryRun: strictBoolean()
      .optional()
      .describe('`true`: count what would move (with `query`: the matches and up to 20 of their ids), move nothing.'),
    confirmName: protectionConfirmName('queue'),
    ...asyncFields,
  })
  .superRefine(bulkSelectionCheck({ takesQuery: true, dryRunWithQueryOnly: false }));

export const moveOutcomeSchema = bulkOutcomeSchema.extend({
  matched: z
    .number()
    .int()
    .optional()
    .describe('Dry run: the jobs the move would take (query form: matched by this request, moved or refused).'),
  target: z.object({ connectionId: z.string(), queueName: z.string(), prefix: z.string() }),
});
export type MoveOutcome = z.infer<typeof moveOutcomeSchema>;
