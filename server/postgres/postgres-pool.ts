import pg from 'pg';
import type { StoreEndpoint } from '../stores/redis-client.js';
import type { TargetPolicy } from '../stores/target-policy.js';
import { seedTargets } from '../stores/target-policy.js';

export interface PostgresPoolOptions {
  /** The BullMQ schema: every pooled session's search_path, so BullMQ's SQL and ours name tables unqualified. */
  schema: string;
  policy?: TargetPolicy | undefined;
  /** Sessions kept: requests share them (BullMQ's Queue handles included). */
  max?: number;
  connectMs?: number;
  /** A statement that takes longer fails (a stalled database must not hang requests). */
  statementMs?: number;
}

/**
 * A pg Pool on a PostgreSQL connection: TLS as the URL's sslmode and the
 * connection's allowSelfSigned say, search_path pinned to the BullMQ schema,
 * and with SERVICE_CONNECTION_ALLOW the host checked (and connected to at
 * the checked address) before anything is contacted.
 */
export async function createPostgresPool(
  endpoint: Pick<StoreEndpoint, 'url' | 'tls'>,
  options: PostgresPoolOptions,
): Promise<pg.Pool> {
  const url = new URL(endpoint.url.trim());
  // pg would read sslmode from the URL and override `ssl`: TLS is decided here, once.
  url.searchParams.delete('sslmode');
  const [target] = seedTargets(endpoint.url);
  const address = options.policy?.entries ? (await options.policy.resolve(target!.host, target!.port))[0] : undefined;
  const pool = new pg.Pool({
    connectionString: url.toString(),
    ...(address ? { host: address } : {}),
    ssl: endpoint.tls.enabled
      ? { rejectUnauthorized: !endpoint.tls.allowSelfSigned, ...(address ? { servername: target!.host } : {}) }
      : false,
    max: options.max ?? 4,
    connectionTimeoutMillis: options.connectMs ?? 1500,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementMs ?? 2000,
    options: `-c search_path=${quoteIdentifier(options.schema)}`,
    application_name: 'bullpen',
  });
  // An idle session that dies emits 'error' on the pool; the next query sees the failure itself.
  pool.on('error', () => undefined);
  return pool;
}

/** The schema name is checked by the contract (a simple identifier); quoting keeps its case. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
