import type { QueueRef } from '../../../server/bullmq/queue-key.js';
import type { QueueScan } from '../../../server/bullmq/list-queue-names.js';
import { QueueIndex } from '../../../server/discovery/queue-index.js';
import type { IndexChange, PersistedIndex, QueueIndexStore } from '../../../server/discovery/queue-index-store.js';
import type { StoreHandle } from '../../../server/stores/store-handle.js';

/**
 * A QueueIndex on a clock, a scan and a persisted index the test drives: no
 * Redis, no database. The queue-index-*.test.ts unit tests share it.
 */

/** A store handle as far as the index reads it: the connection id, its update time and prefixes. */
export const store = (id: string, updatedAt = 0, prefixes = ['bull']) =>
  ({ connection: { id, updatedAt: new Date(updatedAt) }, prefixes }) as unknown as StoreHandle;

/** The persisted index as the database keeps it, in memory: survives a new QueueIndex like rows survive a restart. */
export function memoryIndexStore(): QueueIndexStore & { saves: IndexChange[] } {
  const rows = new Map<string, PersistedIndex>();
  const saves: IndexChange[] = [];
  return {
    saves,
    async load(id) {
      const found = rows.get(id);
      return found ? { refs: [...found.refs], scans: [...found.scans] } : null;
    },
    async save(id, change) {
      saves.push(change);
      const current = rows.get(id) ?? { refs: [], scans: [] };
      const gone = new Set(change.removed.map((ref) => `${ref.prefix}/${ref.name}`));
      const refs = [...current.refs.filter((ref) => !gone.has(`${ref.prefix}/${ref.name}`)), ...change.added];
      const scans = [
        ...current.scans.filter((scan) => !change.scans.some((next) => next.prefix === scan.prefix)),
        ...change.scans,
      ];
      rows.set(id, { refs, scans });
    },
  };
}

export function harness(ttlMs: number, persisted = memoryIndexStore(), reconcileDelayMs = 0) {
  let now = 0;
  let scans = 0;
  let fail = false;
  let hold = false;
  let release: (() => void) | undefined;
  let next: (scan: number) => QueueScan = (scan) => ({ refs: [{ name: `q${scan}`, prefix: 'bull' }], incomplete: [] });
  const index = new QueueIndex({
    ttlMs,
    store: persisted,
    reconcileDelayMs,
    now: () => now,
    scan: async () => {
      scans += 1;
      const scan = scans;
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      if (fail) throw new Error('store down');
      return next(scan);
    },
  });
  return {
    index,
    persisted,
    advance: (ms: number) => (now += ms),
    scans: () => scans,
    failNext: (value: boolean) => (fail = value),
    holdScans: (value: boolean) => (hold = value),
    release: () => release?.(),
    answer: (make: (scan: number) => QueueScan) => (next = make),
  };
}

export const names = async (refs: Promise<QueueRef[]>) => (await refs).map((ref) => ref.name);
export const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
