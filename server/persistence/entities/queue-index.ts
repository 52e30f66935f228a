import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A queue discovery found on a connection's store, under one of its
 * prefixes. Kept so the first queue list after a restart answers from here
 * while a background scan reconciles. Not tied to the `connection` table:
 * environment connections have no row there.
 */
export const QueueIndexEntry = defineEntity({
  name: 'QueueIndexEntry',
  tableName: 'queue_index_entry',
  properties: {
    connectionId: p.string().primary().length(200),
    prefix: p.string().primary().length(200),
    name: p.string().primary().length(1000),
  },
});
export type QueueIndexEntryRow = InferEntity<typeof QueueIndexEntry>;

/** The last finished scan of a connection and prefix: when, how long, and whether it saw the whole keyspace. */
export const QueueDiscoveryScan = defineEntity({
  name: 'QueueDiscoveryScan',
  tableName: 'queue_discovery_scan',
  properties: {
    connectionId: p.string().primary().length(200),
    prefix: p.string().primary().length(200),
    scannedAt: p.datetime(),
    durationMs: p.integer(),
    complete: p.boolean(),
    incompleteReason: p.text().nullable(),
  },
});
export type QueueDiscoveryScanRow = InferEntity<typeof QueueDiscoveryScan>;
