import { randomUUID } from 'node:crypto';
import { DeliveryDispatcher } from '../alerts/delivery-dispatcher.js';
import { evaluateRules } from '../alerts/evaluate-rules.js';
import type { QueueDirectory } from '../bullmq/queue-directory.js';
import type { Logger } from '../logger.js';
import type { Persistence } from '../persistence/persistence.js';
import type { UrlCipher } from '../secrets/url-cipher.js';
import type { TargetPolicy } from '../stores/target-policy.js';
import type { ConnectionCatalog } from '../stores/connection-catalog.js';
import type { StoreRegistry } from '../stores/store-registry.js';
import { collectSample } from './collect-sample.js';
import { LeaseKeeper } from './lease-keeper.js';
import { removeExpiredSamples } from './retention.js';
import { storedSampleAt, writeSample } from './write-sample.js';

export interface HistorySamplerDeps {
  persistence: Persistence;
  stores: StoreRegistry;
  connections: ConnectionCatalog;
  queueDirectory: QueueDirectory;
  logger: Logger;
  /** Opens alert destinations' sealed URLs and secrets. */
  secretCipher: UrlCipher;
  /** Where alert webhooks may go (checked before every delivery). */
  webhookPolicy: TargetPolicy;
}

export interface HistorySamplerOptions {
  intervalMs: number;
  retentionDays: number;
  /** How long a replica's hold on the sampler lasts without renewal (another replica then takes over). */
  leaseTtlMs?: number;
}

/**
 * The history lease's lifetime: renewed every third of it, so after a crash another replica holds it
 * at most 10 + 3.3 s later (issue 34: within 15 s).
 */
export const historyLeaseTtlMs = 10_000;

const retentionEveryMs = 10 * 60_000;
/**
 * A job's finish time is stamped by its worker a moment before the job lands in its status set: a
 * round waits this long after its instant, so every job stamped before it has landed when counted.
 */
const landingMs = 250;
/** After a long stop, the first sample counts the jobs finished in at most this long before it. */
const longestGapMs = 24 * 60 * 60_000;

/**
 * Records the history: every interval, each connection in use (the environment's, and every saved
 * one a request has opened) is read and written as one sample, and its alert rules are evaluated;
 * the deliveries they queue go out on the dispatcher's own clock, never delaying a sample. Runs in
 * one replica at a time, the holder of the `history-sampler` lease, so no two replicas sample,
 * fire or deliver the same thing. A sample counts the jobs finished since the connection's previous
 * sample as stored, so a restart or a lease handover leaves no gap in the failure counts.
 */
export class HistorySampler {
  private readonly holder = randomUUID();
  private readonly lease: LeaseKeeper;
  private readonly deliveries: DeliveryDispatcher;
  private readonly lastSampleAt = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastRetentionAt = 0;

  constructor(
    private readonly deps: HistorySamplerDeps,
    private readonly options: HistorySamplerOptions,
  ) {
    this.lease = new LeaseKeeper(
      deps.persistence,
      'history-sampler',
      this.holder,
      options.leaseTtlMs ?? historyLeaseTtlMs,
      deps.logger,
    );
    this.deliveries = new DeliveryDispatcher({ ...deps, holds: () => this.lease.holds() });
  }

  start(): void {
    this.lease.start();
    this.deliveries.start();
    this.timer = setInterval(
      () => void this.sampleRound().then((sampled) => sampled && void this.deliveries.nudge()),
      this.options.intervalMs,
    );
    this.timer.unref();
  }

  /** One round and the deliveries it queued (tests, and callers that want both settled). */
  async sampleOnce(): Promise<void> {
    await this.sampleRound();
    await this.deliveries.nudge();
  }

  /** One round, if this replica holds the lease; overlapping rounds are skipped, never queued. True when it sampled. */
  private async sampleRound(): Promise<boolean> {
    if (this.running || !(await this.lease.holds())) return false;
    this.running = this.sampleConnections().finally(() => (this.running = undefined));
    await this.running;
    return true;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([this.running, this.deliveries.stop()]);
    await this.lease.stop();
  }

  private async sampleConnections(): Promise<void> {
    const { stores, connections, queueDirectory, persistence, logger } = this.deps;
    // Environment connections belong to the instance organization (unknown while the database is down).
    const envConnections =
      connections.source === 'env'
        ? await Promise.resolve()
            .then(() => connections.list(persistence.localOrganizationId()))
            .catch(() => [])
        : [];
    for (const connection of envConnections) stores.handle(connection);
    const at = Date.now();
    await new Promise((resolve) => setTimeout(resolve, landingMs));
    for (const store of stores.openHandles()) {
      const since = await this.previousSampleAt(store.connection.id, at);
      const sample = await collectSample(store, queueDirectory, since, at);
      try {
        await writeSample(persistence.fork(), store.connection.id, sample);
        this.lastSampleAt.set(store.connection.id, at);
        const connection = { id: store.connection.id, name: store.connection.name };
        await evaluateRules(persistence.fork(), { connection, now: at, sampleIntervalMs: this.options.intervalMs });
      } catch (error) {
        logger.warn(
          { err: error, connectionId: store.connection.id },
          'history sample not written or alert rules not evaluated',
        );
      }
    }
    await this.removeExpired();
  }

  /**
   * Where the connection's finished counts start: its newest stored sample, whichever replica wrote it
   * (after a restart, a handover, or a lease lost and taken back, this replica's memory may be stale),
   * this replica's own when the database does not answer.
   */
  private async previousSampleAt(connectionId: string, at: number): Promise<number> {
    const stored = await storedSampleAt(this.deps.persistence.fork(), connectionId).catch(() => null);
    const previous = stored ?? this.lastSampleAt.get(connectionId) ?? null;
    return previous === null || previous >= at ? at - this.options.intervalMs : Math.max(previous, at - longestGapMs);
  }

  private async removeExpired(): Promise<void> {
    if (Date.now() - this.lastRetentionAt < retentionEveryMs) return;
    this.lastRetentionAt = Date.now();
    try {
      await removeExpiredSamples(this.deps.persistence.fork(), this.options.retentionDays);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'history retention failed; retried next round');
    }
  }
}
