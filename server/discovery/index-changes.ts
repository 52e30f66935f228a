import type { QueueScan } from '../bullmq/list-queue-names.js';
import { compareRefs, type QueueRef } from '../bullmq/queue-key.js';

const keyOf = (ref: QueueRef) => `${ref.prefix}\u0000${ref.name}`;

/** The sorted list with `ref` in its place (the same list when it is there already). */
export function withRef(refs: QueueRef[], ref: QueueRef): QueueRef[] {
  const index = refs.findIndex((known) => compareRefs(known, ref) >= 0);
  if (index >= 0 && compareRefs(refs[index]!, ref) === 0) return refs;
  const at = index < 0 ? refs.length : index;
  return [...refs.slice(0, at), ref, ...refs.slice(at)];
}

export function withoutRef(refs: QueueRef[], ref: QueueRef): QueueRef[] {
  return refs.filter((known) => compareRefs(known, ref) !== 0);
}

export interface ScanChange {
  refs: QueueRef[];
  added: QueueRef[];
  removed: QueueRef[];
}

/**
 * The index after a scan: what the scan found, plus what it could not have
 * seen — queues under a prefix whose scan was cut short (kept, never
 * dropped silently) and queues the service created while it ran — minus
 * queues the service removed while it ran.
 */
export function applyScan(
  known: QueueRef[],
  scan: QueueScan,
  createdDuringScan: QueueRef[],
  removedDuringScan: QueueRef[],
): ScanChange {
  if (unchanged(known, scan, createdDuringScan, removedDuringScan)) return { refs: known, added: [], removed: [] };
  const cutShort = new Set(scan.incomplete.map((incomplete) => incomplete.prefix));
  const next = new Map(scan.refs.map((ref) => [keyOf(ref), ref]));
  for (const ref of known) if (cutShort.has(ref.prefix)) next.set(keyOf(ref), ref);
  for (const ref of createdDuringScan) next.set(keyOf(ref), ref);
  for (const ref of removedDuringScan) next.delete(keyOf(ref));
  const before = new Set(known.map(keyOf));
  const refs = [...next.values()].sort(compareRefs);
  return {
    refs,
    added: refs.filter((ref) => !before.has(keyOf(ref))),
    removed: known.filter((ref) => !next.has(keyOf(ref))),
  };
}

/**
 * A complete scan that found exactly the known queues (the same objects: the scan reuses the index's refs)
 * with nothing created or removed meanwhile: the index keeps its list, and what is built on it (the count
 * tracker's view of 100,000 queues) stays valid.
 */
function unchanged(known: QueueRef[], scan: QueueScan, created: QueueRef[], removed: QueueRef[]): boolean {
  if (scan.incomplete.length > 0 || created.length > 0 || removed.length > 0) return false;
  return scan.refs.length === known.length && scan.refs.every((ref, i) => ref === known[i]);
}
