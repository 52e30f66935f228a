/** What a moved job becomes in its target queue: its id and its options. */

/** Options a moved job does not carry over: it becomes a new waiting job of the target queue (`de` is deduplication as stored). */
export const droppedOptions = [
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

/** A dropped option's name as it appears in JSON text, anywhere in it (nested too, or inside a value). */
const droppedNames = droppedOptions.map((key) => `"${key}"`);

/**
 * The options the moved job gets: the source's, less what made it delayed, repeated or a child, with its
 * new id. Options that name none of the dropped keys anywhere (the common case, and a move carries a
 * million of them) get the id appended as text: BullMQ wrote them with JSON.stringify, so this is the
 * text parsing and writing them again gives, without the objects a parse makes for every job.
 */
export function movedOpts(readOpts: string, targetId: string): string {
  if (readOpts.startsWith('{') && readOpts.endsWith('}') && !droppedNames.some((name) => readOpts.includes(name)))
    return `${readOpts.slice(0, -1)}${readOpts.length > 2 ? ',' : ''}"jobId":${JSON.stringify(targetId)}}`;
  const opts = JSON.parse(readOpts || '{}') as Record<string, unknown>;
  for (const key of droppedOptions) delete opts[key];
  return JSON.stringify({ ...opts, jobId: targetId });
}
