import { isConnectionTerminated } from '../../persistence/database-unavailable.js';
import { middleware } from '../init.js';

/**
 * A read whose database connection was terminated under it (a restarted or
 * failed-over server, `pg_terminate_backend`) is run once more on a fresh
 * connection: reads change nothing, so the caller gets its answer instead of
 * a 503. Mutations are never repeated.
 */
export const retryTerminatedRead = middleware(async ({ type, next }) => {
  const started = Date.now();
  const result = await next();
  if (type !== 'query' || result.ok || !isConnectionTerminated(result.error.cause ?? result.error)) return result;
  // A termination surfaces at once; one found late (after waits) would push the answer past its time bound.
  if (Date.now() - started > retryWithinMs) return result;
  return next();
});

const retryWithinMs = 1000;
