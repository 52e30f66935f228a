import { loadBullmq } from '../../server/bullmq/bullmq-module.js';
import type { StoreEndpoint } from '../../server/stores/redis-client.js';
import type { TargetPolicy } from '../../server/stores/target-policy.js';
import { createPostgresPool } from '../../server/postgres/postgres-pool.js';

/**
 * Brings a schema up to this BullMQ's version with BullMQ's own migrations
 * (one transaction under BullMQ's advisory lock, on one dedicated session):
 * only when a connection is saved with `migrate: true`. Answers the
 * version the schema is at afterwards.
 */
export async function migrateSchema(
  target: Pick<StoreEndpoint, 'url' | 'tls'>,
  schema: string,
  policy?: TargetPolicy,
): Promise<number> {
  const { runMigrations } = await loadBullmq();
  // Migrations run DDL: no statement timeout.
  const pool = await createPostgresPool(target, { schema, policy, max: 1, connectMs: 5000, statementMs: 0 });
  try {
    const client = await pool.connect();
    try {
      return await runMigrations(client, schema);
    } finally {
      client.release();
    }
  } finally {
    await pool.end().catch(() => undefined);
  }
}
