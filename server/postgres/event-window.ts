/**
 * Which of BullMQ's `event` rows a feed still has to deliver. Event ids come from one sequence at
 * INSERT time but become visible at COMMIT, so two transactions can commit out of id order: reading
 * "past the highest id delivered" would skip the lower id committed last. A feed therefore re-reads
 * from a settled `floor` and delivers each id once (the `seen` ids above the floor).
 *
 * The floor moves up by PostgreSQL's snapshots: a read records the highest id delivered (`top`) and
 * its snapshot's `xmax` (the first transaction id not yet started). Every id below `top` not yet
 * visible belongs to a transaction running then (ids are drawn after the job writes that give
 * BullMQ's transactions their xid); once a later snapshot's `xmin` (the oldest transaction still
 * running) reaches that `xmax`, all of them have ended and a read from the old floor has seen
 * every id up to `top`. A transaction left open longer than `settleMs` (any session's that wrote:
 * it holds `xmin` back) stops holding the window open, bounding what each read reads again; its
 * events are then delivered only if they are above the floor when it commits.
 */
export const settleMs = 10_000;
/** Reads closer together than this share one mark (a busy queue's NOTIFYs wake reads by the hundred). */
const markMs = 100;

interface Mark {
  /** The snapshot's xmax when `top` was the highest id read. */
  xmax: bigint;
  top: bigint;
  at: number;
}

export interface EventSnapshot {
  xmin: bigint;
  xmax: bigint;
}

export class EventWindow {
  /** Ids at or below it are settled: never read again. */
  floor: bigint;
  private top: bigint;
  private readonly seen = new Set<bigint>();
  private marks: Mark[] = [];

  constructor(start: bigint) {
    this.floor = start;
    this.top = start;
  }

  /** Whether an id read is new to this feed (and now counts as delivered). */
  admit(id: bigint): boolean {
    if (id <= this.floor || this.seen.has(id)) return false;
    this.seen.add(id);
    if (id > this.top) this.top = id;
    return true;
  }

  /**
   * After a complete read: `first` is the snapshot that read from the floor, `last` the one of the
   * final page (the highest id admitted so far was visible to it).
   */
  settle(first: EventSnapshot, last: EventSnapshot, now = Date.now()): void {
    const settled = this.marks.filter((mark) => mark.xmax <= first.xmin || now - mark.at > settleMs);
    this.marks = this.marks.filter((mark) => !settled.includes(mark));
    for (const mark of settled) if (mark.top > this.floor) this.floor = mark.top;
    for (const id of this.seen) if (id <= this.floor) this.seen.delete(id);
    if (this.top <= this.floor) return;
    const latest = this.marks.at(-1);
    // Sharing a mark with the later xmax only waits longer: never settles too early.
    if (latest && now - latest.at < markMs) Object.assign(latest, { xmax: last.xmax, top: this.top });
    else this.marks.push({ xmax: last.xmax, top: this.top, at: now });
  }

  /** Ids held above the floor (what the next read reads again). */
  get pending(): number {
    return this.seen.size;
  }
}
