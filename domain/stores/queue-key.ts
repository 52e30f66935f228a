import type { QueueRef } from './list-queue-names.js';

/** A BullMQ key of a queue (`<prefix>:<name>:<type>`), without building a Queue handle for it. */
export function queueKey({ prefix, name }: QueueRef, type: string): string {
  return `${prefix}:${name}:${type}`;
}
