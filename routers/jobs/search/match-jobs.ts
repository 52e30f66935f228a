import type { Queue } from 'bullmq';
import type { SearchableField } from '../../../contracts/job-search.js';
import type { StoreClient } from '../../../server/stores/redis-client.js';

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
export function jobMatcher(client: StoreClient, queue: Queue, q: string, fields: readonly SearchableField[]) {
  const needle = q.toLowerCase();
  const hashFields = fields.filter((field) => field !== 'id').map((field) => hashFieldBySearchable[field as Exclude<SearchableField, 'id'>]);
  const matchesId = fields.includes('id');
  const contains = (value: string | null | undefined) => value != null && value.toLowerCase().includes(needle);

  /** For each id, whether its job matches (false when the job vanished), and the bytes read. */
  return async function matchIds(ids: string[]): Promise<{ matched: boolean[]; bytes: number }> {
    if (hashFields.length === 0) return { matched: ids.map((id) => matchesId && contains(id)), bytes: 0 };
    // One pipeline per chunk: a queue's keys share a hash slot, so this holds on a cluster too.
    const pipeline = client.pipeline();
    for (const id of ids) pipeline.hmget(queue.toKey(id), ...hashFields);
    const replies = (await pipeline.exec()) ?? [];
    let bytes = 0;
    const matched = ids.map((id, index) => {
      const [error, values] = replies[index] ?? [null, []];
      if (error) throw error;
      for (const value of values as Array<string | null>) bytes += value?.length ?? 0;
      return (matchesId && contains(id)) || (values as Array<string | null>).some(contains);
    });
    return { matched, bytes };
  };
}
