import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { exportedStates, trackedAt, type ExportCounts } from '../../server/bullmq/export-counts.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import { pausedColumn } from '../../server/bullmq/tracked-count-reads.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { isStoreUnavailable } from '../../server/stores/store-errors.js';
import { ExpositionBuffer } from './exposition-buffer.js';
import { escapeLabel, QueueLabelCache, type QueueLabels } from './queue-labels.js';

export { escapeLabel };

/** Queues read per script call: a few milliseconds of store time each, and a bounded reply in memory. */
const queuesPerCall = 500;
/** Queues written between two waits for the response to drain (~1 MB). */
const queuesPerSettle = 1000;

export const header = (name: string, help: string, type: string) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;

export async function write(out: Writable, text: string): Promise<void> {
  if (text !== '' && !out.write(text)) await once(out, 'drain');
}

type Rows = readonly (readonly number[])[];

export interface Scraped {
  store: StoreHandle;
  refs: QueueRef[];
  /** The tracked rows of `refs` (jobCountKinds order, the pause flag), when the store keeps them: then not read again. */
  rows?: Rows | undefined;
  /** With `rows`, the tracked extras of `refs` (finished totals, oldest waiting job): then nothing is read. */
  extras?: Rows | undefined;
  up: boolean;
}

const laterFamilies = [
  ['bullmq_job_completed_total', 'Total number of completed jobs', 'counter'],
  ['bullmq_job_failed_total', 'Total number of failed jobs', 'counter'],
  ['bullpen_queue_backlog', 'Jobs waiting to run (wait + prioritized)', 'gauge'],
  ['bullpen_queue_oldest_waiting_seconds', 'Age of the oldest waiting job (0 when none waits)', 'gauge'],
  ['bullpen_queue_paused', 'Whether the queue is paused (1) or not (0)', 'gauge'],
] as const;

const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const countHead = bytes('bullmq_job_count{');
const stateLabels = exportedStates.map((state) => bytes(`,state="${state}"`));
const laterHeads = laterFamilies.map(([name]) => bytes(`${name}{`));
const none = new Uint8Array(0);

/** One connection's queues as written: their labels, and where their later figures start in `Later.values`. */
interface Written {
  labels: QueueLabels;
  from: number;
  count: number;
}

/** The later families' figures of every queue (one Float64Array a family), written after `bullmq_job_count`. */
interface Later {
  written: Written[];
  values: Float64Array[];
}

/** A read of one chunk settled either way: the next chunk is read while this one is written, and never rejects unheard. */
type Read = Promise<{ rows: ExportCounts[] } | { error: unknown }>;
const readChunk = (entry: Scraped, start: number, end: number): Read =>
  entry.store.exportCounts(entry.refs.slice(start, end), entry.rows?.slice(start, end)).then(
    (rows) => ({ rows }),
    (error: unknown) => ({ error }),
  );

/**
 * `bullmq_job_count` as it is read, and the later families of each queue
 * kept as numbers, written after it. With the store's tracked rows and
 * extras nothing is read; otherwise the store reads the next 500 queues
 * while the previous ones are written. Each line is bytes copied from the
 * queue's labels encoded once (queue-labels.ts) into the response's
 * buffers (exposition-buffer.ts): no string a line, no long string.
 */
export async function writeQueueFamilies(
  out: Writable,
  scraped: Scraped[],
  labelCache = new QueueLabelCache(),
): Promise<void> {
  const total = scraped.reduce((sum, { refs }) => sum + refs.length, 0);
  const later: Later = { written: [], values: laterFamilies.map(() => new Float64Array(total)) };
  const buffer = new ExpositionBuffer(out);
  if (total > 0) buffer.add(header('bullmq_job_count', 'Number of jobs in the queue by state', 'gauge'));
  let from = 0;
  for (const entry of scraped) {
    const written = { labels: labelCache.of(entry.refs, entry.store.connection.name), from, count: 0 };
    later.written.push(written);
    written.count =
      entry.rows && entry.extras
        ? await writeTracked(buffer, entry, written, later)
        : await writeRead(buffer, entry, written, later);
    from += written.count;
  }
  for (let family = 0; from > 0 && family < laterFamilies.length; family++) {
    const [name, help, type] = laterFamilies[family]!;
    buffer.add(header(name, help, type));
    await writeLater(buffer, laterHeads[family]!, later.values[family]!, later.written);
  }
  await buffer.end();
}

async function writeLater(buffer: ExpositionBuffer, head: Uint8Array, values: Float64Array, written: Written[]) {
  for (const { labels, from, count } of written) {
    const { bytes: text, starts, mids } = labels;
    for (let i = 0; i < count; i++) {
      buffer.sample(head, text, starts[i]!, mids[i]!, none, starts[i + 1]!, values[from + i]!);
      if ((i + 1) % queuesPerSettle === 0) await buffer.settle();
    }
  }
}

/** Writes queue `i`'s `bullmq_job_count` samples (`counts` in exportedStates order) and keeps its later figures. */
function writeQueue(
  buffer: ExpositionBuffer,
  { labels, from }: Written,
  i: number,
  figures: QueueFigures,
  later: Later,
) {
  const { bytes: text, starts, mids } = labels;
  for (let state = 0; state < stateLabels.length; state++)
    buffer.sample(countHead, text, starts[i]!, mids[i]!, stateLabels[state]!, starts[i + 1]!, figures.counts[state]!);
  const at = from + i;
  later.values[0]![at] = figures.completedTotal;
  later.values[1]![at] = figures.failedTotal;
  later.values[2]![at] = figures.counts[waitingAt]! + figures.counts[prioritizedAt]!;
  later.values[3]![at] =
    figures.oldestWaitingAt > 0 ? Math.max(0, Math.round((figures.now - figures.oldestWaitingAt) / 1000)) : 0;
  later.values[4]![at] = figures.paused;
}

const waitingAt = exportedStates.indexOf('waiting');
const prioritizedAt = exportedStates.indexOf('prioritized');

/** One queue's figures as writeQueue takes them (one object reused for every tracked queue). */
type QueueFigures = Omit<ExportCounts, 'ref'> & { now: number };

/** Every queue from the tracked rows and extras: no store call. */
async function writeTracked(buffer: ExpositionBuffer, entry: Scraped, written: Written, later: Later) {
  const rows = entry.rows!;
  const extras = entry.extras!;
  const figures: QueueFigures = {
    counts: [],
    completedTotal: 0,
    failedTotal: 0,
    oldestWaitingAt: 0,
    paused: 0,
    now: Date.now(),
  };
  for (let i = 0; i < entry.refs.length; i++) {
    const row = rows[i]!;
    const extra = extras[i]!;
    for (let state = 0; state < trackedAt.length; state++) figures.counts[state] = row[trackedAt[state]!]!;
    figures.completedTotal = extra[0]!;
    figures.failedTotal = extra[1]!;
    figures.oldestWaitingAt = extra[2]!;
    figures.paused = row[pausedColumn]!;
    writeQueue(buffer, written, i, figures, later);
    if ((i + 1) % queuesPerSettle === 0) await buffer.settle();
  }
  return entry.refs.length;
}

/** Every queue read by script, a chunk at a time (the next read while the last is written); the count written. */
async function writeRead(buffer: ExpositionBuffer, entry: Scraped, written: Written, later: Later) {
  const now = Date.now();
  let next: Read | undefined = entry.up ? readChunk(entry, 0, queuesPerCall) : undefined;
  let count = 0;
  for (let start = 0; next && start < entry.refs.length; start += queuesPerCall) {
    const read = await next;
    if ('error' in read) {
      if (!isStoreUnavailable(read.error)) throw read.error;
      entry.up = false;
      break;
    }
    const after = start + queuesPerCall;
    next = after < entry.refs.length ? readChunk(entry, after, after + queuesPerCall) : undefined;
    for (const row of read.rows) writeQueue(buffer, written, count++, { ...row, now }, later);
    await buffer.settle();
  }
  return count;
}
