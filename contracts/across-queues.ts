import { z } from 'zod';
import { connectionParams } from './params.js';
import { strictBoolean } from './strict-boolean.js';
import { asyncFields, taskIdField } from './tasks.js';
import { protectionConfirmName } from './protection.js';

const glob = z.string().min(1).max(200);

const acrossFields = {
  queues: z
    .strictObject({
      include: z
        .array(glob)
        .min(1)
        .max(50)
        .default(['*'])
        .describe('Globs of queue names (`*` any run, `?` one character).'),
      exclude: z.array(glob).max(50).default([]),
    })
    .default({ include: ['*'], exclude: [] })
    .describe('Which queues of the connection the action covers.'),
  dryRun: strictBoolean()
    .optional()
    .describe('`true`: answer how many jobs each queue would be acted on, and act on none.'),
  ...asyncFields,
};

export const retryAcrossInput = connectionParams.extend({
  status: z.enum(['failed', 'completed']).describe('The status whose jobs are retried in each queue.'),
  ...acrossFields,
});
export const removeAcrossInput = connectionParams.extend({
  status: z
    .enum(['waiting', 'delayed', 'completed', 'failed', 'prioritized'])
    .describe('The status whose jobs are removed in each queue.'),
  ...acrossFields,
  confirmName: protectionConfirmName('connection'),
});

export const acrossOutcomeSchema = z.object({
  dryRun: z.boolean(),
  queues: z.array(
    z.object({
      queueName: z.string(),
      prefix: z.string(),
      matched: z.number().int().describe('Jobs of the status when the queue was reached.'),
      succeeded: z.number().int().describe('Jobs acted on (0 in a dry run).'),
      done: z.boolean().describe('False when the request budget ran out in this queue (or before it).'),
    }),
  ),
  matched: z.number().int(),
  succeeded: z.number().int(),
  done: z.boolean().describe('False: call again (or use `async: true`) for the rest.'),
  ...taskIdField,
});
export type AcrossOutcome = z.infer<typeof acrossOutcomeSchema>;
