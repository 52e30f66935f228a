import type { DiscoveryStatus } from '../../contracts/discovery.js';
import type { QueueScan } from '../bullmq/list-queue-names.js';
import type { QueueRef } from '../bullmq/queue-key.js';
import type { ScanRecord } from './queue-index-store.js';

/** What the queue index keeps of one connection (QueueIndex). */
export interface Entry {
  /** The connection record version (updatedAt) the entry was built for. */
  version: number;
  prefixes: string[];
  refs: QueueRef[];
  scans: Map<string, ScanRecord>;
  /** Settles when the persisted index has been read (or found empty). */
  loaded: Promise<void>;
  /** Settles when `refs` can be served: loaded from the database, or the first scan finished (set by the first list). */
  ready: Promise<void> | null;
  scanning: Promise<void> | null;
  scansStarted: number;
  lastError: string | null;
  /** What the service itself created or removed while a scan ran: the scan's result must not undo it. */
  createdDuringScan: QueueRef[];
  removedDuringScan: QueueRef[];
  /** Database writes of this entry, one after the other. */
  saving: Promise<void>;
}

export function newEntry(version: number, prefixes: readonly string[]): Entry {
  return {
    version,
    prefixes: [...prefixes],
    refs: [],
    scans: new Map(),
    loaded: Promise.resolve(),
    ready: null,
    scanning: null,
    scansStarted: 0,
    lastError: null,
    createdDuringScan: [],
    removedDuringScan: [],
    saving: Promise.resolve(),
  };
}

/**
 * Background rescans are spaced at least this many times their own duration,
 * so a store with millions of keys spends at most ~10% of its time in SCAN.
 */
const scanSpacingFactor = 10;

/** A background rescan is due: a prefix never scanned, or the oldest scan older than the TTL and the spacing. */
export function rescanDue(entry: Entry, now: number, ttlMs: number): boolean {
  const records = [...entry.scans.values()];
  if (records.length < entry.prefixes.length) return true;
  const oldest = Math.min(...records.map((record) => record.scannedAt.getTime()));
  const slowest = Math.max(...records.map((record) => record.durationMs));
  return now - oldest >= Math.max(ttlMs, slowest * scanSpacingFactor);
}

/** One record per prefix of a finished scan; a prefix the scan was cut short under says why. */
export function scanRecordsOf(
  prefixes: readonly string[],
  result: QueueScan,
  startedAt: number,
  durationMs: number,
): ScanRecord[] {
  return prefixes.map((prefix): ScanRecord => {
    const cut = result.incomplete.find((incomplete) => incomplete.prefix === prefix);
    return {
      prefix,
      scannedAt: new Date(startedAt),
      durationMs,
      complete: !cut,
      incompleteReason: cut?.reason ?? null,
    };
  });
}

/** `GET …/discovery`: when the names were last scanned, and whether the index may miss queues (and why). */
export function discoveryStatusOf(entry: Entry): DiscoveryStatus {
  const records = entry.prefixes.map((prefix) => entry.scans.get(prefix));
  const scanned = records.every((record) => record !== undefined);
  const reasons = [
    ...(entry.lastError ? [`The last scan failed: ${entry.lastError}`] : []),
    ...(!scanned
      ? [`No scan has finished yet under ${entry.prefixes.filter((prefix) => !entry.scans.has(prefix)).join(', ')}`]
      : []),
    ...records.flatMap((record) =>
      record && !record.complete ? [`${record.prefix}: ${record.incompleteReason}`] : [],
    ),
  ];
  return {
    lastScanAt: scanned
      ? new Date(Math.min(...records.map((record) => record!.scannedAt.getTime()))).toISOString()
      : null,
    durationMs: scanned ? Math.max(...records.map((record) => record!.durationMs)) : null,
    queues: entry.refs.length,
    scanning: entry.scanning !== null,
    complete: reasons.length === 0,
    incompleteReason: reasons.length === 0 ? null : reasons.join('; '),
  };
}
