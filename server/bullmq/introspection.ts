import { isStoreUnavailable } from '../stores/store-errors.js';

/**
 * Runs one introspection call. A store that is down still fails the request
 * (503); a call the provider does not allow (renamed or disabled commands,
 * missing modules) becomes a warning and a null field, never a 500.
 */
export async function introspect<T>(warnings: string[], what: string, call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (error) {
    if (isStoreUnavailable(error)) throw error;
    warnings.push(`${what} is unavailable on this store: ${shortReason(error)}`);
    return null;
  }
}

function shortReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 200);
}
