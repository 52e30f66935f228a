import type { PoolClient } from 'pg';

const isReadTimeout = (error: unknown) => error instanceof Error && error.message === 'Query read timeout';

/**
 * A statement that got no answer within `query_timeout` (a network gone silent, not a slow query: the
 * server's own statement_timeout fires first) leaves its connection in an unknown state. pg keeps the
 * statement in flight and queues what follows behind it, so a transaction's ROLLBACK times out in the
 * queue in turn and is dropped: kysely never releases the connection (it releases after a ROLLBACK that
 * succeeded), and on the server the transaction stays open, holding its locks, until the network comes
 * back. The connection is ended instead: the server rolls the transaction back when the socket closes,
 * and the pool gets the slot back (drop-terminated-connections.ts releases a client whose connection ends).
 */
export function endOnReadTimeout(client: PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const pending = query(...args);
    // The promise form (kysely's); the caller still gets the rejection from `pending` itself.
    if (pending instanceof Promise)
      pending.catch((error: unknown) => void (isReadTimeout(error) && client.connection?.stream?.destroy()));
    return pending;
  }) as PoolClient['query'];
}
