import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { exportedStates, type ExportCounts } from '../../server/bullmq/export-counts.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { isStoreUnavailable } from '../../server/stores/store-errors.js';

/** Queues read per script call: a few milliseconds of store time each, and a bounded reply in memory. */
const queuesPerCall = 500;
/** Samples of a later family written per chunk: a bounded string at a time. */
const linesPerWrite = 2000;

export const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export const header = (name: string, help: string, type: string) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;

export async function write(out: Writable, text: string): Promise<void> {
  if (text !== '' && !out.write(text)) await once(out, 'drain');
}

export interface Scraped {
  store: StoreHandle;
  refs: QueueRef[];
  up: boolean;
}

/** What the families after `bullmq_job_count` say of one queue: its labels once, four numbers. */
interface Later {
  labels: string[];
  values: Float64Array[];
}

const laterFamilies = [
  ['bullmq_job_completed_total', 'Total number of completed jobs', 'counter'],
  ['bullmq_job_failed_total', 'Total number of failed jobs', 'counter'],
  ['bullpen_queue_backlog', 'Jobs waiting to run (wait + prioritized)', 'gauge'],
  ['bullpen_queue_oldest_waiting_seconds', 'Age of the oldest waiting job (0 when none waits)', 'gauge'],
] as const;

/** A read of one chunk settled either way: the next chunk is read while this one is written, and never rejects unheard. */
type Read = Promise<{ rows: ExportCounts[] } | { error: unknown }>;
const readChunk = (store: StoreHandle, refs: QueueRef[]): Read =>
  store.exportCounts(refs).then(
    (rows) => ({ rows }),
    (error: unknown) => ({ error }),
  );

/**
 * `bullmq_job_count` as it is read, and the four later families of each
 * queue kept as numbers (not 400,000 strings at 100,000 queues), written
 * after it a chunk at a time. The store reads the next 500 queues while the
 * previous ones are formatted and written.
 */
export async function writeQueueFamilies(out: Writable, scraped: Scraped[]): Promise<void> {
  const total = scraped.reduce((sum, { refs }) => sum + refs.length, 0);
  const later: Later = { labels: [], values: laterFamilies.map(() => new Float64Array(total)) };
  if (total > 0) await write(out, header('bullmq_job_count', 'Number of jobs in the queue by state', 'gauge'));
  for (const entry of scraped) await writeCounts(out, entry, later);
  if (later.labels.length === 0) return;
  for (let family = 0; family < laterFamilies.length; family++) {
    const [name, help, type] = laterFamilies[family]!;
    const values = later.values[family]!;
    let text = header(name, help, type);
    for (let i = 0; i < later.labels.length; i++) {
      text += `${name}{${later.labels[i]}} ${values[i]}\n`;
      if ((i + 1) % linesPerWrite === 0) {
        await write(out, text);
        text = '';
      }
    }
    await write(out, text);
  }
}

const waitingAt = exportedStates.indexOf('waiting');
const prioritizedAt = exportedStates.indexOf('prioritized');

async function writeCounts(out: Writable, entry: Scraped, later: Later): Promise<void> {
  const connection = escapeLabel(entry.store.connection.name);
  const now = Date.now();
  let next: Read | undefined = entry.up ? readChunk(entry.store, entry.refs.slice(0, queuesPerCall)) : undefined;
  for (let start = 0; next && start < entry.refs.length; start += queuesPerCall) {
    const read = await next;
    if ('error' in read) {
      if (!isStoreUnavailable(read.error)) throw read.error;
      entry.up = false;
      return;
    }
    const after = start + queuesPerCall;
    next =
      after < entry.refs.length ? readChunk(entry.store, entry.refs.slice(after, after + queuesPerCall)) : undefined;
    let text = '';
    for (const { ref, counts, completedTotal, failedTotal, oldestWaitingAt } of read.rows) {
      const labels = `queue="${escapeLabel(ref.name)}"`;
      const tail = `, connection="${connection}", prefix="${escapeLabel(ref.prefix)}"`;
      for (let state = 0; state < exportedStates.length; state++)
        text += `bullmq_job_count{${labels}, state="${exportedStates[state]}"${tail}} ${counts[state]}\n`;
      const at = later.labels.push(labels + tail) - 1;
      later.values[0]![at] = completedTotal;
      later.values[1]![at] = failedTotal;
      later.values[2]![at] = counts[waitingAt]! + counts[prioritizedAt]!;
      later.values[3]![at] = oldestWaitingAt > 0 ? Math.max(0, Math.round((now - oldestWaitingAt) / 1000)) : 0;
    }
    await write(out, text);
  }
}
