import { ConnectionException, DriverException } from '@mikro-orm/core';
import type { Config, PersistenceMode } from '../config.js';
import type { Logger } from '../logger.js';
import { AppError } from '../../domain/errors.js';
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
  close(): Promise<void>;
}

const serverRetryMs = 5000;

export async function openPersistence(config: Config, logger: Logger): Promise<Persistence> {
  const mode = config.persistence.mode;
  let orm: Orm | null = null;
  let localOrganizationId = '';
  let unavailable: AppError | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const connect = async (): Promise<void> => {
    try {
      const opened = await openOrm(config.persistence, (message) => logger.debug({ component: 'orm' }, message));
      const local = await ensureLocalOrganization(opened.em.fork());
      if (closed) return void (await opened.close());
      localOrganizationId = local.id;
      orm = opened;
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
      const check = await orm.checkConnection();
      return check.ok ? { ok: true, mode } : { ok: false, mode, error: 'database unreachable' };
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      await orm?.close();
    },
  };
}

/**
 * What pg says when a pooled connection dies under a query (server restart,
 * network cut): MikroORM classifies these as a plain DriverException.
 */
const connectionLost = /Connection terminated|connection error and is not queryable|ECONNRESET|ECONNREFUSED|timeout exceeded when trying to connect/i;
const networkErrorCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * Whether a thrown error means the database could not be reached (→ 503, not
 * 500). Besides MikroORM's ConnectionException: a DriverException for a
 * connection lost mid-query, and the raw socket error pg-pool throws when a
 * transaction cannot get a connection (MikroORM passes that one through).
 * Store errors never get here: connection routes turn them into STORE_UNAVAILABLE first.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (error instanceof ConnectionException) return true;
  if (error instanceof DriverException) return connectionLost.test(error.message);
  return error instanceof Error && networkErrorCodes.has((error as NodeJS.ErrnoException).code ?? '');
}
