import type { Config, PersistenceMode } from '../config.js';
import type { Logger } from '../logger.js';
import { AppError } from '../../contracts/app-error.js';
import { probeWritableDirectory } from './embedded-directory.js';
import { ensureLocalOrganization } from './local-organization.js';
import { openOrm, type EntityManager, type Orm } from './orm.js';

export interface PersistenceHealth {
  ok: boolean;
  mode: PersistenceMode;
  error?: string;
}

/**
 * The database behind the service, as the rest of the code sees it: a fork
 * per request, a health probe, and a close. When the database cannot be used
 * the service still runs; `fork()` then throws the error requests should get.
 */
export interface Persistence {
  readonly mode: PersistenceMode;
  fork(): EntityManager;
  /** Id of the organization authless requests act in; throws like fork() when the database is unusable. */
  localOrganizationId(): string;
  health(): Promise<PersistenceHealth>;
  /** A request just failed because the database could not serve it: health says degraded for a while. */
  reportUnavailable(): void;
  /** A request the database served: clears an earlier reportUnavailable(). */
  reportAvailable(): void;
  close(): Promise<void>;
}

/** How long one request's DATABASE_UNAVAILABLE keeps health `degraded`. */
const degradedAfterFailureMs = 5000;

const serverRetryMs = 5000;

export async function openPersistence(config: Config, logger: Logger): Promise<Persistence> {
  const mode = config.persistence.mode;
  let orm: Orm | null = null;
  let localOrganizationId = '';
  let unavailable: AppError | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;
  let lastUnavailableAt = 0;

  const connect = async (): Promise<void> => {
    try {
      const opened = await openOrm(config.persistence, config.database, {
        log: (message) => logger.debug({ component: 'orm' }, message),
        onWait: () => logger.info({ persistence: mode }, 'another instance is migrating the database: waiting for it'),
        prepare: ensureLocalOrganization,
      });
      if (closed) return void (await opened.orm.close());
      localOrganizationId = opened.prepared.id;
      orm = opened.orm;
      unavailable = null;
      logger.info({ persistence: mode }, 'persistence ready');
    } catch (error) {
      unavailable = new AppError('DATABASE_UNAVAILABLE', 'The database is unavailable; try again shortly');
      logger.error({ err: error, persistence: mode }, 'database unavailable, retrying');
      if (!closed) retryTimer = setTimeout(() => void connect(), serverRetryMs);
    }
  };

  if (config.persistence.mode === 'embedded') {
    const problem = await probeWritableDirectory(config.persistence.directory);
    if (problem) {
      unavailable = new AppError('PERSISTENCE_UNAVAILABLE', `Persistence is unavailable: ${problem}`);
      logger.error({ persistence: mode }, problem);
    } else {
      await connect();
    }
  } else {
    await connect();
  }

  const requireOrm = (): Orm => {
    if (!orm) throw unavailable ?? new AppError('DATABASE_UNAVAILABLE', 'The database is not ready yet');
    return orm;
  };

  return {
    mode,
    fork: () => requireOrm().em.fork(),
    localOrganizationId() {
      requireOrm();
      return localOrganizationId;
    },
    async health() {
      if (!orm) return { ok: false, mode, error: unavailable?.message ?? 'not ready' };
      // A lock or a saturated pool leaves `select 1` working: recent request failures count too.
      if (Date.now() - lastUnavailableAt < degradedAfterFailureMs)
        return { ok: false, mode, error: 'database not answering requests in time' };
      const check = await orm.checkConnection();
      return check.ok ? { ok: true, mode } : { ok: false, mode, error: 'database unreachable' };
    },
    reportUnavailable() {
      lastUnavailableAt = Date.now();
    },
    reportAvailable() {
      lastUnavailableAt = 0;
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await orm?.close();
    },
  };
}
