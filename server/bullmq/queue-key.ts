import { escapeGlob } from './glob.js';

/** A queue as found on a store: BullMQ keeps every key of it at `<prefix>:<name>:<type>`. */
export interface QueueRef {
  prefix: string;
  name: string;
}

/** A BullMQ key of a queue (`<prefix>:<name>:<type>`), without building a Queue handle for it. */
export function queueKey({ prefix, name }: QueueRef, type: string): string {
  return `${prefix}:${name}:${type}`;
}

/** Every queue has a `meta` hash (BullMQ writes it when a queue is created or gets its first job). */
export const metaKeyPattern = (prefix: string): string => `${escapeGlob(prefix)}:*:meta`;

/** The queue a meta key belongs to; names may contain ':'. */
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

/**
 * The name and prefix to give a BullMQ Queue (or QueueEvents) for a queue.
 * BullMQ 6 refuses ':' in queue names, yet stores hold such queues (older
 * clients). Its keys are `<prefix>:<name>:<type>`, so moving the name's head
 * into the prefix addresses exactly the same keys.
 */
export function bullmqAddress({ prefix, name }: QueueRef): QueueRef {
  const cut = name.lastIndexOf(':');
  return cut < 0 ? { prefix, name } : { prefix: `${prefix}:${name.slice(0, cut)}`, name: name.slice(cut + 1) };
}
