import type { Logger } from '../logger.js';
import { AuditEvent } from '../persistence/entities/audit-event.js';
import type { Persistence } from '../persistence/persistence.js';

const dayMs = 24 * 60 * 60 * 1000;
const pruneEveryMs = 60 * 60 * 1000;

/**
 * Deletes audit events older than `days` (SERVICE_AUDIT_DAYS); 0 keeps them
 * all. A maintenance job: on PostgreSQL it lifts the request time limits for
 * its own transaction, since a large first prune may rightly take a while.
 */
export async function pruneAuditEvents(persistence: Persistence, days: number, now = new Date()): Promise<number> {
  if (days === 0) return 0;
  const cutoff = new Date(now.getTime() - days * dayMs);
  return persistence.fork().transactional(async (tx) => {
    if (persistence.mode === 'server') {
      // Session settings are not a query MikroORM builds: the one raw statement left outside repositories.
      for (const limit of ['statement_timeout', 'lock_timeout']) await tx.execute(`set local ${limit} = 0`);
    }
    return tx.nativeDelete(AuditEvent, { at: { $lt: cutoff } });
  });
}

/** Prunes shortly after startup and then hourly; returns the stop function. */
export function scheduleAuditRetention(deps: { persistence: Persistence; logger: Logger }, days: number): () => void {
  if (days === 0) return () => {};
  const prune = () =>
    pruneAuditEvents(deps.persistence, days)
      .then((deleted) => deleted > 0 && deps.logger.info({ deleted, days }, 'audit events past retention deleted'))
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'audit retention could not run; will retry'));
  const first = setTimeout(prune, 30_000).unref();
  const every = setInterval(prune, pruneEveryMs).unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
