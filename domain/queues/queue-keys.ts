/** A queue as discovered on a store: BullMQ keeps every key of it at `<prefix>:<name>:<suffix>`. */
export interface QueueRef {
  name: string;
  prefix: string;
}

export const queueKey = (ref: QueueRef, suffix: string): string => `${ref.prefix}:${ref.name}:${suffix}`;

/** Escapes the glob characters SCAN MATCH understands, so a prefix is matched literally. */
export const escapeGlob = (text: string): string => text.replace(/[\\*?[\]]/g, (char) => `\\${char}`);

/** Every queue has a `meta` hash (BullMQ writes it when a Queue is created); a name may contain ':'. */
export const metaKeyPattern = (prefix: string): string => `${escapeGlob(prefix)}:*:meta`;

export function queueRefFromMetaKey(prefix: string, key: string): QueueRef | undefined {
  const head = `${prefix}:`;
  const tail = ':meta';
  if (!key.startsWith(head) || !key.endsWith(tail) || key.length <= head.length + tail.length) return undefined;
  return { prefix, name: key.slice(head.length, key.length - tail.length) };
}

/** Code-unit order by name, then prefix: stable across runs and locales. */
export function compareRefs(a: QueueRef, b: QueueRef): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  if (a.prefix !== b.prefix) return a.prefix < b.prefix ? -1 : 1;
  return 0;
}
