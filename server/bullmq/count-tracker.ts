import { jobCountKinds, type JobCounts } from '../../contracts/queues.js';
import type { Logger } from '../logger.js';
import type { StoreClient } from '../stores/redis-client.js';
import { CountTable } from './count-table.js';
import { CountView } from './count-view.js';
import type { QueueRef } from './queue-key.js';
import { TrackingGroup } from './tracking-group.js';
import type { Tracking } from './tracking-link.js';
import { readCounts } from './tracked-count-reads.js';
import { ExportExtras, readInto } from './tracked-rows.js';

export interface TrackedTotals {
  totals: JobCounts;
  /** Each queue's eight counts (jobCountKinds order within a row) and pause flag, in the order of the refs asked for. */
  rows: readonly (readonly number[])[];
  /** When they were exact: the end of the request's reconciliation (ms since the epoch). */
  countedAt: number;
}

export interface CountTrackerOptions {
  /** SERVICE_QUEUE_TOTALS_TRACKING: false keeps the tracker off (the list counts totals as before). */
  enabled: boolean;
  /** The store's key prefixes (the connection's): the tracker hears of every write under them. */
  prefixes?: readonly string[];
  /** With no totals asked for this long, the link closes (no notices while nobody looks). */
  idleCloseMs?: number;
  logger?: Logger;
  now?: () => number;
}

/**
 * A request reads at most this many unknown or changed queues itself (or a quarter of them, if more):
 * ~40 µs a queue, so never much longer than counting them all by script; beyond it the tracker catches up in the background.
 */
const readInRequest = 256;
/** Queues read per step while catching up: then the event loop and the store breathe. */
const catchUpChunk = 500;
/** How long a list waits for the notice connection to answer (then it counts, and the link starts over): well inside the 5-s budget of a request. */
const syncTimeoutMs = 1000;
/**
 * How long a request waits for a start or catch-up under way before counting every queue itself: counting
 * beside a catch-up doubles the store's work (at 100,000 queues on a loaded host, both timed out, again and again).
 */
const waitForCatchUpMs = 3000;
/** Lists this long wait for a catch-up (shorter ones count by script at once: a few calls, cheaper than waiting). */
const waitFromQueues = 20_000;
/** Default idleCloseMs: ten minutes without a list asking for totals. */
const defaultIdleCloseMs = 600_000;
/** After a failed start (no CLIENT TRACKING: Redis < 6, an ACL without it), how long before trying again. */
const retryAfterMs = 60_000;

/**
 * The eight job counts of every queue of one store, kept exact by the store
 * itself: Redis's client-side caching (CLIENT TRACKING, broadcast mode over
 * the connection's key prefixes) sends a notice naming every key written
 * under them, whoever writes it (workers, producers, scripts, expiry, a
 * flush), and a request reads again only the queues whose status keys a
 * notice named. So connection-wide totals cost what changed, not eight
 * lookups of every queue. On a cluster, a link on each master (TrackingGroup).
 * When the tracker cannot answer (off, a store without tracking, a lost link, or too many queues to read: see
 * readInRequest) the caller counts as before, and the tracker catches up in
 * the background. The link closes after idleCloseMs without a request.
 */
export class CountTracker {
  private link?: Tracking | undefined;
  private starting?: Promise<void> | undefined;
  private catchingUp?: Promise<void> | undefined;
  private retryAt = 0;
  private lastAskedAt = 0;
  /** Set by close(): the store is gone, a link still opening is closed as soon as it is open. */
  private closed = false;
  private readonly table = new CountTable();
  private view?: CountView | undefined;
  /** The Prometheus export's other figures (finished totals, oldest waiting job), kept once a scrape asked (exportExtras). */
  private readonly extras = new ExportExtras();
  private readonly now: () => number;

  constructor(
    private readonly client: StoreClient,
    private readonly options: CountTrackerOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The counts and totals of `refs`, exact as of now, or undefined when the tracker cannot answer (see the class). */
  async totals(refs: readonly QueueRef[]): Promise<TrackedTotals | undefined> {
    this.lastAskedAt = this.now();
    const waitUntil = refs.length >= waitFromQueues ? Date.now() + waitForCatchUpMs : 0;
    let link = this.activeLink(refs);
    if (!link && this.starting && waitUntil > 0) {
      await within(this.starting, waitUntil);
      link = this.link;
    }
    if (!link) return undefined;
    try {
      // Every notice of a write made before this request has arrived once the link answers.
      await link.sync(syncTimeoutMs);
      const view = this.viewOf(refs);
      let stale = view.stale();
      const tooMany = () => stale.length > Math.max(readInRequest, refs.length / 4);
      if (tooMany()) {
        this.catchUp(
          link,
          stale.map((i) => refs[i]!),
        );
        if (waitUntil === 0) return undefined;
        await within(this.catchingUp, waitUntil);
        stale = view.stale();
        if (tooMany()) return undefined;
      }
      if (stale.length > 0) await this.read(stale.map((i) => refs[i]!));
      const known = view.snapshot();
      if (!known) return undefined; // forgotten while reading (a lost link, a flush)
      const totals = Object.fromEntries(jobCountKinds.map((kind, k) => [kind, known.sums[k]!])) as JobCounts;
      return { totals, rows: known.rows, countedAt: this.now() };
    } catch (error) {
      // A dropped link or a failed read: the caller counts on the store's own client, whose errors map as every request's do.
      this.options.logger?.debug({ reason: (error as Error).message }, 'queue totals: tracked read failed');
      return undefined;
    }
  }

  /** The view of this list of queues: the same array (the directory's, until the index changes) keeps its view. */
  private viewOf(refs: readonly QueueRef[]): CountView {
    if (this.view?.refs !== refs) this.view = new CountView(refs, this.table);
    return this.view;
  }

  /** The link when it is up; otherwise starts it (at most once a minute after a failure) to catch up on `refs`. */
  private activeLink(refs: readonly QueueRef[]): Tracking | undefined {
    if (!this.options.enabled || this.closed) return undefined;
    if (this.link) return this.link;
    if (!this.starting && this.now() >= this.retryAt)
      this.starting = this.start(refs).finally(() => (this.starting = undefined));
    return undefined;
  }

  private async start(refs: readonly QueueRef[]): Promise<void> {
    try {
      // No prefix would broadcast every key of the store: a connection without one uses BullMQ's default, as its queues do.
      const prefixes = this.options.prefixes?.length ? this.options.prefixes : ['bull'];
      const link = await TrackingGroup.open(this.client, prefixes, {
        onChanged: (keys) => {
          this.table.changed(keys);
          this.extras.changed(keys);
        },
        onLost: () => {
          if (this.link === link) this.link = undefined;
          this.forget();
        },
      });
      if (this.closed) return link.close();
      this.link = link;
      link.closeWhenIdle(this.options.idleCloseMs ?? defaultIdleCloseMs, () => this.now() - this.lastAskedAt);
      this.catchUp(link, refs);
    } catch (error) {
      this.retryAt = this.now() + retryAfterMs;
      this.options.logger?.info(
        { reason: (error as Error).message },
        'queue totals: no client-side tracking on this store, totals are counted by the list',
      );
    }
  }

  /**
   * The export's extras row of each of `refs` (finished totals, oldest waiting job: export-counts.ts), read
   * only where a notice said they changed since the last scrape; undefined when the link is not up (call
   * totals first) or a read fails. A first scrape reads them all, a chunk at a time.
   */
  async exportExtras(refs: readonly QueueRef[]): Promise<readonly (readonly number[])[] | undefined> {
    const link = this.link;
    if (!link) return undefined;
    try {
      await link.sync(syncTimeoutMs);
      return await this.extras.rows(this.client, refs, catchUpChunk, () => this.link === link);
    } catch (error) {
      this.options.logger?.debug({ reason: (error as Error).message }, 'prometheus: tracked extras read failed');
      return undefined;
    }
  }

  private read(refs: readonly QueueRef[]): Promise<void> {
    return readInto(this.table, this.client, refs, readCounts);
  }

  /** What the link told can no longer be trusted: both tables start over. */
  private forget(): void {
    this.table.forget();
    this.extras.forget();
  }

  /** Reads `refs` in the background, a chunk at a time (one catch-up at a time). */
  private catchUp(link: Tracking, refs: readonly QueueRef[]): void {
    if (this.catchingUp) return;
    this.catchingUp = (async () => {
      for (let at = 0; at < refs.length && this.link === link; at += catchUpChunk)
        await this.read(refs.slice(at, at + catchUpChunk));
    })()
      .catch((error: Error) =>
        this.options.logger?.warn({ reason: error.message }, 'queue totals: catching up on tracked counts failed'),
      )
      .finally(() => (this.catchingUp = undefined));
  }

  /** Waits for a start or catch-up under way (tests). */
  async settled(): Promise<void> {
    await this.starting;
    await this.catchingUp;
  }

  /** For good (the store handle is closing). */
  close(): void {
    this.closed = true;
    const link = this.link;
    this.link = undefined;
    link?.close();
    this.forget();
  }
}

/** Waits for `work` (its failure is its own to report) until `deadline` at most. */
async function within(work: Promise<void> | undefined, deadline: number): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
  await Promise.race([work.catch(() => undefined), late]);
  clearTimeout(timer);
}
