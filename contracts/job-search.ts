import { z } from 'zod';
import { whereField } from './job-where.js';
import { commaList, jobStatuses, jobStatusSchema, jobSummarySchema, summaryOptions } from './jobs.js';
import { queueParams } from './params.js';

export const searchableFields = ['id', 'name', 'data', 'failedReason'] as const;
export const searchableFieldSchema = z.enum(searchableFields);
export type SearchableField = z.infer<typeof searchableFieldSchema>;

export const maxSearchLimit = 100;

/** A search needs something to match: `q`, `where`, or both (400 naming `q` otherwise). */
export function requireCriteria(
  input: { q?: string | undefined; where?: string | undefined },
  check: z.RefinementCtx,
): void {
  if (input.q === undefined && input.where === undefined)
    check.addIssue({
      code: 'custom',
      path: ['q'],
      message: 'give q (text to find), where (field terms such as data.customer.id:42), or both',
    });
}

export const searchJobsInput = queueParams
  .extend(summaryOptions.shape)
  .extend({
    q: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe(
        'Text to find, case-insensitive. `data` is matched against its JSON text. Give `q`, `where` or both (a job must match both).',
      ),
    where: whereField.optional(),
    in: commaList(searchableFieldSchema)
      .default([...searchableFields])
      .describe(`Comma-separated fields to look in: ${searchableFields.join(', ')} (default: all).`),
    status: commaList(jobStatusSchema)
      .default([...jobStatuses])
      .describe(`Comma-separated statuses to scan, in this order (default: ${jobStatuses.join(', ')}).`),
    limit: z.number().int().min(1).max(maxSearchLimit).default(50).describe('Stop after this many matches.'),
    cursor: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .describe('The `cursor` of the previous answer, to continue the same search.'),
  })
  .superRefine(requireCriteria);
export type SearchJobsInput = z.output<typeof searchJobsInput>;

export const jobSearchSchema = z
  .object({
    jobs: z.array(jobSummarySchema).describe('Matches in scan order; `state` is the status each was found in.'),
    nextCursor: z.string().nullable().describe('Pass it back as `cursor` to continue; null when the scan is done.'),
    cursor: z
      .string()
      .nullable()
      .meta({ deprecated: true })
      .describe('Deprecated: read `nextCursor` (the same value).'),
    done: z.boolean().describe('Whether every job of the statuses has been scanned.'),
    scanned: z.number().int().describe('Jobs examined by this request.'),
    scannedTotal: z.number().int().describe('Jobs examined by this search so far, across its cursor chain.'),
  })
  .meta({ id: 'JobSearchPage' });
export type JobSearch = z.infer<typeof jobSearchSchema>;
