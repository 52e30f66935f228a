import { z } from 'zod';
import { requireCriteria, searchableFields, searchableFieldSchema, type SearchableField } from './job-search.js';
import { whereField } from './job-where.js';
import { oneOrList } from './one-or-list.js';
import { strictBoolean } from './strict-boolean.js';
import { strictNumber } from './strict-number.js';

/** Matches one request acts on at most: the status form's cap (100 batches of 1,000 jobs). */
export const maxQueryMatchesPerRequest = 100_000;
/** Ids a dry run shows of what it matched. */
export const maxQuerySampleIds = 20;

/**
 * The `query` selection of a bulk action: the search route's `q`, `in` and
 * `status`, as JSON arrays. `statuses` are the ones the action can act on;
 * they are also the default (the search route's "no status: every status",
 * narrowed to what the action takes).
 */
export function querySelection<S extends string>(statuses: readonly [S, ...S[]]) {
  return z
    .strictObject({
      q: z
        .string()
        .min(1)
        .max(1000)
        .optional()
        .describe(
          'Text to find, case-insensitive, as in `GET …/search` (`data` is matched against its JSON text). Give `q`, `where` or both.',
        ),
      where: whereField.optional(),
      in: oneOrList(
        z
          .array(searchableFieldSchema)
          .min(1)
          .max(searchableFields.length * 2),
      )
        .optional()
        .describe(`Fields to look in: ${searchableFields.join(', ')} (default: all).`),
      status: oneOrList(
        z
          .array(z.enum(statuses))
          .min(1)
          .max(statuses.length * 2),
      )
        .optional()
        .describe(`Statuses to scan, in this order, each newest first (default: ${statuses.join(', ')}).`),
    })
    .superRefine(requireCriteria)
    .describe(
      'Act on the jobs a search matches (as `GET …/search` finds them), a bounded scan per request continued by `cursor`.',
    );
}

export interface JobQuery<S extends string = string> {
  q?: string | undefined;
  where?: string | undefined;
  in?: SearchableField[] | undefined;
  status?: S[] | undefined;
}

/** What a body adds to select by query. */
export function queryFields<S extends string>(statuses: readonly [S, ...S[]]) {
  return {
    query: querySelection(statuses).optional(),
    cursor: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .describe('With `query`: the `cursor` of the previous answer, to continue the same selection.'),
    limit: strictNumber(z.number().int().min(1).max(maxQueryMatchesPerRequest))
      .optional()
      .describe(
        `With \`query\`: stop this request after this many matches (default and most: ${maxQueryMatchesPerRequest}).`,
      ),
  };
}

/** `dryRun` where it goes with `query` only (retry, remove); the move route takes it with every form. */
export const queryDryRunField = {
  dryRun: strictBoolean()
    .optional()
    .describe(
      `With \`query\`: \`true\` counts the matches (with up to ${maxQuerySampleIds} of their ids) and acts on none.`,
    ),
};

/** What the answer of a bulk action adds for the query form. */
export const queryOutcomeFields = {
  matched: z
    .number()
    .int()
    .optional()
    .describe('Query form: jobs matched by this request (acted on or refused; a dry run acts on none).'),
  matchedTotal: z.number().int().optional().describe('Query form: jobs matched so far across the cursor chain.'),
  sampleIds: z.array(z.string()).optional().describe(`Query dry run: up to ${maxQuerySampleIds} ids of the matches.`),
  scanned: z.number().int().optional().describe('Query form: jobs examined by this request.'),
  scannedTotal: z.number().int().optional().describe('Query form: jobs examined so far across the cursor chain.'),
  cursor: z
    .string()
    .nullable()
    .optional()
    .describe('Query form: pass it back (with the same body) to continue; null once `done`.'),
};
