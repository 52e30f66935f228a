import { AppError } from '../../contracts/app-error.js';
import type { StoreConnection } from './store-connection.js';

/**
 * Whether an error means the store could not be reached or would not let us
 * in (down, stalled, refusing auth): those are 503s, not bugs. ioredis does
 * not give these a common class, so recognise them by name and message.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (['MaxRetriesPerRequestError', 'ClusterAllFailedError'].includes(error.name)) return true;
  const code = (error as NodeJS.ErrnoException).code;
  if (code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'].includes(code)) return true;
  if (isTlsFailure(error)) return true;
  return /Connection is closed|Command timed out|connect ETIMEDOUT|Stream isn't writeable|enableOfflineQueue|NOAUTH|WRONGPASS|invalid password|Failed to refresh slots cache|None of startup nodes is available|LOADING/i.test(
    error.message,
  );
}

/** A reason safe to show: the error kind without hosts, passwords or server banners. */
export function describeStoreFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/NOAUTH|WRONGPASS|invalid password/i.test(message)) return 'authentication was refused';
  if (/timed out|ETIMEDOUT/i.test(message)) return 'the store did not answer in time';
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|None of startup nodes/i.test(message)) return 'the store could not be reached';
  if (/LOADING/.test(message)) return 'the store is loading its dataset';
  if (error instanceof Error && isTlsFailure(error)) return 'the TLS handshake failed (untrusted certificate, or no TLS on that port)';
  return 'the connection to the store failed';
}

/** The 503 a request gets when its connection's store fails: names the connection, never its URL. */
export function storeUnavailable(connection: StoreConnection, cause: unknown): AppError {
  return new AppError(
    'STORE_UNAVAILABLE',
    `The store of connection "${connection.name}" is unavailable: ${describeStoreFailure(cause)}`,
    { connectionId: connection.id },
    { cause },
  );
}

/** The error a request answers with when `error` arose on this connection's store: 503 when the store failed. */
export function asStoreError(connection: StoreConnection, error: unknown): unknown {
  return isStoreUnavailable(error) ? storeUnavailable(connection, error) : error;
}

/** Certificate rejected, or TLS spoken to a plain port (or the reverse). */
function isTlsFailure(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return /CERT|SSL|EPROTO/.test(code) || /certificate|self[- ]signed|wrong version number|tls/i.test(error.message);
}
