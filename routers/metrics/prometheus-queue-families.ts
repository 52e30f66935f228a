import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { exportedStates, type ExportCounts } from '../../server/bullmq/export-counts.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { isStoreUnavailable } from '../../server/stores/store-errors.js';
import { ExpositionBuffer } from './exposition-buffer.js';

/** Queues read per script call: a few milliseconds of store time each, and a bounded reply in memory. */
const queuesPerCall = 500;
/** Samples of a later family between two waits for the response to drain. */
const linesPerSettle = 2000;

export const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export const header = (name: string, help: string, type: string) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;

export async function write(out: Writable, text: string): Promise<void> {
  if (text !== '' && !out.write(text)) await once(out, 'drain');
}

export interface Scraped {
  store: StoreHandle;
  refs: QueueRef[];
  /** The tracked counts of `refs` (jobCountKinds order), when the store keeps them: then not read again. */
  rows?: readonly (readonly number[])[] | undefined;
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
const readChunk = (entry: Scraped, start: number, end: number): Read =>
  entry.store.exportCounts(entry.refs.slice(start, end), entry.rows?.slice(start, end)).then(
    (rows) => ({ rows }),
    (error: unknown) => ({ error }),
  );

/**
 * `bullmq_job_count` as it is read, and the four later families of each
 * queue kept as numbers (not 400,000 strings at 100,000 queues), written
 * after it. The store reads the next 500 queues while the previous ones are
 * formatted; lines are encoded into the response's buffers as they are made
 * (exposition-buffer.ts), never gathered into one long string.
 */
export async function writeQueueFamilies(out: Writable, scraped: Scraped[]): Promise<void> {
  const total = scraped.reduce((sum, { refs }) => sum + refs.length, 0);
  const later: Later = { labels: [], values: laterFamilies.map(() => new Float64Array(total)) };
  const buffer = new ExpositionBuffer(out);
  if (total > 0) buffer.add(header('bullmq_job_count', 'Number of jobs in the queue by state', 'gauge'));
  for (const entry of scraped) await writeCounts(buffer, entry, later);
  for (let family = 0; later.labels.length > 0 && family < laterFamilies.length; family++) {
    const [name, help, type] = laterFamilies[family]!;
    const values = later.values[family]!;
    buffer.add(header(name, help, type));
    for (let i = 0; i < later.labels.length; i++) {
      buffer.add(`${name}{${later.labels[i]}} ${values[i]}\n`);
      if ((i + 1) % linesPerSettle === 0) await buffer.settle();
    }
  }
  await buffer.end();
}

const waitingAt = exportedStates.indexOf('waiting');
const prioritizedAt = exportedStates.indexOf('prioritized');

async function writeCounts(buffer: ExpositionBuffer, entry: Scraped, later: Later): Promise<void> {
  const connection = escapeLabel(entry.store.connection.name);
  const now = Date.now();
  let next: Read | undefined = entry.up ? readChunk(entry, 0, queuesPerCall) : undefined;
  for (let start = 0; next && start < entry.refs.length; start += queuesPerCall) {
    const read = await next;
    if ('error' in read) {
      if (!isStoreUnavailable(read.error)) throw read.error;
      entry.up = false;
      return;
    }
    const after = start + queuesPerCall;
    next = after < entry.refs.length ? readChunk(entry, after, after + queuesPerCall) : undefined;
    for (const { ref, counts, completedTotal, failedTotal, oldestWaitingAt } of read.rows) {
      const labels = `queue="${escapeLabel(ref.name)}"`;
      const tail = `, connection="${connection}", prefix="${escapeLabel(ref.prefix)}"`;
      for (let state = 0; state < exportedStates.length; state++)
        buffer.add(`bullmq_job_count{${labels}, state="${exportedStates[state]}"${tail}} ${counts[state]}\n`);
      const at = later.labels.push(labels + tail) - 1;
      later.values[0]![at] = completedTotal;
      later.values[1]![at] = failedTotal;
      later.values[2]![at] = counts[waitingAt]! + counts[prioritizedAt]!;
      later.values[3]![at] = oldestWaitingAt > 0 ? Math.max(0, Math.round((now - oldestWaitingAt) / 1000)) : 0;
    }
    await buffer.settle();
  }
}
