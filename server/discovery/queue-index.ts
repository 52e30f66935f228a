import type { DiscoveryStatus } from '../../contracts/discovery.js';
import { defaultScanLimits, type QueueScan, type ScanLimits } from '../bullmq/list-queue-names.js';
import type { QueueDirectory } from '../bullmq/queue-directory.js';
import { compareRefs, type QueueRef } from '../bullmq/queue-key.js';
import type { Logger } from '../logger.js';
import { LruCache } from '../stores/lru-cache.js';
import type { StoreHandle } from '../stores/store-handle.js';
import { volatileIndexStore, type QueueIndexStore } from './queue-index-store.js';
import { discoveryStatusOf, newEntry, rescanDue, type Entry } from './index-entry.js';
import { withoutRef, withRef } from './index-changes.js';
import { foldScan, loadEntry, saveEntry } from './index-sync.js';
import { CutShortWaits } from './cut-short-waits.js';

/** The service's reconcileDelayMs: a restart's first seconds of lists (a UI loading its first pages) on a quiet store. */
export const serviceReconcileDelayMs = 5000;

export interface QueueIndexOptions {
  /** Names younger than this are not rescanned; 0 rescans on every list (and waits for it). */
  ttlMs: number;
  store?: QueueIndexStore;
  logger?: Logger;
  limits?: ScanLimits;
  capacity?: number;
  /** After a restart, how long the reconciling scan waits (0: none): a scan of 20M keys keeps Redis busy flat out for a minute. */
  reconcileDelayMs?: number;
  now?: () => number;
  scan?: (store: StoreHandle, limits: ScanLimits, known: readonly QueueRef[]) => Promise<QueueScan>;
}

/**
 * The queue names of each connection: kept in the database (per connection
 * and prefix), served from memory, reconciled by background scans. Only the
 * very first list of a connection that was never scanned waits for a scan;
 * after a restart the first list answers from the database while a scan
 * reconciles. While it has found no queue, a list waits for a rescan (spaced
 * as background ones are, but not by the TTL). A scan cut short (SCAN cap, failure) never drops queues it did
 * not see, and the status says so.
 */
export class QueueIndex implements QueueDirectory {
  private readonly entries: LruCache<string, Entry>;
  private readonly indexStore: QueueIndexStore;
  private readonly now: () => number;
  private readonly scanStore: (
    store: StoreHandle,
    limits: ScanLimits,
    known: readonly QueueRef[],
  ) => Promise<QueueScan>;
  /** The delayed reconciling scans' waits (a rescan starts the pending one at once). */
  private readonly delays = new CutShortWaits<Entry>();

  constructor(private readonly options: QueueIndexOptions) {
    this.entries = new LruCache(options.capacity ?? 1000);
    this.indexStore = options.store ?? volatileIndexStore;
    this.now = options.now ?? Date.now;
    this.scanStore = options.scan ?? ((store, limits, known) => store.scanQueueNames(limits, known));
  }

  async list(store: StoreHandle): Promise<QueueRef[]> {
    const entry = this.entryFor(store);
    const scansBefore = entry.scansStarted;
    await this.ready(store, entry);
    // TTL 0: every list sees a scan that started after it was asked (the first one counts).
    if (this.options.ttlMs === 0) {
      if (entry.scansStarted === scansBefore) await this.scan(store, entry);
    } else if (entry.refs.length === 0) {
      // No queue found yet: the connection is still being discovered, and "no queues" is the answer most
      // likely wrong (jobs may have just appeared). Wait for a rescan (one that started for this list counts),
      // due by its spacing alone, not the TTL.
      if (entry.scanning || (entry.scansStarted === scansBefore && rescanDue(entry, this.now(), 0)))
        await this.scan(store, entry);
    } else if (!entry.scanning && rescanDue(entry, this.now(), this.options.ttlMs)) this.scanInBackground(store, entry);
    return entry.refs;
  }

  /** Reads the persisted index of a connection now, without scanning: its first list then does not wait for the database. */
  async preload(store: StoreHandle): Promise<void> {
    await this.entryFor(store).loaded;
  }

  /** Starts a scan now (or joins the running one); resolves when it is over. */
  async rescan(store: StoreHandle): Promise<void> {
    const entry = this.entryFor(store);
    await entry.loaded;
    await this.scan(store, entry);
  }

  async status(store: StoreHandle): Promise<DiscoveryStatus> {
    const entry = this.entryFor(store);
    await entry.loaded;
    return discoveryStatusOf(entry);
  }

  forget(connectionId: string): void {
    this.entries.delete(connectionId);
  }

  remember(connectionId: string, ref: QueueRef): void {
    const entry = this.entries.get(connectionId);
    if (!entry || entry.refs.some((known) => compareRefs(known, ref) === 0)) return;
    entry.refs = withRef(entry.refs, ref);
    if (entry.scanning) entry.createdDuringScan.push(ref);
    saveEntry(this.indexStore, connectionId, entry, { added: [ref], removed: [], scans: [] }, this.options.logger);
  }

  removed(connectionId: string, ref: QueueRef): void {
    const entry = this.entries.get(connectionId);
    if (!entry) return;
    entry.refs = withoutRef(entry.refs, ref);
    if (entry.scanning) entry.removedDuringScan.push(ref);
    saveEntry(this.indexStore, connectionId, entry, { added: [], removed: [ref], scans: [] }, this.options.logger);
  }

  private entryFor(store: StoreHandle): Entry {
    const id = store.connection.id;
    const version = store.connection.updatedAt.getTime();
    const existing = this.entries.get(id);
    if (existing && existing.version === version) return existing;
    const entry = newEntry(version, store.prefixes);
    entry.loaded = loadEntry(this.indexStore, id, entry, this.options.logger);
    this.entries.set(id, entry);
    return entry;
  }

  /**
   * The first list of an entry: serves what the database held and reconciles
   * in the background, or, never scanned, waits for the first scan.
   */
  private ready(store: StoreHandle, entry: Entry): Promise<void> {
    if (entry.ready) return entry.ready;
    entry.ready = entry.loaded.then(() =>
      entry.scans.size > 0
        ? this.scanInBackground(store, entry, this.options.reconcileDelayMs ?? 0)
        : this.scan(store, entry),
    );
    // A first scan that failed is not kept: the next request tries again.
    entry.ready.catch(
      () => this.entries.get(store.connection.id) === entry && this.entries.delete(store.connection.id),
    );
    return entry.ready;
  }

  private scanInBackground(store: StoreHandle, entry: Entry, delayMs = 0): void {
    this.scan(store, entry, delayMs).catch((error: Error) =>
      this.options.logger?.warn(
        { connectionId: store.connection.id, reason: error.message },
        'background queue scan failed',
      ),
    );
  }

  /**
   * Runs a scan (or joins the one running). A delayed one counts as running from now (the status says
   * scanning); a scan asked for without a delay (a rescan, a list with TTL 0) starts it at once.
   */
  private scan(store: StoreHandle, entry: Entry, delayMs = 0): Promise<void> {
    if (entry.scanning) {
      if (delayMs === 0) this.delays.cutShort(entry);
      return entry.scanning;
    }
    const run = () => this.runScan(store, entry);
    const started = delayMs > 0 ? this.delays.wait(entry, delayMs).then(run) : run();
    entry.scanning = started.finally(() => (entry.scanning = null));
    return entry.scanning;
  }

  private async runScan(store: StoreHandle, entry: Entry): Promise<void> {
    const startedAt = this.now();
    entry.scansStarted += 1;
    entry.createdDuringScan = [];
    entry.removedDuringScan = [];
    let result: QueueScan;
    try {
      result = await this.scanStore(store, this.options.limits ?? defaultScanLimits, entry.refs);
    } catch (error) {
      entry.lastError = (error as Error).message;
      throw error;
    }
    const change = foldScan(entry, result, startedAt, Math.round(this.now() - startedAt));
    saveEntry(this.indexStore, store.connection.id, entry, change, this.options.logger);
  }

  /** Waits for the database writes queued so far (tests, shutdown). */
  async flush(): Promise<void> {
    await Promise.all(this.entries.values().map((entry) => entry.saving));
  }
}
