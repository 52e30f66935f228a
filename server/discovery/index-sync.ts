import type { QueueScan } from '../bullmq/list-queue-names.js';
import { compareRefs } from '../bullmq/queue-key.js';
import type { Logger } from '../logger.js';
import type { IndexChange, QueueIndexStore } from './queue-index-store.js';
import { scanRecordsOf, type Entry } from './index-entry.js';
import { applyScan } from './index-changes.js';

/** Reads what the database kept of a connection into its entry; an unreadable index is left to the scans. */
export async function loadEntry(
  indexStore: QueueIndexStore,
  connectionId: string,
  entry: Entry,
  logger?: Logger,
): Promise<void> {
  const persisted = await indexStore.load(connectionId, entry.prefixes).catch((error: Error) => {
    logger?.warn({ connectionId, reason: error.message }, 'queue index unreadable; discovering by scan');
    return null;
  });
  if (!persisted) return;
  entry.refs = persisted.refs.sort(compareRefs);
  entry.scans = new Map(persisted.scans.map((record) => [record.prefix, record]));
}

/** Folds a finished scan into the entry; returns what changed, for the database. */
export function foldScan(entry: Entry, result: QueueScan, startedAt: number, durationMs: number): IndexChange {
  const change = applyScan(entry.refs, result, entry.createdDuringScan, entry.removedDuringScan);
  const scans = scanRecordsOf(entry.prefixes, result, startedAt, durationMs);
  entry.refs = change.refs;
  entry.scans = new Map(scans.map((record) => [record.prefix, record]));
  entry.lastError = null;
  return { added: change.added, removed: change.removed, scans };
}

/** Writes a change after the entry's earlier ones; a failed write is logged, the index in memory stays. */
export function saveEntry(
  indexStore: QueueIndexStore,
  connectionId: string,
  entry: Entry,
  change: IndexChange,
  logger?: Logger,
): void {
  entry.saving = entry.saving
    .then(() => indexStore.save(connectionId, change))
    .catch((error: Error) => logger?.warn({ connectionId, reason: error.message }, 'queue index not saved'));
}
