import type { QueueRef } from './queue-key.js';
import { baseOfCountedKey, queueBase, trackedColumns } from './tracked-count-reads.js';

/** A read under way: which queues, and the sequence number each was given. */
export interface PendingRead {
  bases: string[];
  sequence: number;
  generation: number;
}

/**
 * What the count tracker knows: each queue's eight counts and pause flag (by base,
 * `<prefix>:<name>:`), the queues a notice said changed since, and which read
 * of a queue is the newest (two reads of one queue may overlap, a request's
 * and a catch-up's: only the newest may store what it read, or an older
 * answer could overwrite a newer one with no notice left to correct it).
 */
export class CountTable {
  private readonly counts = new Map<string, number[]>();
  private readonly dirty = new Set<string>();
  private readonly newestRead = new Map<string, number>();
  /** The sums of each column over every queue of `counts`, kept as rows change: totals cost nothing per queue. */
  private readonly totals: number[];
  /** Bumped when a queue enters or leaves `counts` (rows change in place): a CountView over the same queues stays valid. */
  membership = 0;
  /** Each ref's base made once (the directory hands out the same refs until a rescan): ~2× faster totals at 10,000 queues. */
  private readonly bases = new WeakMap<QueueRef, string>();
  private sequence = 0;
  /** Bumped when everything is forgotten: a read begun before must not store what it read. */
  private generation = 0;

  /**
   * `columns`: figures a row holds (the counts and the pause flag by default); `baseOfKey`: the queue a
   * noticed key changes a row of (the export table's figures are read from other keys than the counts).
   */
  constructor(
    columns = trackedColumns,
    private readonly baseOfKey: (key: string) => string | undefined = baseOfCountedKey,
  ) {
    this.totals = new Array<number>(columns).fill(0);
  }

  baseOf(ref: QueueRef): string {
    let base = this.bases.get(ref);
    if (base === undefined) {
      base = queueBase(ref);
      this.bases.set(ref, base);
    }
    return base;
  }

  /** Indexes of the refs whose counts are unknown or changed. */
  stale(bases: readonly string[]): number[] {
    const stale: number[] = [];
    for (let i = 0; i < bases.length; i++) if (this.dirty.has(bases[i]!) || !this.counts.has(bases[i]!)) stale.push(i);
    return stale;
  }

  /** Call before the read is sent: a notice arriving from then on is for a write the read may not have seen. */
  beginRead(bases: string[]): PendingRead {
    const sequence = ++this.sequence;
    for (const base of bases) {
      this.dirty.delete(base);
      this.newestRead.set(base, sequence);
    }
    return { bases, sequence, generation: this.generation };
  }

  finishRead(read: PendingRead, rows: readonly number[][]): void {
    if (read.generation !== this.generation) return;
    read.bases.forEach((base, i) => {
      if (this.newestRead.get(base) === read.sequence) this.store(base, rows[i]!);
    });
  }

  /** A queue's row, changed in place (views hold the row itself), the sums by the difference. */
  private store(base: string, row: readonly number[]): void {
    const known = this.counts.get(base);
    if (!known) this.membership++;
    const target = known ?? new Array<number>(row.length).fill(0);
    for (let k = 0; k < row.length; k++) {
      this.totals[k]! += row[k]! - target[k]!;
      target[k] = row[k]!;
    }
    if (!known) this.counts.set(base, target);
  }

  get size(): number {
    return this.counts.size;
  }

  rowOf(base: string): readonly number[] | undefined {
    return this.counts.get(base);
  }

  /** The sums of each column over every queue the table knows. */
  sums(): number[] {
    return this.totals.slice();
  }

  /** The queues a notice named since their last read. */
  dirtyBases(): IterableIterator<string> {
    return this.dirty.values();
  }

  /** A notice for a queue no list holds (nor the table): nothing to read again. */
  dropDirty(base: string): void {
    if (!this.counts.has(base)) this.dirty.delete(base);
  }

  /** A failed read leaves its queues to be read again. */
  failRead(read: PendingRead): void {
    if (read.generation === this.generation) for (const base of read.bases) this.dirty.add(base);
  }

  /** A notice: these keys changed (null: the store was flushed). */
  changed(keys: readonly string[] | null): void {
    if (keys === null) return this.forget();
    for (const key of keys) {
      const base = this.baseOfKey(key);
      // Marked even before a first read has stored the queue's counts: the notice may overtake that read's answer.
      if (base !== undefined) this.dirty.add(base);
    }
  }

  /** Each of `bases`' rows (jobCountKinds order, then the pause flag) and their sums, or undefined if one is unknown. */
  snapshot(bases: readonly string[]): { rows: number[][]; sums: number[] } | undefined {
    const sums = this.totals.map(() => 0);
    const rows = new Array<number[]>(bases.length);
    for (let i = 0; i < bases.length; i++) {
      const row = this.counts.get(bases[i]!);
      if (!row) return undefined;
      rows[i] = row;
      for (let k = 0; k < sums.length; k++) sums[k]! += row[k]!;
    }
    if (this.counts.size + this.dirty.size > 2 * bases.length + 1024) this.prune(new Set(bases));
    return { rows, sums };
  }

  forget(): void {
    this.generation++;
    this.membership++;
    this.totals.fill(0);
    this.counts.clear();
    this.dirty.clear();
    this.newestRead.clear();
  }

  /** Drops queues no longer listed (obliterated, or gone from the store). */
  prune(listed: { has(base: string): boolean }): void {
    for (const [base, row] of this.counts) {
      if (listed.has(base)) continue;
      for (let k = 0; k < row.length; k++) this.totals[k]! -= row[k]!;
      this.counts.delete(base);
      this.membership++;
    }
    for (const known of [this.newestRead, this.dirty]) {
      for (const base of known.keys()) if (!listed.has(base)) known.delete(base);
    }
  }
}
