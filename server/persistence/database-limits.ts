import { setTimeout as sleep } from 'node:timers/promises';
import type { DatabaseLimits } from '../config.js';

/**
 * How one budget (DATABASE_TIMEOUT_MS, default 4000) is split so that a
 * request needing the database answers within it even on a busy machine: a
 * quarter to get a pooled connection or open a new one (1000 ms), three
 * eighths for the statement (PostgreSQL `statement_timeout` and `lock_timeout`, 1500 ms),
 * a client-side read timeout a little later for a network gone silent, and
 * the rest left for the request's own work on a CPU shared with other load.
 */
export function splitBudget(limits: DatabaseLimits) {
  const acquireMs = Math.max(50, Math.round(limits.timeoutMs / 4));
  const statementMs = Math.max(50, Math.round((limits.timeoutMs * 3) / 8));
  return { acquireMs, statementMs, readMs: statementMs + Math.round(limits.timeoutMs / 8) };
}

/** Thrown at once when too many requests already wait for a database connection (load shedding). */
export class DatabaseSaturatedError extends Error {
  override name = 'DatabaseSaturatedError';
  /** Kept when MikroORM wraps the error in a DriverException (it copies own properties). */
  readonly code = saturatedCode;
}

export const saturatedCode = 'EDBSATURATED';

const retryPauseMs = 25;
/** Busy errors this close together mean the same lock is still held. */
const stillLockedWithinMs = 250;
const isBusy = (error: unknown) =>
  /SQLITE_BUSY|database is locked/i.test(
    `${(error as { code?: string }).code ?? ''} ${(error as Error).message ?? ''}`,
  );

interface QueryConnection {
  executeQuery(query: unknown): Promise<unknown>;
}

/**
 * SQLite is synchronous: a long busy_timeout would freeze the event loop for
 * every route while another process holds the lock. The busy timeout stays
 * short, and a statement that found the database locked is retried
 * asynchronously (other requests run meanwhile) until the budget is spent.
 */
export function retryWhileBusy(connection: QueryConnection, budgetMs: number): void {
  const execute = connection.executeQuery.bind(connection);
  // Statements queue behind one another on the single connection: while the lock keeps being met
  // they share one deadline, counted from the first meeting, so the tenth in line does not wait ten budgets.
  let lockedSince = 0;
  let lastBusyAt = 0;
  connection.executeQuery = async (query: unknown) => {
    for (;;) {
      try {
        return await execute(query);
      } catch (error) {
        if (!isBusy(error)) throw error;
        const now = Date.now();
        if (now - lastBusyAt > stillLockedWithinMs) lockedSince = now;
        lastBusyAt = now;
        if (now + retryPauseMs >= lockedSince + budgetMs) throw error;
        await sleep(retryPauseMs);
      }
    }
  };
}

/** better-sqlite3's own wait on a locked database: short, since it blocks the event loop. */
export const sqliteBusyTimeoutMs = 20;
