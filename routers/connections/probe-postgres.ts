import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../contracts/app-error.js';
import type { StoreEndpoint } from '../../server/stores/redis-client.js';
import { seedTargets, type TargetPolicy } from '../../server/stores/target-policy.js';
import { createPostgresPool } from '../../server/postgres/postgres-pool.js';
import { checkSchema } from '../../server/postgres/schema-check.js';

export interface PostgresProbe {
  ok: boolean;
  latencyMs: number | null;
  redisVersion: null;
  mode: 'standalone';
  postgresVersion?: string;
  schemaVersion?: number;
  error?: string;
}

/** As probe-store.ts: a failure answers no sooner than this, whatever failed (no port scanner). */
const failureMinimumMs = 2500;

function failureMessage(target: Pick<StoreEndpoint, 'url'>, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/password authentication failed|no pg_hba.conf entry/i.test(message)) return 'authentication was refused';
  if (/database .* does not exist/i.test(message)) return 'the database does not exist';
  const [seed] = seedTargets(target.url);
  return `no PostgreSQL server answered at ${seed!.host}:${seed!.port}`;
}

/**
 * Tests a PostgreSQL connection with a fresh one-session pool: round trip of
 * `SELECT 1`, the server's version and the BullMQ schema's (400
 * BULLMQ_SCHEMA_MISSING / BULLMQ_SCHEMA_UNSUPPORTED when this service cannot
 * use it). Unreachable or refused: ok false. Never migrates anything.
 */
export async function probePostgres(
  target: Pick<StoreEndpoint, 'url' | 'tls'>,
  schema: string,
  policy?: TargetPolicy,
): Promise<PostgresProbe> {
  const started = performance.now();
  const pool = await createPostgresPool(target, { schema, policy, max: 1, connectMs: 2000, statementMs: 1500 });
  try {
    const client = await pool.connect();
    try {
      const before = performance.now();
      await client.query('SELECT 1');
      const latencyMs = Math.round((performance.now() - before) * 100) / 100;
      const report = await checkSchema(client, schema);
      return { ok: true, latencyMs, redisVersion: null, mode: 'standalone', ...report };
    } finally {
      client.release();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    await sleep(Math.max(0, failureMinimumMs - (performance.now() - started)));
    return { ok: false, latencyMs: null, redisVersion: null, mode: 'standalone', error: failureMessage(target, error) };
  } finally {
    await pool.end().catch(() => undefined);
  }
}
