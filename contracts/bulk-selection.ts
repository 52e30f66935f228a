import type { z } from 'zod';

/** The selection fields of a bulk action's body (every one optional; the check says which go together). */
export interface BulkSelectionInput {
  jobIds?: string[] | undefined;
  status?: string | undefined;
  all?: true | undefined;
  query?: unknown;
  cursor?: string | undefined;
  limit?: number | undefined;
  dryRun?: boolean | undefined;
  data?: unknown;
  async?: boolean | undefined;
  maxPerSecond?: number | undefined;
}

/** The first rule the body breaks, as the field to name and why; undefined when it breaks none. */
function brokenRule(
  input: BulkSelectionInput,
  { takesQuery, dryRunWithQueryOnly }: SelectionRules,
): { field: string; message: string } | undefined {
  const byIds = input.jobIds !== undefined;
  const byStatus = input.status !== undefined || input.all !== undefined;
  const byQuery = input.query !== undefined;
  if (byQuery && (byIds || byStatus))
    return {
      field: 'query',
      message: 'query selects on its own: give jobIds, { status, all: true } or query, not two of them',
    };
  if (!byIds && !byStatus && !byQuery)
    return {
      field: 'jobIds',
      message: takesQuery
        ? 'give jobIds, { status, all: true } or query'
        : 'give either jobIds or { status, all: true }',
    };
  if (byIds && byStatus) return { field: 'jobIds', message: 'give either jobIds or { status, all: true }' };
  if (byIds && (input.async !== undefined || input.maxPerSecond !== undefined)) {
    return {
      field: input.async !== undefined ? 'async' : 'maxPerSecond',
      message: 'async and maxPerSecond go with { status, all: true } or query',
    };
  }
  if (input.maxPerSecond !== undefined && input.async !== true)
    return { field: 'maxPerSecond', message: 'maxPerSecond goes with async: true' };
  if (byStatus && (input.status === undefined || input.all !== true))
    return { field: input.status === undefined ? 'status' : 'all', message: 'status and all: true go together' };
  if (!byIds && input.data !== undefined) return { field: 'data', message: 'data can only be given with jobIds' };
  for (const field of ['cursor', 'limit'] as const) {
    if (!byQuery && input[field] !== undefined) return { field, message: `${field} goes with query` };
  }
  if (dryRunWithQueryOnly && !byQuery && input.dryRun !== undefined)
    return { field: 'dryRun', message: 'dryRun goes with query' };
  if (input.cursor !== undefined && input.async === true && input.dryRun !== true) {
    return { field: 'cursor', message: 'a background task scans from the start: cursor goes with a synchronous query' };
  }
  return undefined;
}

interface SelectionRules {
  /** The route takes the `query` form. */
  takesQuery: boolean;
  /** The route takes `dryRun` with `query` only (the move route takes it with every form). */
  dryRunWithQueryOnly: boolean;
}

/**
 * One of `jobIds` (1..100 named jobs), `{ status, all: true }` (every job of a
 * status, in bounded batches) or `query` (the jobs a search matches, continued
 * by `cursor`). One object with a check rather than a union, so the 400 names
 * the offending field.
 */
export function bulkSelectionCheck(rules: SelectionRules) {
  return (input: BulkSelectionInput, check: z.RefinementCtx) => {
    const broken = brokenRule(input, rules);
    if (broken) check.addIssue({ code: 'custom', path: [broken.field], message: broken.message });
  };
}
