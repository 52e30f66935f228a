import { z } from 'zod';
import { deletedSchema } from './deleted.js';
import { jobParams } from './params.js';
import { protectionConfirmName } from './protection.js';

export const maxLogRange = 1000;

export const jobLogsInput = jobParams.extend({
  start: z.number().int().min(0).default(0).describe('First log line, 0-based (oldest first).'),
  end: z.number().int().min(0).default(99).describe(`Last log line, inclusive; at most ${maxLogRange} lines per call.`),
});
export const jobLogsSchema = z
  .object({ logs: z.array(z.string()), count: z.number().int().describe('Log lines the job has in all.') })
  .meta({ id: 'JobLogs' });

export const clearJobLogsInput = jobParams.extend({
  keep: z
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .optional()
    .describe('Keep the newest `keep` lines; omitted: remove all.'),
  confirmName: protectionConfirmName('queue'),
});
export const clearJobLogsSchema = deletedSchema
  .extend({ count: z.number().int().describe('Log lines left.') })
  .describe('`id`: the job whose logs were removed.');
