import type { CountTable } from './count-table.js';
import type { QueueRef } from './queue-key.js';

/**
 * The count table seen through one list of queues (the directory's array,
 * the same until the index changes). While the table holds exactly these
 * queues, what a request needs costs what changed, not the queue count:
 * the stale queues are the notices' (not a lookup per queue), the sums are
 * the table's own (kept as rows change) and the rows are the table's, held
 * once in list order (they change in place). Otherwise it answers as the
 * table does, a lookup per queue, and drops queues no longer listed.
 */
export class CountView {
  readonly bases: string[];
  private readonly positions: Map<string, number>;
  private rows: (readonly number[])[] = [];
  /** The table's membership the rows were gathered at; -1: not complete. */
  private membership = -1;

  constructor(
    readonly refs: readonly QueueRef[],
    private readonly table: CountTable,
  ) {
    this.bases = refs.map((ref) => table.baseOf(ref));
    this.positions = new Map(this.bases.map((base, i) => [base, i]));
  }

  /** Indexes of the listed queues whose counts are unknown or changed. */
  stale(): number[] {
    if (!this.complete()) return this.table.stale(this.bases);
    const stale: number[] = [];
    for (const base of this.table.dirtyBases()) {
      const at = this.positions.get(base);
      if (at === undefined) this.table.dropDirty(base);
      else stale.push(at);
    }
    return stale;
  }

  /** Each listed queue's counts (list order) and their sums, or undefined if one is unknown. */
  snapshot(): { rows: readonly (readonly number[])[]; sums: number[] } | undefined {
    if (this.complete()) return { rows: this.rows, sums: this.table.sums() };
    return this.table.snapshot(this.bases);
  }

  /** Whether the table holds exactly the listed queues (checked again only when its membership changed). */
  private complete(): boolean {
    if (this.membership === this.table.membership) return true;
    const rows = new Array<readonly number[]>(this.bases.length);
    for (let i = 0; i < this.bases.length; i++) {
      const row = this.table.rowOf(this.bases[i]!);
      if (!row) return false;
      rows[i] = row;
    }
    // Every listed queue is known: what else the table holds is gone from the list.
    if (this.table.size > this.bases.length) this.table.prune(this.positions);
    this.rows = rows;
    this.membership = this.table.membership;
    return true;
  }
}
