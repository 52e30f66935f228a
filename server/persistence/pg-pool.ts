import type { DatabaseError, Pool, PoolClient } from 'pg';
import type { DatabaseLimits } from '../config.js';
import { DatabaseSaturatedError } from './database-limits.js';
import { isConnectionTerminated } from './database-unavailable.js';

/**
 * Every change Bullpen makes to pg's pool, in this one module (orm.ts applies them to the pool MikroORM
 * opens for requests): each covers a gap of pg-pool or of the stack above it (kysely, MikroORM) that a
 * reliability test reproduces, and each says which. Re-check them on an upgrade of pg, kysely or MikroORM:
 * - dropTerminatedConnections: a connection the server terminated is never handed out again
 *   (test/reliability/terminated-connections.test.ts, database-terminations.test.ts);
 * - endOnReadTimeout: a statement unanswered past the read timeout ends its connection
 *   (test/reliability/silent-database.test.ts);
 * - shedLoad: beyond `maxWaiting` (DATABASE_MAX_WAITING) waiters a request fails at once with a 503
 *   instead of holding memory and a socket for the whole stall.
 */
export function patchPool(pool: Pool, limits: DatabaseLimits): void {
  dropTerminatedConnections(pool, limits.poolSize);
  pool.on('connect', endOnReadTimeout);
  shedLoad(pool as unknown as WaitablePool, limits.maxWaiting);
}

/**
 * Keeps connections the server has terminated (`pg_terminate_backend`, a
 * restart, a failover) from being handed out again, so that the retry of a
 * read (retry-terminated-read.ts) runs on a live connection.
 *
 * Two gaps in pg-pool let a dead client out, both seen under
 * `pg_terminate_backend` with every pooled connection busy:
 * - The statement in flight fails with 57P01 at once, but the client marks
 *   itself broken only when the socket's end is processed, up to ~150 ms
 *   later on a busy machine; kysely releases it meanwhile without an error,
 *   and the pool gives it to the next waiter — often a retry.
 * - An idle client killed in the same sweep is dropped only once its own
 *   message is read; a retry that asks first gets it.
 *
 * So a client that reports a FATAL error is never reused, and a termination
 * of one connection marks every connection opened before it as suspect: the
 * server usually ended them all. Suspect clients are closed on release and
 * skipped on acquire, so a request that asks after a termination is seen gets
 * a connection opened after it.
 *
 * A client whose connection ends while it is checked out is released at
 * once, closed: kysely's controlled transactions (MikroORM's flush) release
 * their connection only after a BEGIN, COMMIT or ROLLBACK that succeeded, so
 * a write whose connection was terminated kept its pool slot forever, and a
 * few such writes left no connection for any request (all 503 until restart).
 */
export function dropTerminatedConnections(pool: Pool, poolSize: number): void {
  // Bumped when a connection of the current generation is terminated: every older one is suspect.
  let generation = 0;
  const openedIn = new WeakMap<PoolClient, number>();
  const dead = new WeakSet<PoolClient>();
  const isSuspect = (client: PoolClient) => dead.has(client) || (openedIn.get(client) ?? generation) < generation;

  const sawDeath = (client: PoolClient, error: unknown) => {
    if (dead.has(client)) return;
    dead.add(client);
    // The deaths of older clients are the known termination's own echoes: no new generation for them.
    if (openedIn.get(client) === generation && isConnectionTerminated(error)) generation++;
  };

  // The release of each checked-out client's current checkout, idempotent (see holdUntilReleased).
  const held = new WeakMap<PoolClient, (error?: Error | boolean) => void>();

  pool.on('connect', (client) => {
    openedIn.set(client, generation);
    client.on('error', (error) => sawDeath(client, error));
    // Its in-flight statement has already failed; nobody may ever release it (see above).
    client.on('end', () => held.get(client)?.(endedError()));
    // A FATAL error ends the session; pg reports it to the statement in flight before the socket closes.
    client.connection?.on('errorMessage', (message: DatabaseError) => {
      if (message.severity === 'FATAL' || message.severity === 'PANIC') sawDeath(client, message);
    });
  });

  const connect = pool.connect.bind(pool) as () => Promise<PoolClient>;
  const acquire = async (): Promise<PoolClient> => {
    // Each pass drops one suspect idle client: at most the pool's size of them exist.
    for (let dropped = 0; ; dropped++) {
      const client = await connect();
      if (!isSuspect(client) || dropped >= poolSize) return holdUntilReleased(client, isSuspect, held);
      client.release(suspectError());
    }
  };
  pool.connect = ((
    callback?: (error: Error | undefined, client?: PoolClient, release?: (error?: Error | boolean) => void) => void,
  ) => {
    if (typeof callback !== 'function') return acquire();
    // pg-pool's own pool.query() uses the callback form.
    acquire().then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error, undefined, () => {}),
    );
  }) as Pool['connect'];
}

/**
 * The client goes back to the pool only if it is still trusted when released.
 * Its release is made idempotent: the one on connection end and the holder's
 * own (kysely's, after the failed statement) may both come, in either order,
 * and pg-pool throws on a second release.
 */
function holdUntilReleased(
  client: PoolClient,
  isSuspect: (client: PoolClient) => boolean,
  held: WeakMap<PoolClient, (error?: Error | boolean) => void>,
): PoolClient {
  const release = client.release.bind(client);
  let released = false;
  client.release = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    held.delete(client);
    release(error || (isSuspect(client) ? suspectError() : undefined));
  };
  held.set(client, client.release);
  return client;
}

const suspectError = () => new Error('connection opened before a termination by the server: closed, not reused');
const endedError = () =>
  new Error('connection ended while checked out: released closed, its holder may never release it');

const isReadTimeout = (error: unknown) => error instanceof Error && error.message === 'Query read timeout';

/**
 * A statement that got no answer within `query_timeout` (a network gone silent, not a slow query: the
 * server's own statement_timeout fires first) leaves its connection in an unknown state. pg keeps the
 * statement in flight and queues what follows behind it, so a transaction's ROLLBACK times out in the
 * queue in turn and is dropped: kysely never releases the connection (it releases after a ROLLBACK that
 * succeeded), and on the server the transaction stays open, holding its locks, until the network comes
 * back. The connection is ended instead: the server rolls the transaction back when the socket closes,
 * and the pool gets the slot back (dropTerminatedConnections releases a client whose connection ends).
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

interface WaitablePool {
  waitingCount: number;
  connect(...args: unknown[]): unknown;
}

/**
 * Bounds the queue in front of the pool: beyond `maxWaiting` waiters a request
 * fails at once instead of holding memory and a socket for the whole stall.
 */
export function shedLoad(pool: WaitablePool, maxWaiting: number): void {
  const connect = pool.connect.bind(pool);
  pool.connect = (...args: unknown[]) => {
    if (pool.waitingCount >= maxWaiting) {
      const error = new DatabaseSaturatedError(
        `more than ${maxWaiting} requests are waiting for a database connection`,
      );
      const callback = args[0];
      if (typeof callback === 'function') return void process.nextTick(() => callback(error));
      return Promise.reject(error);
    }
    return connect(...args);
  };
}
