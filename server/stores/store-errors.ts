import { AppError } from '../../contracts/app-error.js';
import type { StoreConnection } from './store-connection.js';

/**
 * Whether an error means the store could not be reached, would not let us in
 * (down, stalled, refusing auth) or would not take a write (out of memory under
 * `noeviction`, a read-only replica, loading its dataset): those are 503s, not
 * bugs. ioredis does not give these a common class, so recognise them by name
 * and message. A fault that cut a multi-step action short counts as its cause.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (error instanceof StoreFaultMidway) return isStoreUnavailable(error.fault);
  if (!(error instanceof Error)) return false;
  if (isStoreOutOfMemory(error) || /^READONLY /.test(error.message)) return true;
  if (speaksNoRedis(error)) return true;
  if (['MaxRetriesPerRequestError', 'ClusterAllFailedError'].includes(error.name)) return true;
  const code = (error as NodeJS.ErrnoException).code;
  if (code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'].includes(code))
    return true;
  if (isTlsFailure(error)) return true;
  if (isPostgresUnavailable(error)) return true;
  return /Connection is closed|Command timed out|connect ETIMEDOUT|Stream isn't writeable|enableOfflineQueue|NOAUTH|WRONGPASS|invalid password|Failed to refresh slots cache|None of startup nodes is available|LOADING/i.test(
    error.message,
  );
}

/** Redis at `maxmemory` with `noeviction` refuses every write with this reply (scripts included, before their first write). */
export function isStoreOutOfMemory(error: unknown): boolean {
  if (error instanceof StoreFaultMidway) return isStoreOutOfMemory(error.fault);
  return error instanceof Error && /^OOM command not allowed/.test(error.message);
}

/** What a store that never answered as Redis reads as, whatever was behind the address. */
export const noRedisAnswered = 'no Redis server answered';

/**
 * A reason safe to show: the error kind without hosts, passwords or server
 * banners. A Redis that answered says how (refused the password, loading);
 * anything else (a closed port, a silent one, TLS on one side only, another
 * protocol) is one answer, so a saved connection is no port scanner. The
 * service log keeps the cause.
 */
export function describeStoreFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/NOAUTH|WRONGPASS|invalid password|password authentication failed/i.test(message))
    return 'authentication was refused';
  if (/LOADING/.test(message)) return 'the store is loading its dataset';
  if (/^OOM command not allowed/.test(message))
    return 'it is out of memory (maxmemory reached, no eviction) and refuses writes';
  if (/^READONLY /.test(message)) return 'it is a read-only replica and refuses writes';
  return noRedisAnswered;
}

/**
 * The 503 a request gets when its connection's store fails: names the connection, never its URL.
 * `STORE_OUT_OF_MEMORY` when it refused a write for memory, else `STORE_UNAVAILABLE`; an action cut
 * short by the fault adds the counts it reached (StoreFaultMidway).
 */
export function storeUnavailable(connection: StoreConnection, cause: unknown): AppError {
  const fault = cause instanceof StoreFaultMidway ? cause.fault : cause;
  const reached = cause instanceof StoreFaultMidway ? { ...cause.reached, done: false } : {};
  const cutShort =
    cause instanceof StoreFaultMidway
      ? '; what was done before it stays done (counts in this body): call again once the store is back'
      : '';
  return new AppError(
    isStoreOutOfMemory(fault) ? 'STORE_OUT_OF_MEMORY' : 'STORE_UNAVAILABLE',
    `The store of connection "${connection.name}" is unavailable: ${describeStoreFailure(fault)}${cutShort}`,
    { connectionId: connection.id, ...reached },
    { cause: fault },
  );
}

/**
 * A store fault that cut a multi-step action (a bulk action, a purge, a move) after some of its
 * steps: carries the counts it reached, which the 503's body reports beside the code.
 */
export class StoreFaultMidway extends Error {
  override name = 'StoreFaultMidway';
  constructor(
    readonly fault: unknown,
    readonly reached: Record<string, unknown>,
  ) {
    super(fault instanceof Error ? fault.message : String(fault), { cause: fault });
  }
}

/** Runs a multi-step action; a store fault on the way is rethrown with the counts `reached()` gives then. */
export async function countingMidway<T>(reached: () => Record<string, unknown>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw isStoreUnavailable(error) && !(error instanceof StoreFaultMidway)
      ? new StoreFaultMidway(error, reached())
      : error;
  }
}

/** The error a request answers with when `error` arose on this connection's store: 503 when the store failed. */
export function asStoreError(connection: StoreConnection, error: unknown): unknown {
  return isStoreUnavailable(error) ? storeUnavailable(connection, error) : error;
}

/** The peer answered, but not in Redis's protocol (an HTTP server, say): ioredis's decoder gives up on its first byte. */
function speaksNoRedis(error: Error): boolean {
  return /^Unknown RESP type /.test(error.message);
}

/** Certificate rejected, or TLS spoken to a plain port (or the reverse). */
function isTlsFailure(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return /CERT|SSL|EPROTO/.test(code) || /certificate|self[- ]signed|wrong version number|tls/i.test(error.message);
}

/**
 * A PostgreSQL connection's database down, stalled or refusing us (pg's
 * errors): connection classes 08, 28 (auth), 57 (shutdown, statement timeout).
 */
function isPostgresUnavailable(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^(08|28|57)[0-9A-Z]{3}$/.test(code)) return true;
  return /timeout exceeded when trying to connect|Connection terminated|password authentication failed/i.test(
    error.message,
  );
}
