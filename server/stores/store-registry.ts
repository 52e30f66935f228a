import type { Logger } from '../logger.js';
import { createStoreClient, defaultStoreTimeouts, type StoreTimeouts } from './redis-client.js';
import type { StoreConnection } from './store-connection.js';
import { RedisStore, type StoreHandle } from './store-handle.js';
import type { TargetPolicy } from './target-policy.js';
import { storeKindOf } from '../../contracts/store-url.js';
import { PostgresStore } from '../postgres/postgres-store.js';

export interface StoreRegistryOptions {
  logger: Logger;
  timeouts?: StoreTimeouts;
  /** Queue handles kept per connection. */
  queueCacheSize?: number;
  /** With SERVICE_CONNECTION_ALLOW, every connection a client opens is checked (see guarded-connector.ts). */
  policy?: TargetPolicy;
  /** SERVICE_QUEUE_TOTALS_TRACKING: the list's totals kept by client-side tracking (server/bullmq/count-tracker.ts). */
  trackCounts?: boolean;
  /** PostgreSQL connections: how long a count past 1,000 jobs is served (SERVICE_QUEUE_LIST_CACHE_MS). */
  countWindowMs?: number;
}

/**
 * One long-lived client per connection, shared by every request, created on
 * first use. A connection whose record changed (updatedAt) gets a fresh
 * client; `release` closes one when its connection is deleted.
 */
export class StoreRegistry {
  private readonly handles = new Map<string, StoreHandle>();

  constructor(private readonly options: StoreRegistryOptions) {}

  handle(connection: StoreConnection): StoreHandle {
    const existing = this.handles.get(connection.id);
    if (existing && existing.connection.updatedAt.getTime() === connection.updatedAt.getTime()) return existing;
    if (existing) void existing.close();
    const handle =
      storeKindOf(connection.url) === 'postgres' ? this.postgresStore(connection) : this.redisStore(connection);
    this.handles.set(connection.id, handle);
    return handle;
  }

  private postgresStore(connection: StoreConnection): StoreHandle {
    const timeouts = this.options.timeouts ?? defaultStoreTimeouts;
    return new PostgresStore(connection, {
      policy: this.options.policy,
      queueCacheSize: this.options.queueCacheSize ?? 256,
      countWindowMs: this.options.countWindowMs,
      timeouts,
    });
  }

  private redisStore(connection: StoreConnection): StoreHandle {
    const client = createStoreClient(connection, this.options.timeouts ?? defaultStoreTimeouts, {
      policy: this.options.policy,
    });
    // ioredis emits 'error' on every failed reconnect; requests see the failures themselves.
    client.on('error', (error: Error) =>
      this.options.logger.debug({ connectionId: connection.id, reason: error.name }, 'store client error'),
    );
    return new RedisStore(connection, client, this.options.queueCacheSize ?? 256, {
      enabled: this.options.trackCounts ?? false,
      logger: this.options.logger.child({ connectionId: connection.id }),
    });
  }

  /** The stores opened so far: the connections in use. */
  openHandles(): StoreHandle[] {
    return [...this.handles.values()];
  }

  async release(connectionId: string): Promise<void> {
    const handle = this.handles.get(connectionId);
    this.handles.delete(connectionId);
    await handle?.close();
  }

  async closeAll(): Promise<void> {
    const handles = [...this.handles.values()];
    this.handles.clear();
    await Promise.allSettled(handles.map((handle) => handle.close()));
  }
}
