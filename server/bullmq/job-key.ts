/** A job key split into its parts; `queueName` and `prefix` null when the key is not under a known prefix. */
export interface ParsedJobKey {
  id: string;
  queueName: string | null;
  prefix: string | null;
  key: string;
}

/**
 * Splits a job key `<prefix>:<queue>:<id>`. Prefixes may hold `:`, so the
 * connection's own prefixes (longest first) anchor the split; BullMQ keeps
 * `:` out of queue names and custom job ids, so the id follows the last one.
 */
export function parseJobKey(prefixes: readonly string[], key: string): ParsedJobKey {
  const cut = key.lastIndexOf(':');
  const id = key.slice(cut + 1);
  const prefix = [...prefixes].sort((a, b) => b.length - a.length).find((candidate) => key.startsWith(`${candidate}:`));
  if (!prefix || cut <= prefix.length) return { id, queueName: null, prefix: null, key };
  return { id, queueName: key.slice(prefix.length + 1, cut), prefix, key };
}
