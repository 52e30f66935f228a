import { ConnectionException, LockWaitTimeoutException } from '@mikro-orm/core';
import { DatabaseSaturatedError, saturatedCode } from './database-limits.js';

/**
 * SQLSTATEs that mean "the database cannot serve this now": admin shutdown,
 * crash shutdown, cannot connect now (57P01-57P03), any connection exception
 * (08xxx), too many connections (53300), and our own bounds firing: statement
 * timeout / cancel (57014) and lock timeout (55P03).
 */
const unavailableSqlState = /^(57P0[123]|08\w{3}|53300|57014|55P03)$/;

/** What pg, pg-pool and better-sqlite3 say when the connection or the lock is gone. */
const unavailableMessage =
  /Connection terminated|connection error and is not queryable|Client has encountered a connection error|ECONNRESET|ECONNREFUSED|timeout exceeded when trying to connect|Query read timeout|terminating connection|database is locked|SQLITE_BUSY/i;

const networkErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'SQLITE_BUSY',
  saturatedCode,
]);

/** SQLSTATEs of a connection that was terminated under a query: a read may be retried once. */
const terminatedSqlState = /^(57P01|57P02|08006|08003)$/;
const terminatedMessage =
  /Connection terminated unexpectedly|terminating connection|connection error and is not queryable|Client has encountered a connection error|ECONNRESET/i;

function* causes(error: unknown): Generator<unknown> {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++)
    yield current;
}

function codeOf(error: unknown): string {
  const { code, sqlState } = error as { code?: unknown; sqlState?: unknown };
  return String(sqlState ?? code ?? '');
}

function isUnavailable(error: unknown): boolean {
  if (
    error instanceof ConnectionException ||
    error instanceof LockWaitTimeoutException ||
    error instanceof DatabaseSaturatedError
  )
    return true;
  const code = codeOf(error);
  if (unavailableSqlState.test(code) || networkErrorCodes.has(code)) return true;
  return error instanceof Error && unavailableMessage.test(error.message);
}

/**
 * Whether a thrown error (or its cause) means the database could not serve the
 * request: 503 DATABASE_UNAVAILABLE, never 500. Store errors never get here:
 * connection routes turn them into STORE_UNAVAILABLE first.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (const current of causes(error)) if (isUnavailable(current)) return true;
  return false;
}

/** Whether the error is a connection terminated under a statement (worth one retry of a read). */
export function isConnectionTerminated(error: unknown): boolean {
  for (const current of causes(error)) {
    if (terminatedSqlState.test(codeOf(current))) return true;
    if (current instanceof Error && terminatedMessage.test(current.message)) return true;
  }
  return false;
}
