import type { Queue } from 'bullmq';
import type { SearchableField } from '../../../contracts/job-search.js';
import type { WhereTerm } from '../../../contracts/job-where.js';
import type { JobHash } from '../../../server/bullmq/job-hash.js';
import type { QueueStore } from '../../../server/stores/queue-store.js';
import { matchesWhere, whereHashFields, type OptsDecoder } from './where-match.js';

/** Hash fields read per searched field (`id` is the key itself). */
const hashFieldBySearchable: Record<Exclude<SearchableField, 'id'>, string> = {
  name: 'name',
  data: 'data',
  failedReason: 'failedReason',
};

/** What a search matches on: text `q` in `fields`, `where` terms, or both (a job must meet both). */
export interface JobCriteria {
  q?: string | undefined;
  fields: readonly SearchableField[];
  where?: readonly WhereTerm[] | undefined;
  /** BullMQ's decoding of stored options, for terms on `opts`. */
  decodeOpts?: OptsDecoder | undefined;
}

/**
 * Returns a matcher over raw job hashes: `q` a case-insensitive substring of
 * any searched field (`data` as its stored JSON text), `where` every term
 * (see where-match.ts). Only the fields the criteria need are read, never
 * whole jobs.
 */
export function jobMatcher(store: Pick<QueueStore, 'jobFields'>, queue: Queue, criteria: JobCriteria) {
  const { q, fields, where } = criteria;
  const needle = q?.toLowerCase();
  const textFields =
    needle === undefined
      ? []
      : fields
          .filter((field) => field !== 'id')
          .map((field) => hashFieldBySearchable[field as Exclude<SearchableField, 'id'>]);
  const hashFields = [...new Set([...textFields, ...(where ? whereHashFields(where) : [])])];
  const matchesId = needle !== undefined && fields.includes('id');
  const contains = (value: string | null | undefined) => value?.toLowerCase().includes(needle!) === true;
  const matchesText = (id: string, hash: JobHash) =>
    needle === undefined || (matchesId && contains(id)) || textFields.some((field) => contains(hash[field]));
  const matches = (id: string, hash: JobHash) =>
    matchesText(id, hash) && (!where || matchesWhere(where, id, hash, criteria.decodeOpts));

  /** For each id, whether its job matches (false when the job vanished), and the bytes read. */
  return async function matchIds(ids: string[]): Promise<{ matched: boolean[]; bytes: number }> {
    if (hashFields.length === 0) return { matched: ids.map((id) => matches(id, {})), bytes: 0 };
    const replies = await store.jobFields(queue, ids, hashFields);
    let bytes = 0;
    const matched = ids.map((id, index) => {
      const hash: JobHash = {};
      (replies[index] ?? []).forEach((value, field) => {
        bytes += value?.length ?? 0;
        if (value !== null) hash[hashFields[field]!] = value;
      });
      return matches(id, hash);
    });
    return { matched, bytes };
  };
}
