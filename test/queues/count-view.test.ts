import { describe, expect, it } from 'vitest';
import { CountTable } from '../../server/bullmq/count-table.js';
import { CountView } from '../../server/bullmq/count-view.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';

const row = (waiting: number, failed = 0) => [waiting, 0, 0, 0, failed, 0, 0, 0];
const refs: QueueRef[] = ['a', 'b', 'c'].map((name) => ({ prefix: 'bull', name }));

function filled(table: CountTable, view: CountView, rows: number[][]): void {
  table.finishRead(table.beginRead(view.bases), rows);
}

describe('CountView (the count table through the directory list)', () => {
  it('answers the sums kept as rows change, and only the queues a notice named as stale', () => {
    const table = new CountTable();
    const view = new CountView(refs, table);
    expect(view.stale()).toEqual([0, 1, 2]);
    expect(view.snapshot()).toBeUndefined();
    filled(table, view, [row(1), row(2, 1), row(3)]);
    expect(view.stale()).toEqual([]);
    expect(view.snapshot()!.sums.slice(0, 5)).toEqual([6, 0, 0, 0, 1]);
    table.changed(['bull:b:wait', 'bull:zz:wait']);
    expect(view.stale()).toEqual([1]);
    const read = table.beginRead([view.bases[1]!]);
    table.finishRead(read, [row(10, 4)]);
    const after = view.snapshot()!;
    expect(after.sums[0]).toBe(14);
    expect(after.sums[4]).toBe(4);
    // The rows are the table's own, changed in place: what a count sort reads is the newest.
    expect(after.rows.map((one) => one[0])).toEqual([1, 10, 3]);
    // A notice for a queue nobody lists is dropped, not read.
    expect(view.stale()).toEqual([]);
  });

  it('keeps the sums right when a queue leaves the list (pruned) and after a flush', () => {
    const table = new CountTable();
    const wide = new CountView(refs, table);
    filled(table, wide, [row(1), row(2), row(3)]);
    const narrow = new CountView(refs.slice(0, 2), table);
    expect(narrow.snapshot()!.sums[0]).toBe(3);
    expect(table.size).toBe(2);
    table.changed(null);
    expect(narrow.snapshot()).toBeUndefined();
    expect(narrow.stale()).toEqual([0, 1]);
    filled(table, narrow, [row(5), row(6)]);
    expect(narrow.snapshot()!.sums[0]).toBe(11);
  });

  it('sums equal a recount over many queues after many in-place changes', () => {
    const many: QueueRef[] = Array.from({ length: 500 }, (_, i) => ({ prefix: 'bull', name: `q${i}` }));
    const table = new CountTable();
    const view = new CountView(many, table);
    filled(
      table,
      view,
      many.map((_, i) => row(i % 7, i % 3)),
    );
    for (let i = 0; i < many.length; i += 3) table.finishRead(table.beginRead([view.bases[i]!]), [row(i % 5, 2)]);
    const snapshot = view.snapshot()!;
    const recount = [0, 4].map((k) => snapshot.rows.reduce((sum, one) => sum + one[k]!, 0));
    expect([snapshot.sums[0], snapshot.sums[4]]).toEqual(recount);
  });
});
