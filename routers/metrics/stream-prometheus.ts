import type { Writable } from 'node:stream';
import type { QueueDirectory } from '../../server/bullmq/queue-directory.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import { isStoreUnavailable } from '../../server/stores/store-errors.js';
import type { LatestLatency } from './latest-latency.js';
import type { QueueLabelCache } from './queue-labels.js';
import { escapeLabel, header, write, writeQueueFamilies, type Scraped } from './prometheus-queue-families.js';

/** Where the exposition's latency comes from: the history's latest sample of a connection. */
export type LatencySource = (store: StoreHandle) => Promise<LatestLatency[]>;

/**
 * `bullpen_job_processing_seconds`, a summary per queue: the quantiles of the processing times the
 * history measured in its latest sample (quantiles only: the sampler measures at most 100 jobs of a
 * queue per interval, so a count or sum would not be every job's). A database that does not answer
 * leaves the family out, never the scrape.
 */
async function latencyFamily(
  scraped: Scraped[],
  latency: LatencySource,
  include: (name: string) => boolean,
): Promise<string> {
  let text = '';
  for (const { store } of scraped) {
    const rows = await Promise.resolve()
      .then(() => latency(store))
      .catch(() => [] as LatestLatency[]);
    const connection = escapeLabel(store.connection.name);
    for (const row of rows) {
      if (!include(row.queueName)) continue;
      const labels = `queue="${escapeLabel(row.queueName)}",connection="${connection}",prefix="${escapeLabel(row.prefix)}"`;
      for (const [quantile, ms] of [
        ['0.5', row.p50],
        ['0.95', row.p95],
        ['0.99', row.p99],
      ] as const)
        text += `bullpen_job_processing_seconds{${labels},quantile="${quantile}"} ${ms / 1000}\n`;
    }
  }
  return text === ''
    ? ''
    : header(
        'bullpen_job_processing_seconds',
        'Processing time (finishedOn - processedOn) of the jobs a queue finished in the latest history sample interval (at most 100 newest)',
        'summary',
      ) + text;
}

type Rows = readonly (readonly number[])[];

/**
 * The store's tracked rows of every queue (counts and pause flag, in the directory's order) and, when it
 * has them, the extras the export adds (finished totals, oldest waiting job); undefined where the tracker
 * cannot answer (then the script reads). Asked of the directory's own list: a list of its own (the
 * SERVICE_METRICS_QUEUES selection) would replace the tracker's view of every queue.
 */
async function trackedRows(store: StoreHandle, all: QueueRef[]): Promise<{ rows?: Rows; extras?: Rows }> {
  const rows = (await store.counts.totals(all))?.rows;
  return rows ? { rows, extras: await store.counts.exportExtras(all) } : {};
}

/** The queues the scrape exports, with their tracked rows: the directory's list itself when every queue is. */
function included(
  all: QueueRef[],
  { rows, extras }: { rows?: Rows; extras?: Rows },
  include: (name: string) => boolean,
) {
  if (all.every((ref) => include(ref.name))) return { refs: all, rows, extras };
  const at = all.flatMap((ref, i) => (include(ref.name) ? [i] : []));
  return {
    refs: at.map((i) => all[i]!),
    rows: rows && at.map((i) => rows[i]!),
    extras: extras && at.map((i) => extras[i]!),
  };
}

/**
 * The queue families of GET /api/prometheus, written as they are read: per
 * queue, `bullmq_job_count` for each of 7 states, `bullmq_job_completed_total`
 * and `bullmq_job_failed_total` (9 series, the same as BullMQ's own
 * exportPrometheusMetrics, labelled `connection` (its name) and `prefix`), then
 * `bullpen_queue_backlog`, `bullpen_queue_oldest_waiting_seconds` and `bullpen_queue_paused`, then
 * `bullpen_job_processing_seconds` (from the history), then
 * `bullpen_store_up` per connection. Names come from the queue index and
 * counts from one script call per 500 queues (the next read while the last
 * is written: prometheus-queue-families.ts), so a scrape of 100,000 queues
 * is ~200 calls and never holds the whole document; with the store's tracked
 * rows (the queue list's counts and pause flags, and the export's finished
 * totals and oldest waiting jobs: exact, read only where a notice said they
 * changed) a scrape reads nothing but what changed. A store that fails
 * part-way keeps the samples already written and scores 0.
 */
export async function streamPrometheus(
  out: Writable,
  stores: StoreHandle[],
  directory: QueueDirectory,
  include: (name: string) => boolean,
  latency?: LatencySource,
  labelCache?: QueueLabelCache,
): Promise<void> {
  const scraped: Scraped[] = await Promise.all(
    stores.map(async (store) => {
      try {
        const all = await directory.list(store);
        return { store, ...included(all, await trackedRows(store, all), include), up: true };
      } catch (error) {
        if (!isStoreUnavailable(error)) throw error;
        return { store, refs: [], up: false };
      }
    }),
  );
  await writeQueueFamilies(out, scraped, labelCache);
  if (latency) await write(out, await latencyFamily(scraped, latency, include));
  await write(
    out,
    header('bullpen_store_up', 'Whether the store of a connection answered this scrape (1) or not (0)', 'gauge') +
      scraped
        .map(({ store, up }) => `bullpen_store_up{connection="${escapeLabel(store.connection.name)}"} ${up ? 1 : 0}\n`)
        .join(''),
  );
}
