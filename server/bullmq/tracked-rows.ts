import type { StoreClient } from '../stores/redis-client.js';
import { CountTable } from './count-table.js';
import { CountView } from './count-view.js';
import { baseOfExtraKey, extraColumns, readExportExtras } from './export-counts.js';
import type { QueueRef } from './queue-key.js';

/** Reads rows of `refs` from the store (a figures script call). */
export type RowReader = (client: StoreClient, refs: readonly QueueRef[]) => Promise<number[][]>;

/** Reads `refs` into `table`, only the newest read of a queue storing what it read (count-table.ts). */
export async function readInto(
  table: CountTable,
  client: StoreClient,
  refs: readonly QueueRef[],
  reader: RowReader,
): Promise<void> {
  const read = table.beginRead(refs.map((ref) => table.baseOf(ref)));
  try {
    table.finishRead(read, await reader(client, refs));
  } catch (error) {
    table.failRead(read);
    throw error;
  }
}

/**
 * The Prometheus export's figures the counts leave out (finished totals, oldest waiting job), kept by the
 * count tracker's link once a scrape asked for them: until then their notices are not kept (a store
 * nobody scrapes holds no second table), and a lost link forgets them with the counts.
 */
export class ExportExtras {
  private readonly table = new CountTable(extraColumns, baseOfExtraKey);
  private view?: CountView | undefined;
  private asked = false;

  changed(keys: readonly string[] | null): void {
    if (this.asked) this.table.changed(keys);
  }

  forget(): void {
    this.table.forget();
    this.asked = false;
  }

  /**
   * Each of `refs`' extras row, read in chunks of `chunk` only where a notice named the queue since its
   * last read; undefined if the table was forgotten meanwhile. `current()`: the link is still the one
   * this began with (then notices of every write since are heard; call after the link's sync).
   */
  async rows(
    client: StoreClient,
    refs: readonly QueueRef[],
    chunk: number,
    current: () => boolean,
  ): Promise<readonly (readonly number[])[] | undefined> {
    this.asked = true;
    if (this.view?.refs !== refs) this.view = new CountView(refs, this.table);
    const stale = this.view.stale().map((i) => refs[i]!);
    for (let at = 0; at < stale.length && current(); at += chunk)
      await readInto(this.table, client, stale.slice(at, at + chunk), readExportExtras);
    return this.view.snapshot()?.rows;
  }
}
