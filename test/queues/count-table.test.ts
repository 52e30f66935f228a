import { describe, expect, it } from 'vitest';
import { CountTable } from '../../server/bullmq/count-table.js';

const row = (waiting: number) => [waiting, 0, 0, 0, 0, 0, 0, 0];
const base = 'bull:orders:';

describe('CountTable (what the count tracker knows between notices)', () => {
  it('lets only the newest read of a queue store its answer, so an older one arriving last cannot undo it', () => {
    const table = new CountTable();
    const older = table.beginRead([base]);
    const newer = table.beginRead([base]);
    table.finishRead(newer, [row(5)]);
    table.finishRead(older, [row(3)]);
    expect(table.snapshot([base])!.sums[0]).toBe(5);
    expect(table.stale([base])).toEqual([]);
  });

  it('keeps a notice that overtook the first answer of a queue: the queue is read again', () => {
    const table = new CountTable();
    const first = table.beginRead([base]);
    table.changed([`${base}wait`]);
    table.finishRead(first, [row(1)]);
    expect(table.stale([base])).toEqual([0]);
  });

  it('maps notices to queues by their status key only, names with colons included', () => {
    const table = new CountTable();
    const bases = ['bull:a:b:', 'bull:a:'];
    table.finishRead(table.beginRead(bases), [row(1), row(2)]);
    table.changed(['bull:a:b:waiting-children', 'bull:a:b:42', 'bull:a:events']);
    expect(table.stale(bases)).toEqual([0]);
  });

  it('forgets everything on a flush notice, and a read begun before it stores nothing', () => {
    const table = new CountTable();
    table.finishRead(table.beginRead([base]), [row(2)]);
    const during = table.beginRead([base]);
    table.changed(null);
    table.finishRead(during, [row(2)]);
    expect(table.snapshot([base])).toBeUndefined();
  });

  it('leaves the queues of a failed read to be read again', () => {
    const table = new CountTable();
    table.finishRead(table.beginRead([base]), [row(2)]);
    table.failRead(table.beginRead([base]));
    expect(table.stale([base])).toEqual([0]);
  });
});
