import type { Queue } from 'bullmq';
import type { SearchableField } from '../../../contracts/job-search.js';

/** Hash fields read per searched field (`id` is the key itself). */
const hashFieldBySearchable: Record<Exclude<SearchableField, 'id'>, string> = {
  name: 'name',
  data: 'data',
  failedReason: 'failedReason',
};

/**
 * Returns a matcher over raw job hashes: a case-insensitive substring test
 * of each searched field, `data` as its stored JSON text. Only the searched
 * fields are read, never whole jobs.
 */
export function jobMatcher(queue: Queue, q: string, fields: readonly SearchableField[]) {
  const needle = q.toLowerCase();
  const hashFields = fields.filter((field) => field !== 'id').map((field) => hashFieldBySearchable[field as Exclude<SearchableField, 'id'>]);
  const matchesId = fields.includes('id');
  const contains = (value: string | null | undefined) => value != null && value.toLowerCase().includes(needle);

  /** For each id, whether its job matches (false when the job vanished). */
  return async function matchIds(ids: string[]): Promise<boolean[]> {
    const client = await queue.backend.client;
    const values = await Promise.all(
      ids.map((id) => (hashFields.length ? client.hmget(queue.toKey(id), ...hashFields) : Promise.resolve([] as Array<string | null>))),
    );
    return ids.map((id, index) => (matchesId && contains(id)) || values[index]!.some(contains));
  };
}
