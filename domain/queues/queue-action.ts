import type { QueueRef } from '../stores/queue-key.js';

/**
 * What a destructive operation did to a queue, told once per operation so
 * the caller can log (later: audit) it. `stopped` means it ended early with
 * an error after removing what `removed` says.
 */
export interface QueueActionRecord {
  queue: QueueRef;
  outcome: 'done' | 'stopped';
  removed: Record<string, unknown>;
}

export type RecordQueueAction = (record: QueueActionRecord) => void;
