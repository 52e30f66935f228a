/** What a moved job becomes in its target queue: its id and its options. */

/** Options a moved job does not carry over: it becomes a new waiting job of the target queue (`de` is deduplication as stored). */
const dropped = [
  'jobId',
  'delay',
  'repeat',
  'repeatJobKey',
  'parent',
  'timestamp',
  'prevMillis',
  'debounce',
  'deduplication',
  'de',
];

/**
 * The moved job's id: derived from its source queue and id (a ':' written as %3A, since BullMQ
 * ids may not hold one), so the target never confuses two sources' jobs.
 */
export function movedJobId(sourceQueue: string, jobId: string): string {
  return `${sourceQueue.replaceAll('%', '%25').replaceAll(':', '%3A')}-${jobId}`;
}

/** The options the moved job gets: the source's, less what made it delayed, repeated or a child, with its new id. */
export function movedOpts(readOpts: string, targetId: string): string {
  const opts = JSON.parse(readOpts || '{}') as Record<string, unknown>;
  for (const key of dropped) delete opts[key];
  return JSON.stringify({ ...opts, jobId: targetId });
}
