import { randomUUID } from 'node:crypto';
import { deliverDue } from '../alerts/deliveries.js';
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
import { writeSample } from './write-sample.js';

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

const retentionEveryMs = 10 * 60_000;

/**
 * Records the history: every interval, each connection in use (the environment's, and every saved
 * one a request has opened) is read and written as one sample, its alert rules are evaluated, and
 * due alert deliveries are sent. Runs in one replica at a time, the holder of the
 * `history-sampler` lease, so no two replicas sample, fire or deliver the same thing.
 */
export class HistorySampler {
  private readonly holder = randomUUID();
  private readonly lease: LeaseKeeper;
  private readonly lastSampleAt = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastRetentionAt = 0;

  constructor(private readonly deps: HistorySamplerDeps, private readonly options: HistorySamplerOptions) {
    this.lease = new LeaseKeeper(deps.persistence, 'history-sampler', this.holder, options.leaseTtlMs ?? 60_000, deps.logger);
  }

  start(): void {
    this.lease.start();
    this.timer = setInterval(() => void this.sampleOnce(), this.options.intervalMs);
    this.timer.unref();
  }

  /** One round, if this replica holds the lease; overlapping rounds are skipped, never queued. */
  async sampleOnce(): Promise<void> {
    if (this.running || !(await this.lease.holds())) return;
    this.running = this.sampleConnections().finally(() => (this.running = undefined));
    await this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.lease.stop();
  }

  private async sampleConnections(): Promise<void> {
    const { stores, connections, queueDirectory, persistence, logger } = this.deps;
    // Environment connections belong to the instance organization (unknown while the database is down).
    const envConnections = connections.source === 'env' ? await Promise.resolve().then(() => connections.list(persistence.localOrganizationId())).catch(() => []) : [];
    for (const connection of envConnections) stores.handle(connection);
    for (const store of stores.openHandles()) {
      const at = Date.now();
      const since = this.lastSampleAt.get(store.connection.id) ?? at - this.options.intervalMs;
      const sample = await collectSample(store, queueDirectory, since, at);
      try {
        await writeSample(persistence.fork(), store.connection.id, sample);
        this.lastSampleAt.set(store.connection.id, at);
        const connection = { id: store.connection.id, name: store.connection.name };
        await evaluateRules(persistence.fork(), { connection, now: at, sampleIntervalMs: this.options.intervalMs });
      } catch (error) {
        logger.warn({ err: error, connectionId: store.connection.id }, 'history sample not written or alert rules not evaluated');
      }
    }
    await deliverDue(persistence.fork(), this.deps.secretCipher, this.deps.webhookPolicy).catch((error) => logger.warn({ err: error }, 'alert deliveries not sent; retried next round'));
    await this.removeExpired();
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
